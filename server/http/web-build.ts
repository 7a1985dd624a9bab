/**
 * Builds the web app when its sources changed since the last build. `npm start` calls it, so a
 * fresh clone builds on its first start and a restart with unchanged sources costs a hash.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const stampFile = path.join(root, 'build/.source-hash');
const inputs = [
  'web',
  'common',
  'public',
  'server/react-router-entry.ts',
  'vite.config.ts',
  'react-router.config.ts',
  'package-lock.json',
];

function listFiles(entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => listFiles(path.join(entry, name)));
}

function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap(listFiles)) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** Builds when the sources differ from the last build's (or always, with force); returns whether it built. */
export function ensureWebBuild({ force = false }: { force?: boolean } = {}): boolean {
  const current = sourceHash();
  const built =
    existsSync(stampFile) && existsSync(path.join(root, 'build/server/index.js'))
      ? readFileSync(stampFile, 'utf8').trim()
      : null;
  if (!force && built === current) return false;
  if (!force) process.stdout.write('Building the web app (its sources changed since the last build)…\n');
  const result = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the web build failed (exit code ${result.status})`);
  precompress(path.join(root, 'build/client'));
  writeFileSync(stampFile, `${current}\n`);
  return true;
}
