import {
  data,
  isRouteErrorResponse,
  Link,
  useLocation,
  useNavigation,
  useParams,
  useRouteError,
  useSearchParams,
} from 'react-router';
import { REVIEW_PAGE_SIZE } from '#common/constants.ts';
import { getProduct, type Product } from '#common/contracts/catalog.ts';
import type { RatingSummary } from '#common/contracts/reviews.ts';
import { getRatingSummary, listProductReviews } from '#common/contracts/reviews.ts';
import { ApiRequestError } from '#web/common/api-client.ts';
import { Notice } from '#web/common/form-fields.tsx';
import { apiContext } from '#web/context.ts';
import { ProductImage } from '#web/storefront/catalog/product-image.tsx';
import { Stars } from '#web/storefront/catalog/stars.tsx';
import { RatingFilter, ReviewSortSelect, StarBarFilter } from '#web/storefront/reviews/review-filters.tsx';
import { ReviewList } from '#web/storefront/reviews/review-list.tsx';
import {
  isNarrowedView,
  listKeyOf,
  type ReviewView,
  reviewQueryOf,
  reviewViewOf,
  without,
  withRatings,
  withSort,
} from '#web/storefront/reviews/review-view.ts';
import { originOf, pageMeta } from '#web/storefront/seo/page-meta.ts';
import type { Route } from './+types/product-reviews.ts';

const PRODUCT_NOT_FOUND = 'Product not found';
const REVIEWS_FAILED = 'Failed to fetch reviews';

/** The shopper's default thank-you, when the write page did not hand over the server's own sentence. */
const THANK_YOU = 'Thank you for your review!';

/** The product as this page needs it: not the whole record (description, variants) in the page's data. */
function productHeader(product: Product) {
  return { slug: product.slug, title: product.title, image: product.images[0] ?? null };
}

/**
 * The first page on the server (spec: page size 10) with the product, its rating summary and the
 * URL's sort, star filter and pinned review; later pages come from the browser. An unknown product
 * is a 404 ('Product Not Found'); a failure of the product or the list is 'Error Loading Reviews'.
 * A failed rating summary only hides the breakdown.
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const api = context.get(apiContext);
  const view = reviewViewOf(new URL(request.url).searchParams);
  let product: Product;
  try {
    product = await api.call(getProduct, { params: { id: params.slug } });
  } catch (error) {
    // A 404, or a 400 for a slug the API cannot even look up: no such product.
    if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
      throw data({ message: PRODUCT_NOT_FOUND }, { status: 404 });
    }
    throw data({ message: REVIEWS_FAILED }, { status: 503 });
  }
  const [summary, list] = await Promise.all([
    api.call(getRatingSummary, { params: { id: product.slug } }).catch(() => null),
    api
      .call(listProductReviews, {
        params: { id: product.slug },
        query: { ...reviewQueryOf(view), page: 1, limit: REVIEW_PAGE_SIZE },
      })
      .catch(() => {
        throw data({ message: REVIEWS_FAILED }, { status: 503 });
      }),
  ]);
  return {
    product: productHeader(product),
    summary,
    view,
    first: {
      reviews: list.reviews,
      page: list.pagination.page,
      pages: list.pagination.pages,
      total: list.pagination.total,
    },
  };
}

export const meta: Route.MetaFunction = ({ loaderData, matches, error }) => {
  if (!loaderData) {
    const notFound = isRouteErrorResponse(error) && error.status === 404;
    return [
      { title: notFound ? 'Product Not Found · Stillwater' : 'Error Loading Reviews · Stillwater' },
      { name: 'robots', content: 'noindex' },
    ];
  }
  const { product, summary, view } = loaderData;
  const rated =
    summary && summary.totalReviews > 0
      ? ` Rated ${summary.averageRating.toFixed(1)} out of 5 in ${summary.totalReviews} ${summary.totalReviews === 1 ? 'review' : 'reviews'}.`
      : '';
  return pageMeta({
    title: `Reviews of ${product.title} · Stillwater`,
    description: `What customers say about the ${product.title} from Stillwater.${rated}`,
    origin: originOf(matches),
    path: `/product/${product.slug}/reviews`,
    image: product.image ?? undefined,
    // A filtered, sorted or pinned list is the same reviews again: only the plain list is indexed.
    noIndex: isNarrowedView(view),
  });
};

export default function ProductReviews({ loaderData, matches }: Route.ComponentProps) {
  const { product, summary, view, first } = loaderData;
  const signedIn = matches[1].loaderData.user !== null;
  const [current, setParams] = useSearchParams();
  const location = useLocation();
  const navigation = useNavigation();
  // While a new filter or sort loads, the controls already show it (and build on it), and the
  // list says it is busy; the list itself changes when the data arrives.
  const pending = navigation.location?.pathname === location.pathname ? navigation.location.search : null;
  const params = pending === null ? current : new URLSearchParams(pending);
  const controls = pending === null ? view : reviewViewOf(params);
  const update = (next: URLSearchParams) => setParams(next, { preventScrollReset: true });
  const setRatings = (ratings: number[]) => update(withRatings(params, ratings));
  const productHref = `/product/${product.slug}`;
  const writeHref = `${productHref}/review/new`;
  // Spec: Post a Review sends a visitor to sign in, and on to the form afterwards.
  const postHref = signedIn ? writeHref : `/login?redirect=${encodeURIComponent(writeHref)}`;

  return (
    <div className="mx-auto max-w-6xl px-4 py-8 sm:px-6 lg:py-12">
      <nav aria-label="Breadcrumb" className="mb-6 text-sm text-stone-600">
        <Link to="/" className="hover:underline">
          Home
        </Link>{' '}
        /{' '}
        <Link to={productHref} className="hover:underline">
          {product.title}
        </Link>{' '}
        / <span aria-current="page">Reviews</span>
      </nav>
      {view.success ? <ThankYou onDismiss={() => update(without(params, 'success'))} /> : null}
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center">
        <div className="flex min-w-0 flex-1 items-center gap-4">
          <ProductImage
            src={product.image ?? undefined}
            alt=""
            sizes="64px"
            width={64}
            height={64}
            className="h-14 w-14 shrink-0 rounded-xl border border-sage-100 object-cover sm:h-16 sm:w-16"
          />
          <div className="min-w-0">
            <h1 className="font-serif text-2xl leading-tight text-sage-900 sm:text-4xl">Reviews of {product.title}</h1>
            <Link to={productHref} className="mt-1 inline-block text-sm font-medium text-sage-700 hover:underline">
              ← Back to product
            </Link>
          </div>
        </div>
        <Link
          to={postHref}
          className="self-start rounded-full bg-sage-700 px-6 py-3 text-sm font-medium whitespace-nowrap text-white hover:bg-sage-800 sm:self-auto"
        >
          Post a Review
        </Link>
      </div>

      <div className="mt-10 grid gap-10 lg:grid-cols-[20rem_1fr]">
        <aside aria-labelledby="rating-heading" className="lg:sticky lg:top-6 lg:self-start">
          <h2 id="rating-heading" className="font-serif text-xl text-sage-900">
            Customer ratings
          </h2>
          <RatingPanel summary={summary} ratings={controls.ratings} onChange={setRatings} />
        </aside>

        <section aria-labelledby="list-heading">
          <h2 id="list-heading" className="sr-only">
            Reviews
          </h2>
          <div className="flex flex-wrap items-end justify-between gap-4 rounded-2xl border border-sage-100 bg-white p-4">
            <RatingFilter ratings={controls.ratings} onChange={setRatings} />
            <ReviewSortSelect sort={controls.sort} onChange={(value) => update(withSort(params, value))} />
          </div>
          <div
            aria-busy={pending !== null ? true : undefined}
            className={`mt-6 transition-opacity ${pending !== null ? 'opacity-60' : ''}`}
          >
            {first.reviews.length === 0 ? (
              <EmptyReviews view={view} onClear={() => update(without(params, 'ratings', 'review', 'success'))} />
            ) : (
              <ReviewList
                key={listKeyOf(view)}
                slug={product.slug}
                view={view}
                first={first}
                onClearPinned={() => update(without(params, 'review', 'success'))}
              />
            )}
          </div>
        </section>
      </div>
    </div>
  );
}

/** Spec: success=true shows a thank-you banner (with the server's own sentence when there is one). */
function ThankYou({ onDismiss }: { onDismiss: () => void }) {
  const location = useLocation();
  const state = location.state as { reviewMessage?: unknown } | null;
  const message = typeof state?.reviewMessage === 'string' ? state.reviewMessage : THANK_YOU;
  return (
    <div className="mb-6">
      <Notice kind="success">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <p className="font-medium">{message}</p>
          <button
            type="button"
            onClick={onDismiss}
            className="rounded-full border border-green-300 bg-white px-3 py-1 text-sm font-medium text-green-900 hover:bg-green-100"
          >
            Dismiss<span className="sr-only"> message</span>
          </button>
        </div>
      </Notice>
    </div>
  );
}

/** Average, stars and count, and the breakdown as the star-bar filter. */
function RatingPanel({
  summary,
  ratings,
  onChange,
}: {
  summary: RatingSummary | null;
  ratings: number[];
  onChange: (ratings: number[]) => void;
}) {
  if (!summary) return <p className="mt-4 text-sm text-stone-600">Failed to fetch rating</p>;
  if (summary.totalReviews === 0) return <p className="mt-4 text-sm text-stone-600">No reviews yet</p>;
  return (
    <div className="mt-4 rounded-2xl border border-sage-100 bg-white p-5">
      <div className="flex items-center gap-3">
        <span className="font-serif text-4xl text-sage-900">{summary.averageRating.toFixed(1)}</span>
        <div>
          <Stars rating={summary.averageRating} size="h-5" />
          <p className="mt-1 text-sm text-stone-600">
            {summary.totalReviews} {summary.totalReviews === 1 ? 'review' : 'reviews'}
          </p>
        </div>
      </div>
      <p className="mt-4 mb-2 text-xs text-stone-600">Choose a star to see only those reviews.</p>
      <StarBarFilter summary={summary} ratings={ratings} onChange={onChange} />
    </div>
  );
}

/** Spec: 'No reviews found with the current filters.' with a Clear all filters button. */
function EmptyReviews({ view, onClear }: { view: ReviewView; onClear: () => void }) {
  const filtered = view.ratings.length > 0 || view.pinned !== null;
  return (
    <div className="rounded-2xl border border-dashed border-sage-200 bg-white p-10 text-center">
      {filtered ? (
        <>
          <p className="text-stone-700">No reviews found with the current filters.</p>
          <button
            type="button"
            onClick={onClear}
            className="mt-5 rounded-full bg-sage-700 px-5 py-2 text-sm font-medium text-white hover:bg-sage-800"
          >
            Clear all filters
          </button>
        </>
      ) : (
        <p className="text-stone-700">No reviews available yet</p>
      )}
    </div>
  );
}

/** 'Product Not Found' for an unknown product; otherwise 'Error Loading Reviews' with a way back. */
export function ErrorBoundary() {
  const error = useRouteError();
  const { slug } = useParams();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (notFound) {
    return (
      <div className="mx-auto max-w-xl px-4 py-20 text-center">
        <h1 className="font-serif text-4xl text-sage-900">Product Not Found</h1>
        <p className="mt-4 text-stone-600">We could not find that product.</p>
        <Link to="/" className="mt-8 inline-block rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800">
          Return to Home
        </Link>
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="font-serif text-4xl text-sage-900">Error Loading Reviews</h1>
      <p className="mt-4 text-stone-600">{REVIEWS_FAILED}</p>
      <Link
        to={slug ? `/product/${encodeURIComponent(slug)}` : '/products'}
        className="mt-8 inline-block rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800"
      >
        {slug ? 'Back to product' : 'All Products'}
      </Link>
    </div>
  );
}
