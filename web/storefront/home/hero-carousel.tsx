import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { CAROUSEL_INTERVAL_MS, CAROUSEL_TRANSITION_MS } from '#common/constants.ts';
import { ProductImage } from '#web/storefront/catalog/product-image.tsx';

/** Three images of the fountain, advancing every 4 s with a 150 ms fade; a click opens the product. */
export function HeroCarousel({ images, href, title }: { images: string[]; href: string; title: string }) {
  // `moved`: the fade is switched on at the first change, so the first image paints at once (it is the LCP).
  const [{ index, moved }, setState] = useState({ index: 0, moved: false });
  const setIndex = (next: number) => setState({ index: next, moved: true });
  const [paused, setPaused] = useState(false);
  useEffect(() => {
    if (images.length < 2 || paused) return;
    const timer = setInterval(
      () => setState((current) => ({ index: (current.index + 1) % images.length, moved: true })),
      CAROUSEL_INTERVAL_MS,
    );
    return () => clearInterval(timer);
  }, [images.length, paused]);
  return (
    <section
      className="relative"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      aria-roledescription="carousel"
      aria-label={title}
    >
      <Link to={href} className="relative block aspect-square overflow-hidden rounded-3xl bg-sage-50 shadow-lg">
        {images.map((image, position) => (
          <ProductImage
            key={image}
            src={image}
            alt={position === index ? title : ''}
            sizes="(min-width: 768px) 50vw, 100vw"
            width={1200}
            height={1200}
            priority={position === 0}
            className="absolute inset-0 h-full w-full object-cover"
            style={{
              opacity: position === index ? 1 : 0,
              transition: moved ? `opacity ${CAROUSEL_TRANSITION_MS}ms ease-in-out` : undefined,
            }}
          />
        ))}
        <span className="sr-only">View {title}</span>
      </Link>
      {images.length > 1 ? (
        <div className="absolute bottom-4 left-1/2 flex -translate-x-1/2 gap-1">
          {images.map((image, position) => (
            <button
              key={image}
              type="button"
              onClick={() => setIndex(position)}
              aria-label={`Show image ${position + 1} of ${images.length}`}
              aria-current={position === index ? 'true' : undefined}
              className="flex h-6 w-6 items-center justify-center"
            >
              <span className={`h-2.5 w-2.5 rounded-full shadow ${position === index ? 'bg-white' : 'bg-white/50'}`} />
            </button>
          ))}
        </div>
      ) : null}
    </section>
  );
}
