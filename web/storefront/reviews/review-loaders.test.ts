import { RouterContextProvider } from 'react-router';
import { describe, expect, test } from 'vitest';
import type { SessionUser } from '#common/contracts/accounts.ts';
import type { Review } from '#common/contracts/reviews.ts';
import { createApiClient } from '#web/common/api-client.ts';
import { apiContext } from '#web/context.ts';
import { loader as reviewsLoader } from '#web/routes/product-reviews.tsx';
import { loader as writeLoader } from '#web/routes/review-new.tsx';
import { fallbackProduct } from '#web/storefront/product/fallback-products.ts';

// The two review pages' loaders against a fake API: what they ask for, and how a failing
// answer becomes the page's state (404 'Product Not Found', 503 'Error Loading Reviews').

const product = fallbackProduct('desktop-fountain');
if (!product) throw new Error('no built-in fountain');
const shopper: SessionUser = {
  id: 'u1',
  username: 'mara',
  email: 'm@example.com',
  isAdmin: false,
  role: 'user',
  adminPermissions: {},
};
const review = (id: string): Review => ({
  id,
  productId: 'desktop-fountain',
  rating: 4.5,
  title: 'Calm',
  content: 'Quiet.',
  verified: false,
  helpful: 0,
  createdAt: '2026-01-02T03:04:05.000Z',
  customerName: 'mara',
  isOwn: false,
  status: 'approved',
});

type Answer = { status: number; body: unknown };
const ok = (body: unknown): Answer => ({ status: 200, body });
const failed = (status: number, error: string): Answer => ({ status, body: { error, code: 'x' } });

/** A loader context whose API answers each path with `answers` (by path prefix), recording the URLs asked. */
function fakeApi(answers: Record<string, Answer>) {
  const asked: string[] = [];
  const context = new RouterContextProvider();
  context.set(
    apiContext,
    createApiClient(async ({ url }) => {
      asked.push(url);
      const path = url.split('?')[0] ?? url;
      const key = Object.keys(answers)
        .filter((prefix) => path.startsWith(prefix))
        .sort((a, b) => b.length - a.length)[0];
      const answer = key ? answers[key] : undefined;
      if (!answer) throw new Error(`unexpected call ${url}`);
      return { statusText: '', ...answer };
    }),
  );
  return { context, asked };
}

const summary = { averageRating: 4.5, totalReviews: 2, ratingBreakdown: { 1: 0, 2: 0, 3: 0, 4: 1, 5: 1 } };
const listOf = (reviews: Review[]) => ok({ reviews, pagination: { page: 1, pages: 3, total: 25, limit: 10 } });
const args = (path: string, context: RouterContextProvider, slug = 'desktop-fountain') =>
  ({ params: { slug }, request: new Request(`http://shop.example${path}`), context }) as never;

/** What a loader threw: the status and data of `data(...)`, a redirect's Location, or the error itself. */
async function thrownBy(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (thrown) {
    if (thrown instanceof Response) return { status: thrown.status, location: thrown.headers.get('location') };
    const { data, init } = thrown as { data?: unknown; init?: { status?: number } };
    return { status: init?.status, data };
  }
  throw new Error('the loader did not throw');
}

describe('the reviews list loader', () => {
  test('asks for the first page of 10 with the URL’s sort, stars and pinned review', async () => {
    const { context, asked } = fakeApi({
      '/api/products/': ok(product),
      '/api/reviews/rating/': ok(summary),
      '/api/reviews/product/': listOf([review('0123456789abcdef')]),
    });
    const result = await reviewsLoader(
      args('/product/desktop-fountain/reviews?sortBy=rating&order=asc&ratings=5,x,1&review=0123456789abcdef', context),
    );
    const list = asked.find((url) => url.startsWith('/api/reviews/product/')) ?? '';
    expect(Object.fromEntries(new URL(list, 'http://x').searchParams)).toEqual({
      page: '1',
      limit: '10',
      sortBy: 'rating',
      order: 'asc',
      ratings: '1,5',
      priorityReviewId: '0123456789abcdef',
    });
    expect(result.first).toMatchObject({ page: 1, pages: 3, total: 25 });
    expect(result.product).toEqual({ slug: 'desktop-fountain', title: product.title, image: product.images[0] });
    expect(result.summary).toEqual(summary);
  });

  test('an unknown product is a 404; a failing product or list is Error Loading Reviews', async () => {
    const unknown = fakeApi({ '/api/products/': failed(404, 'Product not found') });
    expect(await thrownBy(() => reviewsLoader(args('/product/x/reviews', unknown.context, 'x')))).toEqual({
      status: 404,
      data: { message: 'Product not found' },
    });
    const down = fakeApi({ '/api/products/': failed(500, 'Internal error') });
    expect(await thrownBy(() => reviewsLoader(args('/product/x/reviews', down.context)))).toEqual({
      status: 503,
      data: { message: 'Failed to fetch reviews' },
    });
    const listDown = fakeApi({
      '/api/products/': ok(product),
      '/api/reviews/rating/': ok(summary),
      '/api/reviews/product/': failed(500, 'Internal error'),
    });
    expect(await thrownBy(() => reviewsLoader(args('/product/desktop-fountain/reviews', listDown.context)))).toEqual({
      status: 503,
      data: { message: 'Failed to fetch reviews' },
    });
  });

  test('a failing rating summary only leaves the summary out', async () => {
    const { context } = fakeApi({
      '/api/products/': ok(product),
      '/api/reviews/rating/': failed(500, 'Internal error'),
      '/api/reviews/product/': listOf([]),
    });
    expect((await reviewsLoader(args('/product/desktop-fountain/reviews', context))).summary).toBeNull();
  });
});

describe('the write-review loader', () => {
  test('a visitor goes to sign in and comes back', async () => {
    const { context } = fakeApi({ '/api/auth/me': ok({ authenticated: false }) });
    expect(await thrownBy(() => writeLoader(args('/product/desktop-fountain/review/new', context)))).toEqual({
      status: 302,
      location: '/login?redirect=%2Fproduct%2Fdesktop-fountain%2Freview%2Fnew',
    });
  });

  test('the purchased check and an earlier review of the product; a failed check counts as false', async () => {
    const answers = {
      '/api/auth/me': ok({ authenticated: true, user: shopper }),
      '/api/products/': ok(product),
      '/api/orders/user/product/': ok({ purchased: true }),
      '/api/reviews/user': ok({ reviews: [] }),
    };
    const bought = await writeLoader(args('/product/desktop-fountain/review/new', fakeApi(answers).context));
    expect(bought).toMatchObject({ username: 'mara', purchased: true, reviewed: false });
    expect(bought.product).toMatchObject({ slug: 'desktop-fountain', title: product.title });

    const failing = fakeApi({
      ...answers,
      '/api/orders/user/product/': failed(500, 'Internal error'),
      '/api/reviews/user': ok({ reviews: [{ ...review('0123456789abcdef'), isOwn: true, productTitle: 'x' }] }),
    });
    const again = await writeLoader(args('/product/desktop-fountain/review/new', failing.context));
    expect(again).toMatchObject({ purchased: false, reviewed: true });
  });

  test('an unknown product is a 404', async () => {
    const { context } = fakeApi({
      '/api/auth/me': ok({ authenticated: true, user: shopper }),
      '/api/products/': failed(404, 'Product not found'),
    });
    expect(await thrownBy(() => writeLoader(args('/product/x/review/new', context, 'x')))).toMatchObject({
      status: 404,
    });
  });
});
