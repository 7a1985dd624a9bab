import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { appRoot } from './app-root.ts';
import { ensureServerBundle } from './bundle.ts';
import { BUNDLE_DIR, currentBundleEntry, readStamp } from './bundle-stamp.js';

/** Each test bundles a small server of its own, in a checkout of its own under the temporary folder. */
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function checkout(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'stillwater-bundle-'));
  roots.push(root);
  mkdirSync(path.join(root, 'server'));
  writeFileSync(path.join(root, 'package.json'), '{ "name": "bundle-test", "type": "module" }\n');
  writeFileSync(path.join(root, 'package-lock.json'), '{}\n');
  for (const file of ['server/bundle.ts', 'server/bundle-stamp.js']) {
    copyFileSync(path.join(appRoot, file), path.join(root, file));
  }
  writeFileSync(
    path.join(root, 'server/main.ts'),
    "import { word } from './word.ts';\nconst later = await import('./later.ts');\nconsole.log(word, later.word);\n",
  );
  setWord(root, 'one');
  writeFileSync(path.join(root, 'server/later.ts'), "export const word: string = 'later';\n");
  return root;
}

function setWord(root: string, word: string): void {
  writeFileSync(path.join(root, 'server/word.ts'), `export const word: string = '${word}';\n`);
}

/** Runs the bundle's entry as server/start.js does, and returns what it printed. */
function runBundle(root: string): string {
  const entry = currentBundleEntry(root);
  if (!entry) throw new Error('no current bundle');
  return execFileSync(process.execPath, [entry], { encoding: 'utf8' }).trim();
}

function bundleFolders(root: string): string[] {
  return readdirSync(path.join(root, BUNDLE_DIR), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

describe("the server's bundle", () => {
  test('is built once, runs the sources as they were, and records exactly the files it was made from', async () => {
    const root = checkout();
    expect(currentBundleEntry(root)).toBeNull();
    expect(await ensureServerBundle({ root })).toBe(true);
    expect(runBundle(root)).toBe('one later');
    expect(readStamp(root)?.inputs).toEqual([
      'package.json',
      'package-lock.json',
      'server/bundle.ts',
      'server/bundle-stamp.js',
      'server/later.ts',
      'server/main.ts',
      'server/word.ts',
    ]);
    // Unchanged sources: nothing to do.
    expect(await ensureServerBundle({ root })).toBe(false);
    // A file no module imports is not one of its sources.
    writeFileSync(path.join(root, 'server/notes.ts'), 'export {};\n');
    expect(currentBundleEntry(root)).not.toBeNull();
  }, 60_000);

  test('is built again when a source, a package or the way it is built changed, or a source is gone', async () => {
    const root = checkout();
    await ensureServerBundle({ root });
    setWord(root, 'two');
    expect(currentBundleEntry(root)).toBeNull();
    expect(await ensureServerBundle({ root })).toBe(true);
    expect(runBundle(root)).toBe('two later');

    writeFileSync(path.join(root, 'package-lock.json'), '{ "lockfileVersion": 3 }\n');
    expect(currentBundleEntry(root)).toBeNull();
    await ensureServerBundle({ root });
    writeFileSync(path.join(root, 'server/bundle.ts'), '// changed\n', { flag: 'a' });
    expect(currentBundleEntry(root)).toBeNull();
    await ensureServerBundle({ root });

    rmSync(path.join(root, 'server/later.ts'));
    expect(currentBundleEntry(root)).toBeNull();
  }, 60_000);

  test('is built again when its folder was removed but its stamp was not', async () => {
    const root = checkout();
    await ensureServerBundle({ root });
    const entry = currentBundleEntry(root) as string;
    rmSync(path.dirname(entry), { recursive: true });
    expect(currentBundleEntry(root)).toBeNull();
    expect(await ensureServerBundle({ root })).toBe(true);
    expect(runBundle(root)).toBe('one later');
  }, 60_000);

  test('keeps the previous build, whose chunks a running instance may still load, and removes older ones', async () => {
    const root = checkout();
    await ensureServerBundle({ root });
    const first = readStamp(root)?.entry as string;
    setWord(root, 'two');
    await ensureServerBundle({ root });
    const second = readStamp(root)?.entry as string;
    expect(bundleFolders(root)).toEqual(
      [path.basename(path.dirname(first)), path.basename(path.dirname(second))].sort(),
    );
    // The previous build still runs, its later-loaded chunk included.
    expect(execFileSync(process.execPath, [path.join(root, first)], { encoding: 'utf8' }).trim()).toBe('one later');

    setWord(root, 'three');
    await ensureServerBundle({ root });
    const third = readStamp(root)?.entry as string;
    expect(existsSync(path.join(root, path.dirname(first)))).toBe(false);
    expect(bundleFolders(root)).toEqual(
      [path.basename(path.dirname(second)), path.basename(path.dirname(third))].sort(),
    );
    // Building the same sources again gives the same folder, rebuilt in place.
    await ensureServerBundle({ root, force: true });
    expect(readStamp(root)?.entry).toBe(third);
    expect(runBundle(root)).toBe('three later');
  }, 60_000);
});
