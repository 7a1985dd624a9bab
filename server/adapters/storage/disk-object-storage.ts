import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { assertSafeKey, MEDIA_PREFIX, type ObjectStorage } from './object-storage.ts';

/** The URL prefix under which the app serves the files of the disk store. */

const contentTypes: Record<string, string> = {
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.png': 'image/png',
};

/** The default store: files under a folder (data/uploads), served by the app at /media/. */
export function createDiskObjectStorage(root: string): ObjectStorage & { root: string } {
  const fileOf = (key: string) => {
    assertSafeKey(key);
    return path.join(root, key);
  };
  return {
    name: 'disk',
    root,
    async put(key, body) {
      const file = fileOf(key);
      await mkdir(path.dirname(file), { recursive: true });
      // Write then rename, so a reader never sees half a file.
      const temp = `${file}.${process.pid}.tmp`;
      await writeFile(temp, body);
      await rename(temp, file);
    },
    async get(key) {
      try {
        const body = await readFile(fileOf(key));
        return { body, contentType: contentTypes[path.extname(key).toLowerCase()] ?? 'application/octet-stream' };
      } catch (error) {
        // No such file, a folder, or a name the file system cannot hold: in every case no object.
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR' || code === 'ENAMETOOLONG') return null;
        throw error;
      }
    },
    async delete(key) {
      await rm(fileOf(key), { force: true });
    },
    publicUrl: (key) => `${MEDIA_PREFIX}${key}`,
  };
}
