import { useEffect, useState } from 'react';
import { ProductImage } from '#web/storefront/catalog/product-image.tsx';

/** The product's images: a large one and thumbnails. The index resets when the images change. */
export function ProductGallery({ images, title }: { images: string[]; title: string }) {
  const [index, setIndex] = useState(0);
  const key = images.join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new image list (another variant) starts at its first image.
  useEffect(() => setIndex(0), [key]);
  const current = images[Math.min(index, images.length - 1)];
  return (
    <div>
      <div className="overflow-hidden rounded-3xl border border-sage-100 bg-white">
        <ProductImage
          src={current}
          alt={title}
          sizes="(min-width: 1024px) 50vw, 100vw"
          width={1200}
          height={1200}
          priority
          className="aspect-square w-full object-cover"
        />
      </div>
      {images.length > 1 ? (
        <ul className="mt-3 grid grid-cols-5 gap-2" aria-label="Product images">
          {images.map((image, position) => (
            <li key={image}>
              <button
                type="button"
                onClick={() => setIndex(position)}
                aria-label={`Show image ${position + 1} of ${images.length}`}
                aria-current={position === index ? 'true' : undefined}
                className={`block overflow-hidden rounded-xl border-2 ${position === index ? 'border-sage-600' : 'border-transparent hover:border-sage-200'}`}
              >
                <ProductImage
                  src={image}
                  alt=""
                  sizes="120px"
                  width={400}
                  height={400}
                  className="aspect-square w-full object-cover"
                />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
