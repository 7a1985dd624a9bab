import { createHash } from 'node:crypto';
import type { Metadata } from 'sharp';
import { FULL_IMAGE_WIDTH, IMAGE_WIDTHS } from '#common/images.ts';
import type { ObjectStorage } from '#server/adapters/storage/object-storage.ts';

/**
 * The most pixels an upload may declare: 40 megapixels (8,000 × 5,000), twice a 20 MP phone
 * photo. Checked from the header before anything is decoded, so a 50,000 × 50,000 "bomb" costs
 * nothing; libvips enforces it again while decoding.
 */
export const MAX_IMAGE_PIXELS = 40_000_000;

/** libvips (sharp) is loaded by the first image handled, not when the server starts. */
async function loadSharp() {
  return (await import('sharp')).default;
}

/** The image types the shop accepts, judged by their bytes (never the name or the content type). */
export type ImageKind = 'jpeg' | 'png' | 'webp';

export type StoreImageOptions = {
  /**
   * Also accept SVG: only for artwork the shop draws itself (the demo seed's illustrations),
   * never for an upload or a fetched image.
   */
  allowSvg?: boolean;
};

/** Why an image was refused: not a JPEG, PNG or WebP; too many pixels; or bytes that do not decode. */
export type ImageRejection = 'not_an_image' | 'too_many_pixels' | 'undecodable';

export class ImageRejected extends Error {
  readonly code: ImageRejection;
  constructor(code: ImageRejection, message: string) {
    super(message);
    this.name = 'ImageRejected';
    this.code = code;
  }
}

/** The type by the file's first bytes (its magic number): JPEG, PNG or WebP; null for anything else. */
export function sniffImageKind(bytes: Buffer): ImageKind | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'jpeg';
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'png';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return null;
}
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Where a rendition of a stored image lives: the full one's key with its width before `.webp`. */
export function renditionKey(key: string, width: number): string {
  return width >= FULL_IMAGE_WIDTH ? key : key.replace(/\.webp$/, `-${width}w.webp`);
}
const NARROWER_WIDTHS = IMAGE_WIDTHS.filter((width) => width < FULL_IMAGE_WIDTH);

const contentHash = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex').slice(0, 12);

/**
 * Checks an image by its bytes (JPEG, PNG or WebP only, at most MAX_IMAGE_PIXELS), decodes it
 * once at the storefront's full width (JPEG shrinks while it decodes), and stores it re-encoded
 * as WebP at every rendition width (never upscaled, metadata stripped, so whatever rode along
 * in a chunk or a comment — a script, an HTML polyglot, a location — is gone). The key ends in a
 * hash of the input, so its URL can be cached forever and the same input is not encoded twice.
 * Returns the URL of the widest rendition and its size; throws ImageRejected for a refused input.
 */
export async function storeProductImage(
  storage: ObjectStorage,
  keyBase: string,
  input: Buffer,
  { allowSvg = false }: StoreImageOptions = {},
) {
  const kind = sniffImageKind(input) ?? (allowSvg && isSvgText(input) ? 'svg' : null);
  if (!kind) throw new ImageRejected('not_an_image', 'The file is not a JPEG, PNG or WebP image');
  const key = `${keyBase}-${contentHash(input)}.webp`;
  const url = storage.publicUrl(key);

  const sharp = await loadSharp();
  const stored = await storage.get(key);
  if (stored) {
    const { width = 0, height = 0 } = await sharp(stored.body).metadata();
    return { url, key, width, height };
  }

  const full = await renderFull(input, kind);
  // Every rendition comes from the one decoded full-width copy, not from the upload again, and
  // the three are encoded at once (each encode keeps one core busy). WebP effort 2 of 6: a third
  // of the default's time, for files of much the same size.
  const encode = (width: number | null, quality: number) => {
    const pipeline = sharp(full.pixels, { raw: full.raw });
    return (width === null ? pipeline : pipeline.resize({ width })).webp({ quality, effort: 2 }).toBuffer();
  };
  const [fullWebp, ...narrower] = await Promise.all([
    encode(null, 80),
    ...NARROWER_WIDTHS.filter((width) => width < full.info.width).map(async (width) => ({
      width,
      data: await encode(width, 78),
    })),
  ]);
  // A small image's narrower renditions are the full one: the storefront asks for them all.
  for (const width of NARROWER_WIDTHS) {
    const data = narrower.find((rendition) => rendition.width === width)?.data ?? fullWebp;
    await storage.put(renditionKey(key, width), data, 'image/webp');
  }
  // The widest file is written last: its presence means the whole set is there.
  await storage.put(key, fullWebp, 'image/webp');
  return { url, key, width: full.info.width, height: full.info.height };
}

/** An SVG document by its first characters (for StoreImageOptions.allowSvg only). */
function isSvgText(input: Buffer): boolean {
  const start = input.toString('utf8', 0, 256).trimStart();
  return start.startsWith('<svg') || (start.startsWith('<?xml') && input.includes('<svg'));
}

/** The image decoded, turned upright and shrunk to fit FULL_IMAGE_WIDTH, as raw pixels. */
async function renderFull(input: Buffer, kind: ImageKind | 'svg') {
  const sharp = await loadSharp();
  let metadata: Metadata;
  try {
    // Reads the header only.
    metadata = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new ImageRejected('undecodable', 'The image could not be read');
  }
  // The bytes must be what they start as: a PNG header on a GIF, or the reverse, is refused.
  if (metadata.format !== kind) throw new ImageRejected('not_an_image', 'The file is not a JPEG, PNG or WebP image');
  const { width = 0, height = 0 } = metadata;
  if (width * height > MAX_IMAGE_PIXELS) {
    throw new ImageRejected(
      'too_many_pixels',
      `The image is too large: at most ${MAX_IMAGE_PIXELS / 1_000_000} million pixels (this one has ${width} × ${height})`,
    );
  }
  try {
    const { data, info } = await sharp(input, {
      limitInputPixels: MAX_IMAGE_PIXELS,
      sequentialRead: true,
      // A truncated or corrupt file is refused rather than stored half grey.
      failOn: 'error',
    })
      .rotate()
      .resize({ width: FULL_IMAGE_WIDTH, height: FULL_IMAGE_WIDTH, fit: 'inside', withoutEnlargement: true })
      .raw()
      .toBuffer({ resolveWithObject: true });
    const raw = { width: info.width, height: info.height, channels: info.channels as 1 | 2 | 3 | 4 };
    return { pixels: data, info, raw };
  } catch (error) {
    if (error instanceof Error && /pixel limit/i.test(error.message)) {
      throw new ImageRejected('too_many_pixels', 'The image has too many pixels');
    }
    throw new ImageRejected('undecodable', 'The image could not be read');
  }
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

/** The longest file name (before the hash and extension) a rename keeps. */
export const IMAGE_NAME_MAX = 80;

/**
 * A rename's name as a file name: its extension stripped, trimmed, accents dropped, lower case,
 * runs of anything but letters and digits made one hyphen, at most IMAGE_NAME_MAX characters.
 * Null when nothing is left after trimming (spec 5: the name must not be empty); 'image' when
 * only characters a file name cannot keep were given.
 */
export function safeImageName(name: string): string | null {
  const bare = name
    .trim()
    .replace(/\.[^./\\]*$/, '')
    .trim();
  if (!bare) return null;
  const safe = bare
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, IMAGE_NAME_MAX)
    .replace(/^-+|-+$/g, '');
  return safe || 'image';
}

/** The folders admins' images live in (spec 3): a product's, or a draft's. */
const RENAMABLE_KEY = /^(?:products|drafts)\/[a-z0-9][a-z0-9_-]*\/[a-z0-9][a-z0-9._-]*\.webp$/i;

/**
 * The storage key of one of this shop's product or draft images from its URL, or null for any
 * other URL (another host, another folder, a rendition, a path that climbs).
 */
export function productImageKeyOf(storage: ObjectStorage, url: string): string | null {
  const prefix = storage.publicUrl('');
  if (!url.startsWith(prefix)) return null;
  const key = url.slice(prefix.length);
  if (!RENAMABLE_KEY.test(key) || key.includes('..') || /-\d+w\.webp$/.test(key)) return null;
  return key;
}

/**
 * Copies a stored image (every rendition) to a new name in the same folder: `{name}-{hash}.webp`,
 * the hash that of the full rendition's bytes, so a URL still always means the same bytes and two
 * images given one name do not overwrite each other. The old files stay (the product's save
 * removes the ones it no longer uses). Null when the image is not stored.
 */
export async function copyProductImage(storage: ObjectStorage, key: string, name: string) {
  const full = await storage.get(key);
  if (!full) return null;
  const folder = key.slice(0, key.lastIndexOf('/'));
  const target = `${folder}/${name}-${contentHash(full.body)}.webp`;
  if (target !== key) {
    for (const width of NARROWER_WIDTHS) {
      const rendition = await storage.get(renditionKey(key, width));
      if (rendition) await storage.put(renditionKey(target, width), rendition.body, 'image/webp');
    }
    await storage.put(target, full.body, 'image/webp');
  }
  return { key: target, url: storage.publicUrl(target) };
}
