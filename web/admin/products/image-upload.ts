import { CSRF_HEADER } from '#common/constants.ts';
import { IMAGE_TYPES, MAX_IMAGE_BYTES, productMessages } from '#common/product-rules.ts';
import { ApiRequestError } from '#web/common/api-client.ts';

/**
 * The image manager's uploads and its pure rules (back-office spec 2, Image manager; 4, Images;
 * 5, Image upload): a file checked here first (type, 5 MB) with the spec's sentences, then sent
 * as the raw body of POST /api/admin/product-images with its upload progress; the URL rules the
 * manager applies (duplicates by normalised URL, ignored marketplace URLs); the grid's order
 * with the SKU Position block; the rename rule.
 */

export type UploadedImage = { url: string; width: number; height: number };
export type UploadTarget = { productId: string | null; aliId: string | null; n: number };

const EXTENSION_TYPES: Record<string, (typeof IMAGE_TYPES)[number]> = {
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  png: 'image/png',
  webp: 'image/webp',
};

/**
 * The content type a file is sent with: its own when it is JPEG, PNG or WebP (`image/jpg`, which
 * some systems report, is JPEG), else by its extension when the browser gave none; null for any
 * other file (spec 9: jpeg, jpg, png, webp).
 */
export function imageContentType(file: { name: string; type: string }): (typeof IMAGE_TYPES)[number] | null {
  const type = file.type.toLowerCase() === 'image/jpg' ? 'image/jpeg' : file.type.toLowerCase();
  if ((IMAGE_TYPES as readonly string[]).includes(type)) return type as (typeof IMAGE_TYPES)[number];
  if (type) return null;
  const extension = /\.([a-z0-9]+)$/i.exec(file.name)?.[1]?.toLowerCase() ?? '';
  return EXTENSION_TYPES[extension] ?? null;
}

/** Spec 5: the first problem of a file chosen for upload (its type, then its size), or null. */
export function imageFileProblem(file: { name: string; type: string; size: number }): string | null {
  if (!imageContentType(file)) return productMessages.imageType;
  if (file.size > MAX_IMAGE_BYTES) return productMessages.imageSize;
  return null;
}

/** The URL of the upload route for a file's place (spec 3's storage paths). */
export function uploadUrl({ productId, aliId, n }: UploadTarget): string {
  const query = new URLSearchParams();
  if (productId) query.set('productId', productId);
  if (aliId) query.set('aliId', aliId);
  query.set('n', String(n));
  return `/api/admin/product-images?${query}`;
}

async function csrfToken(): Promise<string | null> {
  try {
    const response = await fetch('/api/auth/csrf-token', { credentials: 'include', cache: 'no-store' });
    if (!response.ok) return null;
    const { token } = (await response.json()) as { token?: unknown };
    return typeof token === 'string' ? token : null;
  } catch {
    return null;
  }
}

/**
 * Uploads one image file with its progress (0-100). Checks the file first and rejects with an
 * ApiRequestError carrying the spec's sentence (status 0) when it is refused here; a refusal by
 * the server carries the server's sentence. A network failure rejects with a plain Error.
 */
export async function uploadImageFile(
  file: File,
  target: UploadTarget,
  onProgress?: (percent: number) => void,
): Promise<UploadedImage> {
  const problem = imageFileProblem(file);
  const contentType = imageContentType(file);
  if (problem || !contentType) throw new ApiRequestError(0, problem ?? productMessages.imageType, 'invalid_file');
  // A fresh token before the call, as every state-changing call of the admin API (spec 6).
  const token = await csrfToken();
  return new Promise<UploadedImage>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', uploadUrl(target));
    request.withCredentials = true;
    request.responseType = 'text';
    request.setRequestHeader('content-type', contentType);
    request.setRequestHeader('accept', 'application/json');
    if (token) request.setRequestHeader(CSRF_HEADER, token);
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress)
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    request.onerror = () => reject(new Error('The upload could not reach the server'));
    request.onabort = () => reject(new Error('The upload was cancelled'));
    request.onload = () => {
      const body = parseJson(request.responseText);
      if (request.status >= 200 && request.status < 300 && isUploadedImage(body)) {
        onProgress?.(100);
        resolve(body);
        return;
      }
      // Spec 8: a 401 on a secure request sends the browser to sign in, coming back here afterwards.
      if (request.status === 401) {
        window.location.assign(
          `/login?redirect=${encodeURIComponent(window.location.pathname + window.location.search)}`,
        );
      }
      const { error, code, field } = (body ?? {}) as { error?: unknown; code?: unknown; field?: unknown };
      reject(
        new ApiRequestError(
          request.status,
          typeof error === 'string' ? error : `HTTP ${request.status} ${request.statusText || 'Error'}`,
          typeof code === 'string' ? code : undefined,
          typeof field === 'string' ? field : undefined,
        ),
      );
    };
    request.send(file);
  });
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

function isUploadedImage(body: unknown): body is UploadedImage {
  const value = body as UploadedImage | null;
  return typeof value?.url === 'string' && typeof value.width === 'number' && typeof value.height === 'number';
}

/**
 * A URL as the manager compares images (spec 4: duplicates removed by normalised URL): no scheme,
 * host in lower case, no query or fragment, no marketplace size suffix (`_640x640.jpg`,
 * `_.webp`) and no rendition width of the shop's own images (`-400w.webp`).
 */
export function normaliseImageUrl(url: string): string {
  let text = url.trim();
  text = text.replace(/^https?:/i, '').replace(/[?#].*$/, '');
  text = text.replace(/^\/\/([^/]+)/, (_, host: string) => `//${host.toLowerCase()}`);
  text = text.replace(/_\.webp$/i, '');
  text = text.replace(/(\.(?:jpe?g|png|webp))_\d+x\d+(?:q\d+)?\.(?:jpe?g|png|webp)$/i, '$1');
  text = text.replace(/-\d+w\.webp$/i, '.webp');
  return text;
}

/** The URLs in order, each normalised URL kept once (the first), blanks dropped. */
export function dedupeImageUrls(urls: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const url of urls) {
    const key = normaliseImageUrl(url);
    if (!key || seen.has(key)) continue;
    seen.add(key);
    result.push(url);
  }
  return result;
}

/** Spec 5: marketplace image URLs naming no photo, a placeholder or a transparent pixel are not pictures of the product. */
export function isIgnoredMarketplaceUrl(url: string): boolean {
  return /no[-_ ]?photo|placeholder|transparent/i.test(url);
}

/**
 * The marketplace images to offer: not ignored, each once, and none already among the current
 * images or moved to them (by normalised URL).
 */
export function marketplaceChoices(
  marketplace: readonly string[],
  current: readonly string[],
  moved: ReadonlySet<string> = new Set(),
): string[] {
  const taken = new Set([...current.map(normaliseImageUrl), ...moved]);
  return dedupeImageUrls(marketplace.filter((url) => !isIgnoredMarketplaceUrl(url))).filter(
    (url) => !taken.has(normaliseImageUrl(url)),
  );
}

/** The list with the item at `from` moved to `to` (both clamped to the list); the same list when nothing moves. */
export function moveItem<T>(items: readonly T[], from: number, to: number): T[] {
  const last = items.length - 1;
  const start = Math.max(0, Math.min(from, last));
  const end = Math.max(0, Math.min(to, last));
  if (start === end || items.length === 0) return [...items];
  const result = [...items];
  const [item] = result.splice(start, 1);
  result.splice(end, 0, item as T);
  return result;
}

/** One cell of the current images grid: an image, or the SKU Position block (spec 2). */
export type GridItem = { kind: 'image'; url: string } | { kind: 'sku' };

/**
 * The grid's cells: the images in order, with the SKU Position block before the image at
 * `skuImagePosition` (after the last one when it is null or beyond) when it is shown.
 */
export function gridItems(images: readonly string[], skuImagePosition: number | null, showSku: boolean): GridItem[] {
  const items: GridItem[] = images.map((url) => ({ kind: 'image', url }));
  if (!showSku) return items;
  const position = skuImagePosition === null ? images.length : Math.max(0, Math.min(skuImagePosition, images.length));
  items.splice(position, 0, { kind: 'sku' });
  return items;
}

/** The images and the SKU position a grid's cells stand for (null when the block is not in it). */
export function fromGridItems(items: readonly GridItem[]): { images: string[]; skuImagePosition: number | null } {
  const index = items.findIndex((item) => item.kind === 'sku');
  return {
    images: items.flatMap((item) => (item.kind === 'image' ? [item.url] : [])),
    skuImagePosition: index === -1 ? null : index,
  };
}

/** Spec 5: a rename's name with its extension stripped and trimmed; empty means it is refused. */
export function renameBase(name: string): string {
  return name
    .trim()
    .replace(/\.[^./\\]*$/, '')
    .trim();
}

/**
 * What the manager shows as an image's name: the file name without its folder, extension, the
 * shop's content hash (`-0123456789ab`) and the rendition width.
 */
export function imageDisplayName(url: string): string {
  const file =
    url
      .replace(/[?#].*$/, '')
      .split('/')
      .pop() ?? '';
  const name = file
    .replace(/\.[a-z0-9]+$/i, '')
    .replace(/-\d+w$/, '')
    .replace(/-[0-9a-f]{12}$/, '');
  try {
    return decodeURIComponent(name) || 'image';
  } catch {
    return name || 'image';
  }
}
