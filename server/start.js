// @ts-check
/**
 * `npm start`: runs the server from its bundle (dist/server, built by server/bundle.ts), built
 * again first when a file it was made from changed, as the web app is (server/http/web-build.ts).
 *
 * The bundle is one module graph in a few files instead of about a thousand modules, and it is
 * JavaScript: Node neither resolves nor strips each module at start. This file is JavaScript
 * for the same reason (Node loads its TypeScript stripper, about 40 ms, for the first .ts file it
 * runs), so a start with unchanged sources loads no TypeScript at all. `npm run dev` and the
 * tests of the server run the sources; the browser tests, the crash and multi-instance suites
 * and the benchmarks start the shop through this file.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { currentBundleEntry } from './bundle-stamp.js';

const root = fileURLToPath(new URL('..', import.meta.url));

let entry = currentBundleEntry(root);
if (!entry) {
  // Builds under a lock (instances started together build once); this process's own flags
  // (the heap's limits) are not the build's.
  const built = spawnSync(process.execPath, [path.join(root, 'scripts/build-server.ts')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0) process.exit(built.status ?? 1);
  entry = currentBundleEntry(root);
  if (!entry) throw new Error('the server bundle was built, but its sources changed meanwhile: start again');
}
await import(pathToFileURL(entry).href);
