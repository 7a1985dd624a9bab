import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { createDiskObjectStorage } from './disk-object-storage.ts';

const root = await mkdtemp(path.join(tmpdir(), 'sw-storage-'));
afterAll(() => rm(root, { recursive: true, force: true }));

describe('disk object storage', () => {
  const storage = createDiskObjectStorage(root);

  test('put then get returns the same bytes and type', async () => {
    await storage.put('products/a/1.webp', Buffer.from('RIFF'), 'image/webp');
    expect(await storage.get('products/a/1.webp')).toEqual({ body: Buffer.from('RIFF'), contentType: 'image/webp' });
  });

  test('get of a missing key is null, and delete of it is fine', async () => {
    expect(await storage.get('products/none.webp')).toBeNull();
    await storage.delete('products/none.webp');
  });

  test('delete removes the object', async () => {
    await storage.put('x/y.png', Buffer.from('png'), 'image/png');
    await storage.delete('x/y.png');
    expect(await storage.get('x/y.png')).toBeNull();
  });

  test('keys that could leave the store are refused', async () => {
    for (const key of ['../etc/passwd', '/abs.webp', 'a/../../b.webp', 'a//b.webp', 'a\\b.webp']) {
      await expect(storage.put(key, Buffer.from(''), 'image/webp')).rejects.toThrow(/unsafe storage key/);
    }
  });

  test('public URLs live under /media/', () => {
    expect(storage.publicUrl('products/a/1.webp')).toBe('/media/products/a/1.webp');
  });
});
