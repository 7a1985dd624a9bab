/**
 * Product images stored by the shop are WebP files kept at a few widths. The stored URL is the
 * widest; the narrower renditions sit beside it with the width in the name:
 * /media/products/p/1-ab12cd34.webp -> /media/products/p/1-ab12cd34-400w.webp.
 */
export const IMAGE_WIDTHS = [400, 800, 1200] as const;
export const FULL_IMAGE_WIDTH = 1200;
/** Shown when a product has no image or an image fails to load. */
export const PLACEHOLDER_IMAGE = '/images/placeholder.svg';

const RENDITION = /^\/media\/.+\.webp$/;

export function hasRenditions(url: string): boolean {
  return RENDITION.test(url);
}

export function renditionUrl(url: string, width: number): string {
  if (!hasRenditions(url) || width >= FULL_IMAGE_WIDTH) return url;
  return url.replace(/\.webp$/, `-${width}w.webp`);
}

/** A srcset for an <img>, or undefined for images hosted elsewhere. */
export function imageSrcSet(url: string): string | undefined {
  if (!hasRenditions(url)) return undefined;
  return IMAGE_WIDTHS.map((width) => `${renditionUrl(url, width)} ${width}w`).join(', ');
}
