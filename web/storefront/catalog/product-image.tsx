import { useEffect, useRef, useState } from 'react';
import { imageSrcSet, PLACEHOLDER_IMAGE, renditionUrl } from '#common/images.ts';

/**
 * Spec: images that fail to load fall back to a placeholder. React's onError is attached only at
 * hydration, so an image of the server's HTML that fails earlier is swapped by this script, run
 * from the document's head before any image (web/root.tsx): a capture listener on the
 * document (the error event does not bubble) gives every image marked with `data-fallback` the
 * URL it names and drops its srcset. It stays for the page's life, so it also swaps later
 * failures a moment before React's own handler agrees. Inline handler attributes (onerror="…")
 * are refused by the Content-Security-Policy; a script with the page's nonce is not.
 */
export const IMAGE_FALLBACK_SCRIPT =
  'document.addEventListener("error",function(e){var i=e.target,f=i.getAttribute&&i.getAttribute("data-fallback");' +
  'if(f&&i.getAttribute("src")!==f){i.removeAttribute("srcset");i.src=f}},true)';

/** A product image with its WebP renditions, fixed dimensions (no layout shift) and a placeholder on error. */
export function ProductImage({
  src,
  alt,
  sizes,
  width = 800,
  height = 800,
  priority = false,
  className,
  style,
}: {
  src: string | undefined;
  alt: string;
  sizes: string;
  width?: number;
  height?: number;
  priority?: boolean;
  className?: string;
  style?: React.CSSProperties;
}) {
  // The source that failed, so that another source given to the same element (the gallery's) is tried.
  const [failed, setFailed] = useState<string>();
  const url = !src || failed === src ? PLACEHOLDER_IMAGE : src;
  const image = useRef<HTMLImageElement>(null);
  // An image of the server's HTML already swapped by the fallback script: the state follows the page.
  useEffect(() => {
    if (src && image.current?.getAttribute('src') === PLACEHOLDER_IMAGE) setFailed(src);
  }, [src]);
  return (
    <img
      ref={image}
      src={renditionUrl(url, 800)}
      srcSet={imageSrcSet(url)}
      sizes={sizes}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      data-fallback={PLACEHOLDER_IMAGE}
      onError={() => setFailed(src)}
      className={className}
      style={style}
      // The fallback script may have changed src and srcset before hydration.
      suppressHydrationWarning
    />
  );
}
