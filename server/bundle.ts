/**
 * The server's bundle (server/start.js runs it): server/main.ts and what it imports, packages
 * included, in one ES module graph of a few files, built with esbuild into dist/server/<build>/.
 * `npm run build` builds it, and `npm start` when a file it was made from changed.
 *
 * Each build has a folder of its own, named by its sources' hash, and the previous one is kept:
 * an instance still running it loads its chunks on first use (exports, emails, the AI), so a
 * rebuild must not delete them under it.
 */
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { appRoot } from './app-root.ts';
import { takeBuildLock } from './build-lock.ts';
import { BUNDLE_DIR, type BundleStamp, currentBundleEntry, hashFiles, readStamp, STAMP_FILE } from './bundle-stamp.js';

/** Beside dist/, in the checkout's root, as the web build's lock is. */
export const BUNDLE_LOCK_FILE = '.server-build.lock';
/** A bundle takes a second or two; a holder still alive after this long is taken to be stuck. */
const WAIT_LIMIT_MS = 5 * 60_000;

/**
 * Packages loaded from node_modules as they are, not bundled: those that read files beside their
 * own code at run time, those loaded only after the first answer or on some requests (nothing to
 * gain at start, and the build would take seconds longer), and the development server's.
 */
export const UNBUNDLED_PACKAGES = [
  // Its WebAssembly and data files; sharp's native addon.
  '@electric-sql/pglite',
  'sharp',
  // Their transports and workers run from their own files in worker threads.
  'pino',
  'thread-stream',
  // Loaded after the first answer (the job queue), on first use (exports, object storage) or
  // only when configured (Redis, which also reads its package.json beside its code).
  'pg-boss',
  'ioredis',
  'exceljs',
  '@aws-sdk/*',
  // node-postgres' optional native driver, never installed.
  'pg-native',
  // `npm run dev` only.
  'vite',
  '@react-router/dev',
  '@vitejs/*',
  'lightningcss',
  'rolldown',
];

type BundleOptions = {
  /** Builds even when the sources are unchanged (`npm run build`). */
  force?: boolean;
  /** The checkout whose server is bundled; tests pass a folder of their own. */
  root?: string;
};

/** Builds the bundle when a file it was made from changed (or always, with force); returns whether it built. */
export async function ensureServerBundle({ force = false, root = appRoot }: BundleOptions = {}): Promise<boolean> {
  if (!force && currentBundleEntry(root)) return false;
  const release = takeBuildLock(path.join(root, BUNDLE_LOCK_FILE), {
    waitLimitMs: WAIT_LIMIT_MS,
    building: "the server's bundle",
  });
  try {
    // The instance that held the lock may have built these very sources meanwhile.
    if (!force && currentBundleEntry(root)) return false;
    if (!force) process.stdout.write("Building the server's bundle (its sources changed since the last build)…\n");
    await bundle(root);
    return true;
  } finally {
    release();
  }
}

async function bundle(root: string): Promise<void> {
  // The packages' versions and how the bundle is made; read before the build, so a change
  // during it leads to another one.
  const manifests = ['package.json', 'package-lock.json', 'server/bundle.ts', 'server/bundle-stamp.js'];
  const contents = new Map(
    await Promise.all(manifests.map(async (file) => [file, await readFile(path.join(root, file))] as const)),
  );
  const building = path.join(root, BUNDLE_DIR, `.building-${process.pid}`);
  const result = await build({
    absWorkingDir: root,
    entryPoints: ['server/main.ts'],
    outdir: building,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node24',
    chunkNames: 'chunks/[name]-[hash]',
    external: UNBUNDLED_PACKAGES,
    // Bundled CommonJS packages call require() for Node's own modules and the unbundled packages.
    banner: {
      js: "import { createRequire as __createRequire } from 'node:module';\nconst require = __createRequire(import.meta.url);",
    },
    plugins: [recordSources(root, contents), filesBesideTheirCode(root)],
    logLevel: 'warning',
  });
  if (result.errors.length > 0) throw new Error("the server's bundle could not be built");
  // The hash of exactly what was bundled: the shop's modules as esbuild read them.
  const inputs = [...manifests, ...[...contents.keys()].filter((file) => !manifests.includes(file)).sort()];
  const hash = hashFiles(root, inputs, (file) => contents.get(file) as Uint8Array);
  const folder = path.join(BUNDLE_DIR, hash.slice(0, 16));
  await rm(path.join(root, folder), { recursive: true, force: true });
  await rename(building, path.join(root, folder));
  const previous = readStamp(root);
  const stamp: BundleStamp = { hash, entry: path.join(folder, 'main.js'), inputs };
  // Written whole, then moved into place: a start reading it never sees half of it.
  const stampFile = path.join(root, STAMP_FILE);
  await writeFile(`${stampFile}.${process.pid}`, `${JSON.stringify(stamp, null, 1)}\n`);
  await rename(`${stampFile}.${process.pid}`, stampFile);
  await removeOldBundles(root, [folder, ...(previous ? [path.dirname(previous.entry)] : [])]);
}

/** Reads the shop's own modules for esbuild, keeping what it read (the packages are in package-lock.json). */
function recordSources(root: string, contents: Map<string, Uint8Array>): Plugin {
  return {
    name: 'record-sources',
    setup(build) {
      build.onLoad({ filter: /\.(ts|tsx|js|json)$/ }, async (args) => {
        if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
        const source = await readFile(args.path);
        contents.set(path.relative(root, args.path), source);
        const extension = path.extname(args.path).slice(1) as 'ts' | 'tsx' | 'js' | 'json';
        return { contents: source, loader: extension };
      });
    },
  };
}

/**
 * Bundled packages that read files beside their code through `__dirname` (Swagger UI: its page's
 * scripts and logo). Their `__dirname` is their folder in node_modules, found when the bundle runs.
 */
const READING_BESIDE_THEIR_CODE = ['@fastify/swagger-ui'];

function filesBesideTheirCode(root: string): Plugin {
  const fromRoot = createRequire(path.join(root, 'package.json'));
  return {
    name: 'files-beside-their-code',
    setup(build) {
      for (const name of READING_BESIDE_THEIR_CODE) {
        const packageRoot = packageFolderOf(fromRoot, name);
        if (!packageRoot) continue; // Not installed here: nothing of it is bundled.
        const filter = new RegExp(`^${escapeForPattern(packageRoot + path.sep)}.*\\.js$`);
        build.onLoad({ filter }, async (args) => {
          const source = await readFile(args.path, 'utf8');
          const within = path.relative(packageRoot, path.dirname(args.path)).split(path.sep).join('/');
          const folder = `require('node:path').join(require('node:path').dirname(require.resolve(${JSON.stringify(`${name}/package.json`)})), ${JSON.stringify(within)})`;
          return { contents: source.replaceAll(/\b__dirname\b/g, `(${folder})`), loader: 'js' };
        });
      }
    },
  };
}

function packageFolderOf(fromRoot: NodeJS.Require, name: string): string | undefined {
  try {
    return path.dirname(fromRoot.resolve(`${name}/package.json`));
  } catch {
    return undefined;
  }
}

/** A path as a pattern matching just it (esbuild's filters are Go patterns: the same escapes). */
function escapeForPattern(text: string): string {
  return text.replaceAll(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

async function removeOldBundles(root: string, keep: string[]): Promise<void> {
  const kept = new Set(keep.map((folder) => path.basename(folder)));
  for (const entry of await readdir(path.join(root, BUNDLE_DIR), { withFileTypes: true })) {
    if (entry.isDirectory() && !kept.has(entry.name)) {
      // Under the lock: a `.building-` folder is one a build that died left.
      await rm(path.join(root, BUNDLE_DIR, entry.name), { recursive: true, force: true });
    }
  }
}
