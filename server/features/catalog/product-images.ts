import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { FULL_IMAGE_WIDTH, IMAGE_WIDTHS } from '#common/images.ts';
import type { ObjectStorage } from '#server/adapters/storage/object-storage.ts';

/**
 * Decodes an image, strips its metadata and stores it as WebP at every rendition width (never
 * upscaled). The key ends in a hash of the input, so its URL can be cached forever and the
 * same input is not encoded twice. Returns the URL of the widest rendition and its size.
 */
export async function storeProductImage(storage: ObjectStorage, keyBase: string, input: Buffer) {
  const hash = createHash('sha256').update(input).digest('hex').slice(0, 12);
  const key = `${keyBase}-${hash}.webp`;
  const url = storage.publicUrl(key);

  const stored = await storage.get(key);
  if (stored) {
    const { width = 0, height = 0 } = await sharp(stored.body).metadata();
    return { url, key, width, height };
  }

  const full = await sharp(input, { limitInputPixels: 40_000_000 })
    .rotate()
    .resize({ width: FULL_IMAGE_WIDTH, height: FULL_IMAGE_WIDTH, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  const narrower = IMAGE_WIDTHS.filter((width) => width < FULL_IMAGE_WIDTH);
  // The widest file is written last: its presence means the whole set is there.
  await Promise.all(
    narrower.map(async (width) => {
      const data = await sharp(full.data).resize({ width, withoutEnlargement: true }).webp({ quality: 78 }).toBuffer();
      await storage.put(key.replace(/\.webp$/, `-${width}w.webp`), data, 'image/webp');
    }),
  );
  await storage.put(key, full.data, 'image/webp');
  return { url, key, width: full.info.width, height: full.info.height };
}

/**
 * Where an admin's image goes (back-office spec 3, storage paths): products/{productId}/image-{n}-{timestamp}
 * for a saved product, drafts/{aliId or new}/image-{n}-{timestamp} while the product is being
 * created. storeProductImage adds the content hash and the extension.
 */
export function productImageKeyBase(
  { productId, aliId }: { productId: string | null; aliId: string | null },
  n: number,
  now = Date.now(),
): string {
  const folder = productId ? `products/${productId}` : `drafts/${aliId || 'new'}`;
  return `${folder}/image-${n}-${now}`;
}
