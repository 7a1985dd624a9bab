/**
 * Builds the web app when its sources changed since the last build. `npm start` calls it, so a
 * fresh clone builds on its first start and a restart with unchanged sources costs a hash.
 * Instances started together from one checkout take turns through a lock file: one builds, the
 * others wait for it and then find the build done.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { appRoot } from '../app-root.ts';
import { takeBuildLock } from '../build-lock.ts';
import { hashFiles } from '../bundle-stamp.js';
import { precompress } from './precompress.ts';

const inputs = [
  'web',
  'common',
  'public',
  'server/react-router-entry.ts',
  'vite.config.ts',
  'react-router.config.ts',
  'package-lock.json',
];

/** Beside build/, not in it: React Router's build deletes the whole build folder first. */
export const BUILD_LOCK_FILE = '.web-build.lock';
/** A real build takes a minute or two; a holder still alive after this long is taken to be stuck. */
const WAIT_LIMIT_MS = 15 * 60_000;

type WebBuildOptions = {
  /** Builds even when the sources are unchanged (`npm run build`). */
  force?: boolean;
  /** The checkout whose web app is built; tests pass a folder of their own. */
  root?: string;
  /** Builds `root`'s web app into `root/build`; tests pass a stand-in. */
  build?: (root: string) => void;
  waitLimitMs?: number;
};

function listFiles(root: string, entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => listFiles(root, path.join(entry, name)));
}

function sourceHash(root: string): string {
  return hashFiles(
    root,
    inputs.flatMap((entry) => listFiles(root, entry)),
  );
}

/** The source hash the present build was made from, or null when there is no complete build. */
function builtHash(root: string): string | null {
  const stampFile = path.join(root, 'build/.source-hash');
  if (!existsSync(stampFile) || !existsSync(path.join(root, 'build/server/index.js'))) return null;
  return readFileSync(stampFile, 'utf8').trim();
}

function buildWithReactRouter(root: string): void {
  const result = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the web build failed (exit code ${result.status})`);
  precompress(path.join(root, 'build/client'));
}

/** Builds when the sources differ from the last build's (or always, with force); returns whether it built. */
export function ensureWebBuild({
  force = false,
  root = appRoot,
  build = buildWithReactRouter,
  waitLimitMs = WAIT_LIMIT_MS,
}: WebBuildOptions = {}): boolean {
  const current = sourceHash(root);
  if (!force && builtHash(root) === current) return false;
  const release = takeBuildLock(path.join(root, BUILD_LOCK_FILE), { waitLimitMs, building: 'the web app' });
  try {
    // The instance that held the lock may have built these very sources meanwhile.
    if (!force && builtHash(root) === current) return false;
    if (!force) process.stdout.write('Building the web app (its sources changed since the last build)…\n');
    build(root);
    writeFileSync(path.join(root, 'build/.source-hash'), `${current}\n`);
    return true;
  } finally {
    release();
  }
}
