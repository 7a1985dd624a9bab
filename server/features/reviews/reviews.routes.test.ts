import { and, eq, isNotNull, notInArray } from 'drizzle-orm';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { reviews } from './reviews.tables.ts';

const { app, database } = await buildTestApp();
const get = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url, headers });
type ReviewBody = {
  id: string;
  rating: number;
  createdAt: string;
  helpful: number;
  productId: string;
  isOwn: boolean;
  status: string;
};

describe('GET /api/reviews/product/:id', () => {
  test('public reviews of a product, newest first, with pagination', async () => {
    const response = await get('/api/reviews/product/desktop-fountain?limit=10');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.pagination).toEqual({ page: 1, pages: 7, total: 70, limit: 10 });
    expect(body.reviews).toHaveLength(10);
    const dates = body.reviews.map((r: ReviewBody) => r.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(body.reviews[0]).toMatchObject({
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      productId: 'desktop-fountain',
      isOwn: false,
      status: 'approved',
    });
  });

  test('the default page size is 40', async () => {
    expect((await get('/api/reviews/product/desktop-fountain')).json().reviews).toHaveLength(40);
  });

  test('pending and flagged reviews are not public', async () => {
    const all = (await get('/api/reviews/product/desktop-fountain?limit=100')).json().reviews;
    expect(all.every((r: ReviewBody) => r.status === 'approved')).toBe(true);
    expect(all.map((r: { title: string }) => r.title)).not.toContain('Cheaper fountains here');
  });

  test('filters by minimum, maximum and whole stars', async () => {
    const high = (await get('/api/reviews/product/desktop-fountain?limit=100&minRating=4')).json().reviews;
    expect(high.length).toBeGreaterThan(40);
    expect(high.every((r: ReviewBody) => r.rating >= 4)).toBe(true);
    const low = (await get('/api/reviews/product/desktop-fountain?limit=100&maxRating=2')).json().reviews;
    expect(low.every((r: ReviewBody) => r.rating <= 2)).toBe(true);
    const stars = (await get('/api/reviews/product/desktop-fountain?limit=100&ratings=1,2')).json().reviews;
    expect(stars.every((r: ReviewBody) => Math.round(r.rating) <= 2)).toBe(true);
  });

  test("a rating range's total is every public review in it, fractional ratings at the stars' edges too, and the viewer's own", async () => {
    const { db } = database;
    const [product] = await db
      .insert(products)
      .values({ slug: 'rated-range', title: 'Rated range', price: 1000, status: 'active' })
      .returning({ id: products.id });
    const productId = product?.id as string;
    const ratings = [1, 1.4, 1.5, 2, 2.5, 3.4, 3.5, 3.9, 4, 4.4, 4.5, 4.9, 5];
    const review = (rating: number, n: number) => ({
      productId,
      customerName: `R${n}`,
      rating,
      title: 'T',
      content: 'C',
    });
    await db.insert(reviews).values(ratings.map(review));
    const [viewer] = await db
      .insert(users)
      .values({ username: 'ranged', email: 'ranged@example.com', passwordHash: 'x' })
      .returning({ id: users.id });
    const viewerId = viewer?.id as string;
    // Not public: counted for its author alone.
    await db.insert(reviews).values({ ...review(3.5, 99), userId: viewerId, moderationStatus: 'pending' });
    const cookie = `sw_session=${await createSessionStore({ db }).create(viewerId)}`;

    // Each read from an address of its own: the property's reads would use up the general limit.
    let client = 0;
    const read = async (url: string, headers: Record<string, string> = {}) => {
      client += 1;
      const remoteAddress = `10.77.${client >> 8}.${client & 255}`;
      return (await app.inject({ method: 'GET', url, headers, remoteAddress })).json().pagination.total;
    };
    const bound = fc.integer({ min: 10, max: 50 }).map((tenths) => tenths / 10);
    await fc.assert(
      fc.asyncProperty(fc.option(bound, { nil: undefined }), fc.option(bound, { nil: undefined }), async (min, max) => {
        const query = [min === undefined ? '' : `&minRating=${min}`, max === undefined ? '' : `&maxRating=${max}`].join(
          '',
        );
        const inRange = (rating: number) => rating >= (min ?? 1) && rating <= (max ?? 5);
        const url = `/api/reviews/product/rated-range?limit=1${query}`;
        expect(await read(url), query).toBe(ratings.filter(inRange).length);
        const own = inRange(3.5) ? 1 : 0;
        expect(await read(url, { cookie }), query).toBe(ratings.filter(inRange).length + own);
      }),
      { numRuns: 60 },
    );
  });

  test('sorts by rating and helpfulness in both orders', async () => {
    const byRating = (await get('/api/reviews/product/desktop-fountain?limit=100&sortBy=rating&order=asc')).json()
      .reviews;
    const ratings = byRating.map((r: ReviewBody) => r.rating);
    expect([...ratings].sort((a, b) => a - b)).toEqual(ratings);
    const helpful = (await get('/api/reviews/product/desktop-fountain?limit=100&sortBy=helpful')).json().reviews;
    const counts = helpful.map((r: ReviewBody) => r.helpful);
    expect([...counts].sort((a, b) => b - a)).toEqual(counts);
  });

  test('a pinned review comes first, once, and the pages still add up', async () => {
    const last = (await get('/api/reviews/product/desktop-fountain?limit=100')).json().reviews.at(-1) as ReviewBody;
    const pages = [];
    for (let page = 1; page <= 7; page++) {
      const body = (
        await get(`/api/reviews/product/desktop-fountain?limit=10&page=${page}&priorityReviewId=${last.id}`)
      ).json();
      pages.push(...body.reviews.map((r: ReviewBody) => r.id));
      expect(body.pagination.total).toBe(70);
    }
    expect(pages[0]).toBe(last.id);
    expect(pages).toHaveLength(70);
    expect(new Set(pages).size).toBe(70);
  });

  test('a signed-in author also sees their own review waiting for moderation, marked as theirs', async () => {
    const [flagged] = await database.db
      .select({ userId: reviews.userId, id: reviews.id })
      .from(reviews)
      .where(eq(reviews.moderationStatus, 'flagged'));
    const token = await createSessionStore({ db: database.db }).create(flagged?.userId as string);
    const response = await get('/api/reviews/product/desktop-fountain?limit=100', { cookie: `sw_session=${token}` });
    expect(response.headers['cache-control']).toBe('private, no-store');
    const own = response.json().reviews.find((r: ReviewBody) => r.id === flagged?.id);
    expect(own).toMatchObject({ isOwn: true, status: 'flagged' });
  });

  test("a signed-in shopper with no review of the product shares the visitors' answer, not kept by the browser", async () => {
    const reviewers = database.db
      .select({ id: reviews.userId })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(and(eq(products.slug, 'wireless-charger'), isNotNull(reviews.userId)));
    const [other] = await database.db
      .select({ id: users.id })
      .from(users)
      .where(notInArray(users.id, reviewers))
      .limit(1);
    const visitor = await get('/api/reviews/product/wireless-charger?limit=10');
    const token = await createSessionStore({ db: database.db }).create(other?.id as string);
    const response = await get('/api/reviews/product/wireless-charger?limit=10', { cookie: `sw_session=${token}` });
    expect(response.headers['cache-control']).toBe('private, no-cache');
    expect(response.json()).toEqual(visitor.json());
  });

  test('ascending is the exact reverse of descending, ties included; totals by star add up', async () => {
    for (const sortBy of ['helpful', 'rating', 'createdAt']) {
      const down = (await get(`/api/reviews/product/desktop-fountain?limit=100&sortBy=${sortBy}&order=desc`)).json();
      const up = (await get(`/api/reviews/product/desktop-fountain?limit=100&sortBy=${sortBy}&order=asc`)).json();
      expect(up.reviews.map((r: ReviewBody) => r.id)).toEqual(down.reviews.map((r: ReviewBody) => r.id).reverse());
    }
    const summary = (await get('/api/reviews/rating/desktop-fountain')).json();
    let sum = 0;
    for (const star of [1, 2, 3, 4, 5]) {
      const body = (await get(`/api/reviews/product/desktop-fountain?limit=100&ratings=${star}`)).json();
      expect(body.pagination.total).toBe(summary.ratingBreakdown[star]);
      expect(body.reviews).toHaveLength(summary.ratingBreakdown[star]);
      sum += body.pagination.total;
    }
    expect(sum).toBe(summary.totalReviews);
  });

  test.each([
    ['page=0', 'page'],
    ['limit=101', 'limit'],
    ['sortBy=price', 'sortBy'],
    ['order=up', 'order'],
    ['minRating=0', 'minRating'],
    ['maxRating=6', 'maxRating'],
    ['ratings=1,9', 'ratings'],
    ['ratings=five', 'ratings'],
    ['priorityReviewId=xyz', 'priorityReviewId'],
  ])('bad query %s gets 400 naming %s', async (query, field) => {
    const response = await get(`/api/reviews/product/desktop-fountain?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field });
  });

  test('an unknown product is a 404', async () => {
    const response = await get('/api/reviews/product/nope');
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('Product not found');
  });

  test('the cache-buster t is accepted and ignored', async () => {
    expect((await get('/api/reviews/product/desktop-fountain?t=123&limit=5')).json().reviews).toHaveLength(5);
  });
});

describe('GET /api/reviews/rating/:id', () => {
  test('average, count and the star breakdown of public reviews', async () => {
    const summary = (await get('/api/reviews/rating/desktop-fountain')).json();
    expect(summary.totalReviews).toBe(70);
    const { 1: one, 2: two, 3: three, 4: four, 5: five } = summary.ratingBreakdown;
    expect(one + two + three + four + five).toBe(70);
    expect(summary.averageRating).toBeGreaterThan(4);
    expect(summary.averageRating).toBeLessThanOrEqual(5);
  });

  test('a product id works as well as its slug; unknown is 404', async () => {
    const product = (await get('/api/products/wireless-charger')).json();
    expect((await get(`/api/reviews/rating/${product.id}`)).json()).toEqual(
      (await get('/api/reviews/rating/wireless-charger')).json(),
    );
    expect((await get('/api/reviews/rating/nope')).statusCode).toBe(404);
  });
});

describe('GET /api/reviews/ai-analysis/:id', () => {
  test('the built-in analysis of the fountain', async () => {
    const analysis = (await get('/api/reviews/ai-analysis/desktop-fountain')).json();
    expect(analysis.overallSentiment).toBe('positive');
    expect(analysis.recommendationScore).toBeGreaterThan(70);
    expect(analysis.summary.length).toBeGreaterThan(20);
    expect(analysis.commonPraises.length).toBeGreaterThan(0);
    expect(analysis.keyInsights.length).toBeGreaterThan(0);
  });

  test('is recomputed in the background when the reviews change', async () => {
    const { app: fresh, database: db, jobsDone } = await buildTestApp();
    const analysisOf = async (key: string) =>
      (await fresh.inject({ method: 'GET', url: `/api/reviews/ai-analysis/${key}` })).json();
    const before = await analysisOf('moving-sand-art-frame');
    // The first read also had the overview stored.
    await jobsDone();
    const [product] = await db.db
      .select({ id: products.id })
      .from(products)
      .where(eq(products.slug, 'moving-sand-art-frame'));
    const id = product?.id as string;
    await db.db
      .update(reviews)
      .set({ rating: 1, updatedAt: new Date() })
      .where(and(eq(reviews.productId, id)));
    // A read that finds the stored overview stale serves it and has it computed again (by id:
    // another cache key than the slug's).
    expect((await analysisOf(id)).recommendationScore).toBe(before.recommendationScore);
    await jobsDone();
    const after = await analysisOf(id);
    expect(before.recommendationScore).toBeGreaterThan(0);
    expect(after.recommendationScore).toBe(0);
    expect(after.overallSentiment).toBe('negative');
  });

  test('an unknown product is a 404', async () => {
    expect((await get('/api/reviews/ai-analysis/nope')).statusCode).toBe(404);
  });
});
