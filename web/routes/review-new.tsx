import { data, isRouteErrorResponse, Link, useNavigate, useParams, useRouteError } from 'react-router';
import { getProduct, type Product } from '#common/contracts/catalog.ts';
import { hasPurchased } from '#common/contracts/orders.ts';
import { listMyReviews } from '#common/contracts/reviews.ts';
import { ApiRequestError } from '#web/common/api-client.ts';
import { Notice } from '#web/common/form-fields.tsx';
import { requireSignedIn } from '#web/common/guards.ts';
import { apiContext } from '#web/context.ts';
import { ProductImage } from '#web/storefront/catalog/product-image.tsx';
import { ReviewForm } from '#web/storefront/reviews/review-form.tsx';
import type { Route } from './+types/review-new.ts';

/**
 * Spec: login required (a visitor goes to sign in and comes back here). The product, whether the
 * shopper bought it (the purchased check; a failure counts as false) and whether they reviewed it
 * already (one review per product: the form would only end in the server's refusal).
 */
export async function loader({ params, request, context }: Route.LoaderArgs) {
  const user = await requireSignedIn(request, context);
  const api = context.get(apiContext);
  let product: Product;
  try {
    product = await api.call(getProduct, { params: { id: params.slug } });
  } catch (error) {
    if (error instanceof ApiRequestError && error.status >= 400 && error.status < 500) {
      throw data({ message: 'Product not found' }, { status: 404 });
    }
    throw data({ message: 'Failed to fetch product' }, { status: 503 });
  }
  const [purchased, mine] = await Promise.all([
    api
      .call(hasPurchased, { params: { productId: product.slug } })
      .then((answer) => answer.purchased === true)
      .catch(() => false),
    api
      .call(listMyReviews)
      .then((answer) => answer.reviews)
      .catch(() => []),
  ]);
  return {
    product: {
      id: product.id,
      slug: product.slug,
      title: product.title,
      image: product.images[0] ?? null,
      description: product.description,
    },
    username: user.username,
    purchased,
    reviewed: mine.some((review) => review.productId === product.slug),
  };
}

export const meta: Route.MetaFunction = ({ loaderData, error }) => {
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  const title = loaderData
    ? `Write a review of ${loaderData.product.title}`
    : notFound
      ? 'Product Not Found'
      : 'Error Loading Product';
  return [{ title: `${title} · Stillwater` }, { name: 'robots', content: 'noindex' }];
};

export default function ReviewNew({ loaderData }: Route.ComponentProps) {
  const { product, username, purchased, reviewed } = loaderData;
  const navigate = useNavigate();
  const reviewsHref = `/product/${product.slug}/reviews`;
  return (
    <div className="mx-auto max-w-3xl px-4 py-8 sm:px-6 lg:py-12">
      <Link to={reviewsHref} className="text-sm font-medium text-sage-700 hover:underline">
        ← Back to reviews
      </Link>
      <h1 className="mt-4 font-serif text-3xl leading-tight text-sage-900 sm:text-4xl">Write a review</h1>
      <ProductPanel product={product} />
      <div className="mt-8 rounded-2xl border border-sage-100 bg-white p-6 sm:p-8">
        {reviewed ? (
          <AlreadyReviewed reviewsHref={reviewsHref} />
        ) : (
          <ReviewForm
            productId={product.slug}
            username={username}
            purchased={purchased}
            cancelHref={reviewsHref}
            // Spec: success goes to the reviews with ?success=true; the server's sentence rides along.
            onPosted={(message) => navigate(`${reviewsHref}?success=true`, { state: { reviewMessage: message } })}
          />
        )}
      </div>
    </div>
  );
}

/** Spec: the product title, first image and description above the form. */
function ProductPanel({ product }: { product: { title: string; image: string | null; description: string } }) {
  return (
    <section aria-labelledby="review-product-heading" className="mt-6 flex flex-col gap-5 sm:flex-row">
      <ProductImage
        src={product.image ?? undefined}
        alt={product.title}
        sizes="(min-width: 640px) 160px, 100vw"
        width={160}
        height={160}
        priority
        className="h-40 w-40 shrink-0 rounded-2xl border border-sage-100 object-cover"
      />
      <div className="min-w-0">
        <h2 id="review-product-heading" className="text-xl font-semibold text-stone-900">
          {product.title}
        </h2>
        <div className="mt-2 space-y-2 text-sm leading-6 text-stone-700">
          {product.description.split(/\n\s*\n/).map((paragraph) => (
            <p key={paragraph.slice(0, 40)}>{paragraph}</p>
          ))}
        </div>
      </div>
    </section>
  );
}

/** One review per shopper and product: their review is edited in My Reviews instead. */
function AlreadyReviewed({ reviewsHref }: { reviewsHref: string }) {
  return (
    <div className="space-y-4">
      <Notice kind="info">You have already reviewed this product.</Notice>
      <div className="flex flex-wrap gap-3">
        <Link
          to="/account?tab=reviews"
          className="rounded-full bg-sage-700 px-6 py-2.5 text-sm font-medium text-white hover:bg-sage-800"
        >
          Edit it in My Reviews
        </Link>
        <Link
          to={reviewsHref}
          className="rounded-full border border-sage-300 px-6 py-2.5 text-sm font-medium text-sage-800 hover:bg-sage-50"
        >
          Cancel
        </Link>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const { slug } = useParams();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <h1 className="font-serif text-4xl text-sage-900">{notFound ? 'Product Not Found' : 'Error Loading Product'}</h1>
      <p className="mt-4 text-stone-600">{notFound ? 'We could not find that product.' : 'Failed to fetch product'}</p>
      <Link
        to={notFound || !slug ? '/' : `/product/${encodeURIComponent(slug)}/reviews`}
        className="mt-8 inline-block rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800"
      >
        {notFound || !slug ? 'Return to Home' : 'Back to reviews'}
      </Link>
    </div>
  );
}
