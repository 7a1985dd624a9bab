import { Link, useNavigate } from 'react-router';
import { LISTING_FETCH_LIMIT } from '#common/constants.ts';
import { listProducts, searchProducts } from '#common/contracts/catalog.ts';
import { apiContext } from '#web/context.ts';
import { ProductCard } from '#web/storefront/catalog/product-card.tsx';
import type { Route } from './+types/products.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const search = url.searchParams.get('search')?.trim() ?? '';
  const category = url.searchParams.get('category')?.trim() ?? '';
  const api = context.get(apiContext);
  const list = search
    ? await api.call(searchProducts, { params: { term: search }, query: { page: 1, limit: LISTING_FETCH_LIMIT } })
    : await api.call(listProducts, {
        query: { page: 1, limit: LISTING_FETCH_LIMIT, ...(category ? { category } : {}) },
      });
  return { search, category, products: list.products, total: list.pagination.total };
}

export const meta: Route.MetaFunction = ({ loaderData }) => {
  const title = loaderData?.search ? `Search: ${loaderData.search}` : 'All Products';
  return [
    { title: `${title} · Stillwater` },
    { name: 'description', content: 'Fountains, lighting, aromatherapy, wellness, decor and gifts for a calmer home.' },
  ];
};

export default function Products({ loaderData, matches }: Route.ComponentProps) {
  const { search, category, products, total } = loaderData;
  const categories = matches[0].loaderData.categories;
  const categoryName = categories.find(
    (c) => c.slug === category || c.name.toLowerCase() === category.toLowerCase(),
  )?.name;
  const heading = search ? `Results for “${search}”` : (categoryName ?? 'All Products');
  return (
    <div className="mx-auto max-w-7xl px-4 py-10 sm:px-6">
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
      {products.length === 0 ? (
        <EmptyState />
      ) : (
        <div className="mt-8 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {products.map((product, index) => (
            <ProductCard key={product.id} product={product} priority={index < 4} />
          ))}
        </div>
      )}
    </div>
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
  const navigate = useNavigate();
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
