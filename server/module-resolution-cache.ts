/**
 * A shortcut through Node's module resolution for the packages the server loads at start.
 *
 * Node 24 looks up and reads a module's package.json again for every module it loads (to tell
 * ESM from CommonJS), walking up the folders and handing the whole file from C++ to JavaScript
 * each time (nodejs/node#58126, #60425), and reads a package's `exports` again for every import
 * of it by name. drizzle-orm's package.json is 179 kB and ~110 of its modules load at start,
 * from ~200 of ours; with the page renderer's ~1,000 other package modules, that was ~0.5 s of
 * every start (and several seconds on a busy machine), mostly copying, parsing and collecting
 * the same files.
 *
 * The hook answers as Node would, remembering what it read:
 * - a relative `.js`, `.mjs` or `.cjs` import inside node_modules is the file beside its
 *   importer, ESM or CommonJS by its extension and the `type` of the nearest package.json
 *   (each folder's lookup and each package.json read once);
 * - an import of drizzle-orm by name (one installed copy) is resolved by Node once.
 * Anything else, and any file that is not there, goes to Node as before.
 */
import { existsSync, readFileSync } from 'node:fs';
import { registerHooks } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** Packages imported by name from many of our modules, with a large package.json (`exports`). */
export const LARGE_MANIFEST_PACKAGES = ['drizzle-orm'] as const;

type ResolveHook = Parameters<typeof registerHooks>[0]['resolve'] & {};
type ResolveResult = ReturnType<ResolveHook>;

const MODULE_EXTENSION = /\.(?:js|mjs|cjs)$/;

function isRelative(specifier: string): boolean {
  return specifier.startsWith('./') || specifier.startsWith('../');
}

function isByName(specifier: string): boolean {
  return LARGE_MANIFEST_PACKAGES.some((name) => specifier === name || specifier.startsWith(`${name}/`));
}

/** The `type` of the package.json nearest to a folder ('commonjs' when none says 'module'), remembered per folder. */
function createScopeTypes() {
  const byFolder = new Map<string, 'module' | 'commonjs'>();
  const typeOf = (folder: string): 'module' | 'commonjs' => {
    const known = byFolder.get(folder);
    if (known) return known;
    const manifest = path.join(folder, 'package.json');
    let type: 'module' | 'commonjs';
    if (existsSync(manifest)) {
      type =
        (JSON.parse(readFileSync(manifest, 'utf8')) as { type?: unknown }).type === 'module' ? 'module' : 'commonjs';
    } else {
      const parent = path.dirname(folder);
      type = parent === folder ? 'commonjs' : typeOf(parent);
    }
    byFolder.set(folder, type);
    return type;
  };
  return typeOf;
}

/** The resolve hook itself (exported for its test). */
export function createResolveShortcut(): ResolveHook {
  const byName = new Map<string, ResolveResult>();
  const scopeType = createScopeTypes();
  return (specifier, context, nextResolve) => {
    const parent = context.parentURL;
    if (
      parent?.startsWith('file:') &&
      parent.includes('/node_modules/') &&
      isRelative(specifier) &&
      MODULE_EXTENSION.test(specifier)
    ) {
      const url = new URL(specifier, parent);
      const file = fileURLToPath(url);
      // Inside node_modules still (no symbolic links to follow there), and there.
      if (file.includes(`${path.sep}node_modules${path.sep}`) && existsSync(file)) {
        const format = file.endsWith('.mjs')
          ? 'module'
          : file.endsWith('.cjs')
            ? 'commonjs'
            : scopeType(path.dirname(file));
        return { url: pathToFileURL(file).href, format, shortCircuit: true };
      }
    }
    if (isByName(specifier)) {
      // One installed copy (npm dedupes it), so the answer does not depend on the importer.
      const key = `${specifier}\0${context.conditions?.join(',') ?? ''}`;
      let resolved = byName.get(key);
      if (!resolved) {
        resolved = { ...nextResolve(specifier, context), shortCircuit: true };
        byName.set(key, resolved);
      }
      return resolved;
    }
    return nextResolve(specifier, context);
  };
}

/** Installs the shortcut for the modules this process loads from now on. */
export function installModuleResolutionCache(): void {
  registerHooks({ resolve: createResolveShortcut() });
}
