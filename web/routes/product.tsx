import { useEffect, useMemo, useState } from 'react';
import { data, isRouteErrorResponse, Link, useRouteError } from 'react-router';
import { initialVariantIndex, stockStatus } from '#common/catalog-rules.ts';
import {
  ADDED_TO_CART_FEEDBACK_MS,
  DEFAULT_PRODUCT_SLUG,
  LOW_STOCK_THRESHOLD,
  PRODUCT_PAGE_REVIEWS_FETCH,
  PRODUCT_PAGE_REVIEWS_SHOWN,
} from '#common/constants.ts';
import { getProduct, type Product } from '#common/contracts/catalog.ts';
import { getFlashSale } from '#common/contracts/marketing.ts';
import { getRatingSummary, getReviewAnalysis, listProductReviews } from '#common/contracts/reviews.ts';
import { imageSrcSet, renditionUrl } from '#common/images.ts';
import { centsToDollars, effectivePrice, formatCents } from '#common/money.ts';
import { ApiRequestError } from '#web/common/api-client.ts';
import { apiContext } from '#web/context.ts';
import { addProductToCart } from '#web/storefront/catalog/add-product-to-cart.ts';
import { fallbackProduct } from '#web/storefront/product/fallback-products.ts';
import { FlashSaleBanner } from '#web/storefront/product/flash-sale-banner.tsx';
import { ProductGallery } from '#web/storefront/product/product-gallery.tsx';
import { RatingSummary } from '#web/storefront/product/rating-summary.tsx';
import { ReviewCard } from '#web/storefront/product/review-card.tsx';
import { ReviewOverview } from '#web/storefront/product/review-overview.tsx';
import { VariantSelector } from '#web/storefront/product/variant-selector.tsx';
import { originOf, pageMeta } from '#web/storefront/seo/page-meta.ts';
import { adCartProperties, sendAdEvent } from '#web/storefront/tracking/ad-tracker.ts';
import type { Route } from './+types/product.ts';

export async function loader({ params, context }: Route.LoaderArgs) {
  const slug = params.slug ?? DEFAULT_PRODUCT_SLUG;
  const api = context.get(apiContext);
  let product: Product;
  try {
    product = await api.call(getProduct, { params: { id: slug } });
  } catch (error) {
    // A 404, or a 400 for a slug the API cannot even look up (`/product/%20`): no such product.
    if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
      throw data({ message: 'Product not found' }, { status: 404 });
    }
    // The server could not answer: the built-in products still show.
    const fallback = fallbackProduct(slug);
    if (!fallback) throw data({ message: 'Failed to fetch product' }, { status: 503 });
    return { product: fallback, rating: null, flashSale: null, reviews: [], totalReviews: 0, analysis: null };
  }
  const soft = <T,>(promise: Promise<T>) => promise.catch(() => null);
  const [rating, flashSale, reviews, analysis] = await Promise.all([
    soft(api.call(getRatingSummary, { params: { id: product.slug } })),
    soft(api.call(getFlashSale, { params: { productId: product.slug } })),
    soft(api.call(listProductReviews, { params: { id: product.slug }, query: { limit: PRODUCT_PAGE_REVIEWS_FETCH } })),
    soft(api.call(getReviewAnalysis, { params: { id: product.slug } })),
  ]);
  return {
    product,
    rating,
    flashSale: flashSale?.data ?? null,
    reviews: reviews?.reviews ?? [],
    totalReviews: reviews?.pagination.total ?? 0,
    analysis,
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  if (!loaderData) return [{ title: 'Product Not Found · Stillwater' }, { name: 'robots', content: 'noindex' }];
  const { product, rating } = loaderData;
  const origin = originOf(matches);
  const image = product.images[0];
  const description = product.description.split('\n')[0]?.slice(0, 160) ?? product.title;
  return [
    ...pageMeta({
      title: `${product.title} · Stillwater`,
      description,
      origin,
      path: `/product/${product.slug}`,
      image,
      type: 'product',
    }),
    // The main image is the page's largest paint: fetch it with the HTML.
    ...(image
      ? [
          {
            tagName: 'link',
            rel: 'preload',
            as: 'image',
            href: renditionUrl(image, 800),
            imageSrcSet: imageSrcSet(image),
            imageSizes: '(min-width: 1024px) 50vw, 100vw',
            fetchPriority: 'high',
          },
        ]
      : []),
    { 'script:ld+json': productJsonLd(product, rating, origin) },
  ];
};

function productJsonLd(
  product: Product,
  rating: { averageRating: number; totalReviews: number } | null,
  origin: string,
) {
  const available = product.skuVariants.some((v) => v.isActive && v.stock > 0);
  const url = `${origin}/product/${product.slug}`;
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.title,
    description: product.description,
    image: product.images.map((image) => (image.startsWith('http') ? image : `${origin}${image}`)),
    sku: product.skuVariants[0]?.skuId ?? product.id,
    brand: { '@type': 'Brand', name: 'Stillwater' },
    url,
    offers: {
      '@type': 'Offer',
      url,
      priceCurrency: 'USD',
      price: centsToDollars(effectivePrice(product.price, product.salePrice)).toFixed(2),
      availability: available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      itemCondition: 'https://schema.org/NewCondition',
    },
    ...(rating && rating.totalReviews > 0
      ? {
          aggregateRating: {
            '@type': 'AggregateRating',
            ratingValue: rating.averageRating.toFixed(1),
            reviewCount: rating.totalReviews,
            bestRating: 5,
            worstRating: 1,
          },
        }
      : {}),
  };
}

/** The gallery of a variant: its own images at the product's SKU image position, then the product's. */
function galleryImages(product: Product, variantImages: string[]): string[] {
  const own = variantImages.filter((image) => !product.images.includes(image));
  if (own.length === 0) return product.images;
  const at = Math.min(product.skuImagePosition ?? 0, product.images.length);
  return [...product.images.slice(0, at), ...own, ...product.images.slice(at)];
}

export default function ProductPage({ loaderData }: Route.ComponentProps) {
  const { product, rating, flashSale, reviews, totalReviews, analysis } = loaderData;
  const variants = product.skuVariants;
  const [selected, setSelected] = useState(() => Math.max(0, initialVariantIndex(variants)));
  const [added, setAdded] = useState(false);
  const variant = variants[selected];
  const price = variant?.price ?? product.price;
  const salePrice = variant ? variant.salePrice : product.salePrice;
  const paid = effectivePrice(price, salePrice);
  const stock = variant ? (variant.isActive ? variant.stock : 0) : product.stock;
  const status = stockStatus(stock);
  const images = useMemo(() => galleryImages(product, variant?.images ?? []), [product, variant]);
  const reviewsHref = `/product/${product.slug}/reviews`;
  const activeVariants = variants.filter((v) => v.isActive);

  // Spec 7: the pixel's ViewContent, once per product shown (at the price first shown).
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new product is what triggers it.
  useEffect(() => {
    const dollars = centsToDollars(paid);
    sendAdEvent(
      'ViewContent',
      adCartProperties([{ id: product.id, title: product.title, price: dollars, quantity: 1 }], dollars),
    );
  }, [product.id]);

  return (
    <div className="mx-auto max-w-7xl px-4 py-8 sm:px-6 lg:py-12">
      <nav aria-label="Breadcrumb" className="mb-6 text-sm text-stone-600">
        <Link to="/" className="hover:underline">
          Home
        </Link>{' '}
        /{' '}
        <Link to="/products" className="hover:underline">
          All Products
        </Link>
      </nav>
      <div className="grid gap-10 lg:grid-cols-2">
        <ProductGallery images={images} title={product.title} />
        <div className="flex flex-col gap-5">
          <h1 className="font-serif text-3xl leading-tight text-sage-900 sm:text-4xl">{product.title}</h1>
          <RatingSummary summary={rating} reviewsHref={reviewsHref} />
          <div className="flex flex-wrap items-baseline gap-3">
            <span className="text-3xl font-semibold text-sage-900" data-testid="price">
              {formatCents(paid)}
            </span>
            {paid < price ? (
              <>
                <s className="text-lg text-stone-600">{formatCents(price)}</s>
                <span className="rounded-full bg-red-700 px-2.5 py-1 text-sm font-semibold text-white">
                  Save {formatCents(price - paid)}
                </span>
              </>
            ) : null}
          </div>
          {flashSale ? <FlashSaleBanner sale={flashSale} /> : null}
          {activeVariants.length > 1 ? (
            <VariantSelector
              label={product.variantLabel}
              variants={variants}
              selected={selected}
              onSelect={(index) => {
                setSelected(index);
                setAdded(false);
              }}
            />
          ) : null}
          <div className="flex flex-wrap items-center gap-3">
            <p
              data-testid="stock-status"
              className={`flex items-center gap-2 text-sm font-medium ${
                status.level === 'in' ? 'text-green-800' : status.level === 'low' ? 'text-amber-800' : 'text-red-800'
              }`}
            >
              <span
                aria-hidden="true"
                className={`h-2.5 w-2.5 rounded-full ${
                  status.level === 'in' ? 'bg-green-600' : status.level === 'low' ? 'bg-amber-500' : 'bg-red-600'
                }`}
              />
              {status.text}
            </p>
            {stock > 0 && stock <= LOW_STOCK_THRESHOLD ? (
              <span className="rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-900">
                Only {stock} left!
              </span>
            ) : null}
          </div>
          <button
            type="button"
            disabled={stock <= 0}
            onClick={() => {
              addProductToCart(product, variant);
              setAdded(true);
              setTimeout(() => setAdded(false), ADDED_TO_CART_FEEDBACK_MS);
            }}
            className="rounded-full bg-sage-700 px-8 py-3.5 font-medium text-white hover:bg-sage-800 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-700"
          >
            {stock <= 0 ? 'Out of Stock' : added ? 'Added to Cart' : 'Add to Cart'}
          </button>
          <div className="space-y-3 text-stone-700">
            {product.description.split(/\n\s*\n/).map((paragraph) => (
              <p key={paragraph.slice(0, 40)} className="leading-7">
                {paragraph}
              </p>
            ))}
          </div>
        </div>
      </div>

      <div className="mt-12 grid gap-8 lg:grid-cols-2">
        {product.features.length > 0 ? (
          <section aria-labelledby="features-heading">
            <h2 id="features-heading" className="font-serif text-2xl text-sage-900">
              Features
            </h2>
            <ul className="mt-4 space-y-2">
              {product.features.map((feature) => (
                <li key={feature} className="flex gap-2 text-stone-700">
                  <span aria-hidden="true" className="text-sage-600">
                    ✓
                  </span>
                  {feature}
                </li>
              ))}
            </ul>
          </section>
        ) : null}
        {Object.keys(product.specifications).length > 0 ? (
          <section aria-labelledby="specs-heading">
            <h2 id="specs-heading" className="font-serif text-2xl text-sage-900">
              Specifications
            </h2>
            <dl className="mt-4 grid grid-cols-1 gap-px overflow-hidden rounded-xl border border-sage-100 bg-sage-100 sm:grid-cols-2">
              {Object.entries(product.specifications).map(([name, value]) => (
                <div key={name} className="bg-white px-4 py-3">
                  <dt className="text-xs font-semibold tracking-wide text-stone-600 uppercase">{name}</dt>
                  <dd className="mt-1 text-sm text-stone-800">{value}</dd>
                </div>
              ))}
            </dl>
          </section>
        ) : null}
      </div>

      <div className="mt-12">
        <ReviewOverview analysis={analysis} />
      </div>

      <section aria-labelledby="reviews-heading" className="mt-12">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <h2 id="reviews-heading" className="font-serif text-2xl text-sage-900">
            Customer reviews
          </h2>
          <Link
            to={`/product/${product.slug}/review/new`}
            className="rounded-full border border-sage-300 px-5 py-2 text-sm text-sage-800 hover:bg-sage-50"
          >
            Post a Review
          </Link>
        </div>
        {reviews.length === 0 ? (
          <p className="mt-4 text-stone-600">No reviews available yet</p>
        ) : (
          <>
            <div className="mt-5 grid gap-4 md:grid-cols-3">
              {reviews.slice(0, PRODUCT_PAGE_REVIEWS_SHOWN).map((review) => (
                <ReviewCard key={review.id} review={review} />
              ))}
            </div>
            {totalReviews > PRODUCT_PAGE_REVIEWS_SHOWN ? (
              <Link to={reviewsHref} className="mt-5 inline-block font-medium text-sage-700 hover:underline">
                View More ({totalReviews} reviews)
              </Link>
            ) : null}
          </>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const message =
    isRouteErrorResponse(error) && typeof error.data?.message === 'string'
      ? error.data.message
      : 'Failed to fetch product';
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <title>{notFound ? 'Product Not Found · Stillwater' : 'Error Loading Product · Stillwater'}</title>
      <h1 className="font-serif text-4xl text-sage-900">{notFound ? 'Product Not Found' : 'Error Loading Product'}</h1>
      <p className="mt-4 text-stone-600">{notFound ? 'We could not find that product.' : message}</p>
      <Link to="/" className="mt-8 inline-block rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800">
        Return to Home
      </Link>
    </div>
  );
}
