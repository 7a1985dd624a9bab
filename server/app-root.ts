import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The checkout's root folder (the one with package.json), found from this module's place: the
 * sources are in server/, their bundle in dist/server/<build>/ (server/bundle.ts), so paths
 * relative to the module would differ between the two.
 */
export const appRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));

function findRoot(from: string): string {
  for (let folder = from; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'package.json'))) return folder;
    if (path.dirname(folder) === folder) throw new Error(`no package.json above ${from}`);
  }
}
