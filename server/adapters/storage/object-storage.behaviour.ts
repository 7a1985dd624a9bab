import { randomBytes } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import type { ObjectStorage } from './object-storage.ts';

/**
 * What every ObjectStorage does, whichever store keeps the bytes: each store's test file runs
 * this suite against a real store (a temporary folder, the local S3 stand-in over HTTP).
 * `storage` is read when a test runs, so a store created in beforeAll works.
 */
export function describeObjectStorage(name: string, storage: () => ObjectStorage) {
  describe(`${name}: the object storage behaviour`, () => {
    test('put then get returns the same bytes and type', async () => {
      await storage().put('products/a/1.webp', Buffer.from('RIFF'), 'image/webp');
      expect(await storage().get('products/a/1.webp')).toEqual({
        body: Buffer.from('RIFF'),
        contentType: 'image/webp',
      });
    });

    test('binary bytes of an image-sized object come back unchanged', async () => {
      const bytes = randomBytes(700_000);
      await storage().put('products/big/full-abc123.png', bytes, 'image/png');
      const stored = await storage().get('products/big/full-abc123.png');
      expect(stored?.contentType).toBe('image/png');
      expect(stored?.body.equals(bytes)).toBe(true);
    });

    test('put replaces what was stored under the key', async () => {
      await storage().put('drafts/new/1.webp', Buffer.from('first'), 'image/webp');
      await storage().put('drafts/new/1.webp', Buffer.from('second'), 'image/webp');
      expect((await storage().get('drafts/new/1.webp'))?.body.toString()).toBe('second');
    });

    test('keys are whole names: a prefix or a neighbour is another key', async () => {
      await storage().put('products/k/image-1.webp', Buffer.from('one'), 'image/webp');
      expect(await storage().get('products/k/image-1')).toBeNull();
      expect(await storage().get('products/k')).toBeNull();
      expect(await storage().get('products/k/image-1-400w.webp')).toBeNull();
    });

    test('get of a missing key is null, and delete of it is fine', async () => {
      expect(await storage().get('products/none.webp')).toBeNull();
      await storage().delete('products/none.webp');
    });

    test('delete removes the object, and a second delete is fine', async () => {
      await storage().put('x/y.png', Buffer.from('png'), 'image/png');
      await storage().delete('x/y.png');
      expect(await storage().get('x/y.png')).toBeNull();
      await storage().delete('x/y.png');
    });

    test('keys that could leave the store are refused by every method', async () => {
      for (const key of [
        '../etc/passwd',
        '/abs.webp',
        'a/../../b.webp',
        'a//b.webp',
        'a\\b.webp',
        'a/b\u0000.webp',
        '',
      ]) {
        await expect(storage().put(key, Buffer.from(''), 'image/webp')).rejects.toThrow(/unsafe storage key/);
        await expect(storage().get(key)).rejects.toThrow(/unsafe storage key/);
        await expect(storage().delete(key)).rejects.toThrow(/unsafe storage key/);
      }
    });

    test('the public URL of a key ends with the key', () => {
      expect(storage().publicUrl('products/a/1.webp')).toMatch(/\/products\/a\/1\.webp$/);
    });
  });
}
