import { Link } from 'react-router';
import { DEFAULT_PRODUCT_SLUG, HOME_REVIEWS_FETCH, HOME_REVIEWS_MIN_RATING } from '#common/constants.ts';
import { getProduct, listProducts } from '#common/contracts/catalog.ts';
import { listProductReviews } from '#common/contracts/reviews.ts';
import { imageSrcSet, renditionUrl } from '#common/images.ts';
import { effectivePrice, formatCents } from '#common/money.ts';
import { apiContext } from '#web/context.ts';
import { toCardProduct } from '#web/storefront/catalog/card-product.ts';
import { ProductCard } from '#web/storefront/catalog/product-card.tsx';
import { HeroCarousel } from '#web/storefront/home/hero-carousel.tsx';
import { ReviewsScroller } from '#web/storefront/home/reviews-scroller.tsx';
import { originOf, pageMeta } from '#web/storefront/seo/page-meta.ts';
import type { Route } from './+types/home.ts';

export async function loader({ context }: Route.LoaderArgs) {
  const api = context.get(apiContext);
  const [fountain, latest, reviews] = await Promise.all([
    api.call(getProduct, { params: { id: DEFAULT_PRODUCT_SLUG } }).catch(() => null),
    api.call(listProducts, { query: { page: 1, limit: 8 } }).catch(() => null),
    api
      .call(listProductReviews, {
        params: { id: DEFAULT_PRODUCT_SLUG },
        query: { limit: HOME_REVIEWS_FETCH, minRating: 4 },
      })
      .catch(() => null),
  ]);
  return {
    fountain,
    products: (latest?.products ?? []).map(toCardProduct),
    // Spec: 60 fetched at 4 stars and up, kept at 4.5 and up.
    reviews: (reviews?.reviews ?? []).filter((review) => review.rating >= HOME_REVIEWS_MIN_RATING),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const hero = loaderData?.fountain?.images[0];
  return [
    ...pageMeta({
      title: 'Stillwater · Calming home and desk goods',
      description:
        'Tabletop fountains, soft lighting, aromatherapy and gifts that bring a little calm to your desk and home.',
      origin: originOf(matches),
      path: '/',
      image: hero,
    }),
    ...(hero
      ? [
          {
            tagName: 'link',
            rel: 'preload',
            as: 'image',
            href: renditionUrl(hero, 800),
            imageSrcSet: imageSrcSet(hero),
            imageSizes: '(min-width: 768px) 50vw, 100vw',
            fetchPriority: 'high',
          },
        ]
      : []),
  ];
};

const features = [
  {
    title: 'Natural materials',
    text: 'Stone-finished resin, bamboo, ceramic and wood, chosen to look and feel calm on any desk or shelf.',
  },
  {
    title: 'Waterfall flow',
    text: 'Whisper-quiet pumps keep a gentle, steady trickle: the sound of water without the noise of a machine.',
  },
  {
    title: 'LED lighting',
    text: 'Soft built-in LEDs light the falling water after dark, turning a fountain into a night light.',
  },
];

export default function Home({ loaderData }: Route.ComponentProps) {
  const { fountain, products, reviews } = loaderData;
  return (
    <>
      {fountain ? (
        <section className="bg-gradient-to-b from-sage-50 to-sand-50">
          <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-10 sm:px-6 md:grid-cols-2 md:py-16">
            <div>
              <p className="text-sm font-semibold tracking-widest text-sage-700 uppercase">Bestseller</p>
              <h1 className="mt-3 font-serif text-4xl leading-tight text-sage-900 sm:text-5xl">
                Bring the sound of water to your desk
              </h1>
              <p className="mt-4 max-w-xl text-lg text-stone-700">
                {fountain.title}: a soft waterfall, a warm glow and a calmer workday.
              </p>
              <p className="mt-6 flex items-baseline gap-3">
                <span className="text-2xl font-semibold text-sage-900">
                  {formatCents(effectivePrice(fountain.price, fountain.salePrice))}
                </span>
                {fountain.salePrice !== null ? <s className="text-stone-600">{formatCents(fountain.price)}</s> : null}
              </p>
              <Link
                to={`/product/${fountain.slug}`}
                className="mt-6 inline-block rounded-full bg-sage-700 px-7 py-3 font-medium text-white hover:bg-sage-800"
              >
                Shop the fountain
              </Link>
            </div>
            <HeroCarousel
              images={fountain.images.slice(0, 3)}
              href={`/product/${fountain.slug}`}
              title={fountain.title}
            />
          </div>
        </section>
      ) : null}

      <section aria-labelledby="features-heading" className="mx-auto max-w-7xl px-4 py-14 sm:px-6">
        <h2 id="features-heading" className="text-center font-serif text-3xl text-sage-900">
          Made for quiet moments
        </h2>
        <div className="mt-8 grid gap-6 md:grid-cols-3">
          {features.map((feature) => (
            <div key={feature.title} className="rounded-2xl border border-sage-100 bg-white p-6 shadow-sm">
              <h3 className="text-lg font-semibold text-sage-800">{feature.title}</h3>
              <p className="mt-2 text-stone-700">{feature.text}</p>
            </div>
          ))}
        </div>
      </section>

      {reviews.length > 0 ? (
        <section aria-labelledby="reviews-heading" className="py-6">
          <div className="mx-auto max-w-7xl px-4 sm:px-6">
            <h2 id="reviews-heading" className="font-serif text-3xl text-sage-900">
              What our customers say
            </h2>
          </div>
          <div className="mt-6">
            <ReviewsScroller reviews={reviews} />
          </div>
        </section>
      ) : null}

      {products.length > 0 ? (
        <section aria-labelledby="new-heading" className="mx-auto max-w-7xl px-4 pt-10 sm:px-6">
          <div className="flex items-end justify-between">
            <h2 id="new-heading" className="font-serif text-3xl text-sage-900">
              New in the shop
            </h2>
            <Link to="/products" className="text-sm font-medium text-sage-700 hover:underline">
              View all products
            </Link>
          </div>
          <div className="mt-6 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {products.map((product) => (
              <ProductCard key={product.id} product={product} />
            ))}
          </div>
        </section>
      ) : null}
    </>
  );
}
