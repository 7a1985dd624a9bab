import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { reviewMessages } from '#common/review-rules.ts';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { settings } from '#server/features/settings/settings.tables.ts';
import { buildTestApp, csrfHeaders } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { REVIEW_AWAITS_CHECK, REVIEW_PUBLISHED } from './reviews.service.ts';
import { reviews } from './reviews.tables.ts';

const { app, database, jobsDone } = await buildTestApp();
const { db } = database;
let counter = 0;
const address = () => `10.60.${Math.floor(++counter / 200)}.${counter % 200}`;

/** A new shopper, signed in through the API like the storefront does. */
async function shopper(on = app) {
  const browser = testClient(on, { remoteAddress: address() });
  const id = `${Date.now().toString(36)}${(++counter).toString(36)}`;
  const response = await browser.post('/api/auth/register', {
    username: `writer_${id}`,
    email: `writer.${id}@example.com`,
    password: 'Quiet-Water-42',
  });
  expect(response.statusCode).toBe(201);
  return { browser, user: response.json().user as { id: string; username: string } };
}

const good = { productId: 'wireless-charger', rating: 4.5, title: 'Calm desk', content: 'Charges my phone quietly.' };

describe('POST /api/reviews', () => {
  test('a visitor gets 401, and a write without CSRF token 403; nothing is written', async () => {
    const before = await db.select().from(reviews);
    expect((await testClient(app).post('/api/reviews', good)).statusCode).toBe(401);
    const { browser } = await shopper();
    expect((await browser.post('/api/reviews', good, { csrf: false })).statusCode).toBe(403);
    expect(await db.select().from(reviews)).toHaveLength(before.length);
  });

  test('the spec rules in order, with its messages, on trimmed texts', async () => {
    const { browser } = await shopper();
    const cases: [object, string, string][] = [
      [{ rating: 0, title: '', content: '' }, 'rating', reviewMessages.ratingMissing],
      [{ title: '   ', content: '' }, 'title', reviewMessages.titleMissing],
      [{ content: ' \n ' }, 'content', reviewMessages.contentMissing],
      [{ title: 't'.repeat(101) }, 'title', reviewMessages.titleTooLong],
      [{ content: 'c'.repeat(1001) }, 'content', reviewMessages.contentTooLong],
    ];
    for (const [change, field, error] of cases) {
      const response = await browser.post('/api/reviews', { ...good, ...change });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual({ error, code: 'invalid_input', field });
    }
    for (const bad of [
      { rating: '5' },
      { title: 7 },
      { content: 'x'.repeat(30_000) },
      { productId: '' },
      { verified: 'yes' },
    ]) {
      expect((await browser.post('/api/reviews', { ...good, ...bad })).statusCode).toBe(400);
    }
  });

  test('posts under the account name, clamps the rating, and counts at once in the rating summary', async () => {
    const { browser, user } = await shopper();
    const before = (await browser.get('/api/reviews/rating/wireless-charger')).json().totalReviews;
    const response = await browser.post('/api/reviews', {
      ...good,
      rating: 7,
      title: '  Calm desk  ',
      customerName: 'Somebody Else',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      message: REVIEW_PUBLISHED,
      review: expect.objectContaining({
        productId: 'wireless-charger',
        rating: 5,
        title: 'Calm desk',
        customerName: user.username,
        isOwn: true,
        status: 'approved',
        verified: false,
        helpful: 0,
      }),
    });
    const summary = (await testClient(app).get('/api/reviews/rating/wireless-charger')).json();
    expect(summary.totalReviews).toBe(before + 1);
    const second = await browser.post('/api/reviews', { ...good, rating: 4.26 });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({ error: 'You have already reviewed this product', code: 'review_exists' });
    const other = await browser.post('/api/reviews', { ...good, productId: 'desktop-fountain', rating: 4.26 });
    expect(other.json().review.rating).toBe(4.3);
  });

  test('an unknown product is a 404', async () => {
    const { browser } = await shopper();
    const response = await browser.post('/api/reviews', { ...good, productId: 'no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json().error).toBe('Product not found');
  });

  test('verified only with a purchase: otherwise 403 and nothing written', async () => {
    const { browser, user } = await shopper();
    const refused = await browser.post('/api/reviews', { ...good, verified: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('not_purchased');
    expect(await db.select().from(reviews).where(eq(reviews.userId, user.id))).toEqual([]);

    // A customer of the demo shop with a paid order of a product they have not reviewed.
    const [bought] = await db
      .select({ userId: orders.userId, productId: orderItems.productId, slug: products.slug })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(inArray(orders.status, ['processing', 'shipped', 'delivered', 'completed']))
      .limit(1);
    await db
      .delete(reviews)
      .where(and(eq(reviews.userId, bought?.userId as string), eq(reviews.productId, bought?.productId as string)));
    const token = await createSessionStore({ db }).create(bought?.userId as string);
    const buyer = testClient(app, { remoteAddress: address() });
    buyer.setCookie('sw_session', token);
    const verified = await buyer.post('/api/reviews', { ...good, productId: bought?.slug, verified: true });
    expect(verified.statusCode).toBe(201);
    expect(verified.json().review.verified).toBe(true);
  });

  test('the moderator holds back a review with a link: visible to its author only, with its status', async () => {
    const { browser } = await shopper();
    const response = await browser.post('/api/reviews', {
      ...good,
      content: 'Great, but buy it cheaper at http://spam.example/deal',
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ message: REVIEW_AWAITS_CHECK, review: { status: 'flagged' } });
    const id = response.json().review.id as string;
    const [stored] = await db.select().from(reviews).where(eq(reviews.id, id));
    expect(stored?.aiModerationResult).toMatchObject({ flagged: true, reasons: [expect.any(String)] });
    const publicList = (await testClient(app).get('/api/reviews/product/wireless-charger?limit=100')).json();
    expect(publicList.reviews.map((r: { id: string }) => r.id)).not.toContain(id);
    const own = (await browser.get('/api/reviews/product/wireless-charger?limit=100')).json();
    expect(own.reviews.find((r: { id: string }) => r.id === id)).toMatchObject({ isOwn: true, status: 'flagged' });
    const mine = (await browser.get('/api/reviews/user')).json();
    expect(mine.reviews[0]).toMatchObject({ id, status: 'flagged', moderationReasons: [expect.any(String)] });
  });

  test('with autoApproveReviews off, every new review waits as pending', async () => {
    const manual = await createTestDatabase();
    await manual.db.insert(settings).values({ key: 'autoApproveReviews', value: false });
    const { app: shop } = await buildTestApp({ database: manual });
    const { browser } = await shopper(shop);
    const response = await browser.post('/api/reviews', good);
    expect(response.json()).toMatchObject({ message: REVIEW_AWAITS_CHECK, review: { status: 'pending' } });
  });
});

describe('PUT and DELETE /api/reviews/:id', () => {
  test('only the author edits or deletes; an edit is moderated again', async () => {
    const { browser } = await shopper();
    const { browser: stranger } = await shopper();
    const id = (await browser.post('/api/reviews', good)).json().review.id as string;
    const edit = { rating: 3, title: 'Still calm', content: 'A little warm after an hour.', verified: false };
    const foreign = await stranger.put(`/api/reviews/${id}`, edit);
    expect(foreign.statusCode).toBe(403);
    expect(foreign.json()).toEqual({ error: 'You can only change your own reviews', code: 'not_your_review' });
    expect((await browser.put('/api/reviews/0123456789abcdef', edit)).statusCode).toBe(404);
    expect((await browser.put('/api/reviews/not-an-id', edit)).statusCode).toBe(400);
    const updated = await browser.put(`/api/reviews/${id}`, edit);
    expect(updated.json()).toMatchObject({ message: 'Review updated', review: { rating: 3, title: 'Still calm' } });
    const spam = await browser.put(`/api/reviews/${id}`, { ...edit, content: 'Write to me at deals@spam.example' });
    expect(spam.json().review.status).toBe('flagged');

    const removeForeign = await stranger.delete(`/api/reviews/${id}`);
    expect(removeForeign.statusCode).toBe(403);
    expect((await browser.delete(`/api/reviews/${id}`)).json()).toEqual({ success: true });
    expect(await db.select().from(reviews).where(eq(reviews.id, id))).toEqual([]);
    expect((await browser.delete(`/api/reviews/${id}`)).statusCode).toBe(404);
  });

  test('a change reaches the review overview through its background job', async () => {
    const { browser } = await shopper();
    const before = (await testClient(app).get('/api/reviews/ai-analysis/moving-sand-art-frame')).json();
    await browser.post('/api/reviews', {
      productId: 'moving-sand-art-frame',
      rating: 1,
      title: 'Broke in a week',
      content: 'The frame cracked and the sand leaked. Disappointing and fragile.',
    });
    await jobsDone();
    const after = (await testClient(app).get('/api/reviews/ai-analysis/moving-sand-art-frame')).json();
    expect(after).not.toEqual(before);
  });
});

describe('POST /api/reviews/:id/helpful', () => {
  test('counts once per shopper, also under twenty parallel votes', async () => {
    const [target] = await db
      .select({ id: reviews.id, helpful: reviews.helpfulCount })
      .from(reviews)
      .where(eq(reviews.moderationStatus, 'approved'))
      .limit(1);
    const id = target?.id as string;
    const start = target?.helpful ?? 0;
    // A visitor's browser: its CSRF cookie tells it apart from other browsers.
    const headers = await csrfHeaders(app);
    const votes = await Promise.all(
      Array.from({ length: 20 }, () =>
        app.inject({ method: 'POST', url: `/api/reviews/${id}/helpful`, headers, remoteAddress: address() }),
      ),
    );
    expect(votes.every((vote) => vote.statusCode === 200)).toBe(true);
    expect(new Set(votes.map((vote) => vote.json().helpful))).toEqual(new Set([start + 1]));
    // Another browser and a signed-in shopper each count once more.
    const other = await testClient(app, { remoteAddress: address() }).post(`/api/reviews/${id}/helpful`);
    expect(other.json()).toEqual({ helpful: start + 2 });
    const { browser } = await shopper();
    expect((await browser.post(`/api/reviews/${id}/helpful`)).json()).toEqual({ helpful: start + 3 });
    expect((await browser.post(`/api/reviews/${id}/helpful`)).json()).toEqual({ helpful: start + 3 });
    expect((await browser.post('/api/reviews/0123456789abcdef/helpful')).statusCode).toBe(404);
  });
});
