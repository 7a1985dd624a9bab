import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, test } from 'vitest';
import { precompress } from './precompress.ts';

describe('precompress', () => {
  const dirs: string[] = [];
  afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

  test('writes .gz and .br beside each text file that decompress to it; skips small and binary files', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'precompress-'));
    dirs.push(dir);
    await mkdir(path.join(dir, 'assets'));
    const script = `export const calm = ${JSON.stringify('still water '.repeat(400))};\n`;
    await writeFile(path.join(dir, 'assets', 'entry-abc.js'), script);
    await writeFile(path.join(dir, 'assets', 'tiny-abc.js'), 'export {};\n');
    await writeFile(path.join(dir, 'assets', 'photo-abc.webp'), Buffer.alloc(4096, 7));

    expect(precompress(dir)).toBe(1);
    const file = path.join(dir, 'assets', 'entry-abc.js');
    expect(gunzipSync(await readFile(`${file}.gz`)).toString()).toBe(script);
    expect(brotliDecompressSync(await readFile(`${file}.br`)).toString()).toBe(script);
    expect((await readFile(`${file}.br`)).length).toBeLessThan(script.length / 10);
    expect(existsSync(path.join(dir, 'assets', 'tiny-abc.js.gz'))).toBe(false);
    expect(existsSync(path.join(dir, 'assets', 'photo-abc.webp.gz'))).toBe(false);
  });
});
