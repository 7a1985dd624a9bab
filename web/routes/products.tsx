import { Link, useNavigate, useRouteError, useSearchParams } from 'react-router';
import { LISTING_FETCH_LIMIT } from '#common/constants.ts';
import type { ProductSummary } from '#common/contracts/catalog.ts';
import { listProducts, searchProducts } from '#common/contracts/catalog.ts';
import { listBestSellers } from '#common/contracts/marketing.ts';
import { isClientError } from '#web/common/page-errors.ts';
import { apiContext } from '#web/context.ts';
import { toCardProduct } from '#web/storefront/catalog/card-product.ts';
import { ProductCard } from '#web/storefront/catalog/product-card.tsx';
import { originOf, pageMeta } from '#web/storefront/seo/page-meta.ts';
import type { Route } from './+types/products.ts';

export const sortOptions = [
  { value: 'relevance', label: 'Relevance' },
  { value: 'best-selling', label: 'Best Selling' },
  { value: 'name', label: 'Name A-Z' },
] as const;
type Sort = (typeof sortOptions)[number]['value'];

/** How many of the best sellers wear the badge. */
const BADGED_BEST_SELLERS = 10;

/** A search or category the API refuses (a 400) shows the empty state, see the ErrorBoundary. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const search = url.searchParams.get('search')?.trim() ?? '';
  const category = url.searchParams.get('category')?.trim() ?? '';
  const sortParam = url.searchParams.get('sort');
  const sort: Sort = sortOptions.some((option) => option.value === sortParam) ? (sortParam as Sort) : 'relevance';
  const api = context.get(apiContext);
  const [list, best] = await Promise.all([
    search
      ? api.call(searchProducts, { params: { term: search }, query: { page: 1, limit: LISTING_FETCH_LIMIT } })
      : api.call(listProducts, { query: { page: 1, limit: LISTING_FETCH_LIMIT, ...(category ? { category } : {}) } }),
    api.call(listBestSellers, { query: { limit: 50 } }).catch(() => ({ success: true as const, data: [] })),
  ]);
  return {
    search,
    category,
    sort,
    products: sortProducts(list.products, sort, best.data).map(toCardProduct),
    total: list.pagination.total,
    bestSellers: Object.fromEntries(
      best.data.slice(0, BADGED_BEST_SELLERS).map((entry) => [entry.productId, entry.score]),
    ),
  };
}

function sortProducts(
  products: ProductSummary[],
  sort: Sort,
  best: { productId: string; score: number }[],
): ProductSummary[] {
  if (sort === 'name') return [...products].sort((a, b) => a.title.localeCompare(b.title, 'en'));
  if (sort === 'best-selling') {
    const score = new Map(best.map((entry) => [entry.productId, entry.score]));
    return [...products].sort((a, b) => (score.get(b.id) ?? 0) - (score.get(a.id) ?? 0));
  }
  return products;
}

export const meta: Route.MetaFunction = ({ loaderData, matches }) => {
  const categories = matches[1]?.loaderData?.categories ?? [];
  const category = categories.find((c) => c.slug === loaderData?.category);
  const title = loaderData?.search ? `Search: ${loaderData.search}` : (category?.name ?? 'All Products');
  const path = category ? `/products?category=${category.slug}` : '/products';
  return pageMeta({
    title: `${title} · Stillwater`,
    description: category
      ? `${category.name} from Stillwater: calming pieces for your desk and home.`
      : 'Fountains, lighting, aromatherapy, wellness, decor and gifts for a calmer home.',
    origin: originOf(matches),
    path,
    noIndex: !loaderData || Boolean(loaderData.search),
  });
};

export default function Products({ loaderData, matches }: Route.ComponentProps) {
  const { search, category, sort, products, total, bestSellers } = loaderData;
  const categories = matches[1].loaderData.categories;
  const categoryName = categories.find(
    (c) => c.slug === category || c.name.toLowerCase() === category.toLowerCase(),
  )?.name;
  const heading = search ? `Results for “${search}”` : (categoryName ?? 'All Products');
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="font-serif text-4xl text-sage-900">{heading}</h1>
          <p className="mt-2 text-stone-600" data-testid="result-count">
            {total} product(s) found
            {search ? (
              <>
                {' '}
                for <strong className="text-stone-800">{search}</strong>
              </>
            ) : null}
          </p>
        </div>
        <SortSelect sort={sort} />
      </div>
      {products.length === 0 ? (
        <EmptyState />
      ) : (
        <section aria-labelledby="results-heading" className="mt-8">
          <h2 id="results-heading" className="sr-only">
            Products
          </h2>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
            {products.map((product, index) => (
              <ProductCard
                key={product.id}
                product={product}
                bestSellerScore={bestSellers[product.id]}
                priority={index < 2}
              />
            ))}
          </div>
        </section>
      )}
    </div>
  );
}

function SortSelect({ sort }: { sort: Sort }) {
  const [params, setParams] = useSearchParams();
  return (
    <label className="flex items-center gap-2 text-sm text-stone-700">
      Sort by
      <select
        value={sort}
        onChange={(event) => {
          const next = new URLSearchParams(params);
          if (event.target.value === 'relevance') next.delete('sort');
          else next.set('sort', event.target.value);
          setParams(next, { preventScrollReset: true });
        }}
        className="rounded-lg border border-sage-200 bg-white px-3 py-2 text-sm focus:border-sage-500 focus:ring-2 focus:ring-sage-200 focus:outline-none"
      >
        {sortOptions.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function EmptyState() {
  const navigate = useNavigate();
  return (
    <div className="mt-12 rounded-2xl border border-dashed border-sage-200 bg-white p-12 text-center">
      <h2 className="text-xl font-semibold text-sage-900">No products found</h2>
      <p className="mt-2 text-stone-600">Try another word, or browse everything we have.</p>
      <div className="mt-6 flex justify-center gap-3">
        <button
          type="button"
          onClick={() => navigate(0)}
          className="rounded-full border border-sage-300 px-5 py-2 text-sage-800 hover:bg-sage-50"
        >
          Reload
        </button>
        <Link to="/products" className="rounded-full bg-sage-700 px-5 py-2 text-white hover:bg-sage-800">
          All Products
        </Link>
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The API refused the search or category (too long, a control character): nothing matches it.
  if (isClientError(error)) {
    const search = params.get('search')?.trim() ?? '';
    return (
      <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
        <h1 className="font-serif text-4xl text-sage-900">{search ? `Results for “${search}”` : 'All Products'}</h1>
        <p className="mt-2 text-stone-600" data-testid="result-count">
          0 product(s) found
        </p>
        <EmptyState />
      </div>
    );
  }
  return (
    <div className="mx-auto max-w-3xl px-4 py-20 text-center">
      <h1 className="font-serif text-3xl text-sage-900">Failed to fetch products</h1>
      <p className="mt-3 text-stone-600">Something went wrong while loading the products.</p>
      <button
        type="button"
        onClick={() => navigate(0)}
        className="mt-6 rounded-full bg-sage-700 px-6 py-3 text-white hover:bg-sage-800"
      >
        Try Again
      </button>
    </div>
  );
}
