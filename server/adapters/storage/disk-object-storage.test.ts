import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createDiskObjectStorage } from './disk-object-storage.ts';
import { describeObjectStorage } from './object-storage.behaviour.ts';

const root = await mkdtemp(path.join(tmpdir(), 'sw-storage-'));
afterAll(() => rm(root, { recursive: true, force: true }));
const storage = createDiskObjectStorage(root);

describeObjectStorage('disk', () => storage);

describe('disk object storage', () => {
  test('public URLs live under /media/', () => {
    expect(storage.publicUrl('products/a/1.webp')).toBe('/media/products/a/1.webp');
  });

  test('objects are files under the root', async () => {
    await storage.put('products/f/1.webp', Buffer.from('RIFF'), 'image/webp');
    expect(await readFile(path.join(root, 'products/f/1.webp'), 'utf8')).toBe('RIFF');
  });
});
