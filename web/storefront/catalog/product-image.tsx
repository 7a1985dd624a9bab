import { useState } from 'react';
import { imageSrcSet, PLACEHOLDER_IMAGE, renditionUrl } from '#common/images.ts';

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
  const [failed, setFailed] = useState(false);
  const url = !src || failed ? PLACEHOLDER_IMAGE : src;
  return (
    <img
      src={renditionUrl(url, 800)}
      srcSet={imageSrcSet(url)}
      sizes={sizes}
      alt={alt}
      width={width}
      height={height}
      loading={priority ? 'eager' : 'lazy'}
      fetchPriority={priority ? 'high' : undefined}
      decoding="async"
      onError={() => setFailed(true)}
      className={className}
      style={style}
    />
  );
}
