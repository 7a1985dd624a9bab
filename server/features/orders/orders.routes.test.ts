import { count, eq, isNotNull } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { reviews } from '#server/features/reviews/reviews.tables.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { orders } from './orders.tables.ts';

const { app, database } = await buildTestApp();
const { db } = database;
const as = async (userId: string) => ({ cookie: `sw_session=${await createSessionStore({ db }).create(userId)}` });

// A demo customer with orders, and one with reviews.
const [buyer] = await db
  .select({ userId: orders.userId, n: count() })
  .from(orders)
  .where(isNotNull(orders.userId))
  .groupBy(orders.userId)
  .orderBy(count())
  .limit(1);
const [reviewer] = await db.select({ userId: reviews.userId }).from(reviews).where(eq(reviews.verified, true)).limit(1);

describe('GET /api/orders/user', () => {
  test('a visitor gets 401', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/orders/user' });
    expect(response.statusCode).toBe(401);
    expect(response.json().error).toBe('Authentication required');
  });

  test('a customer sees their own orders, newest first, with their lines', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/orders/user',
      headers: await as(buyer?.userId as string),
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const list = response.json().orders;
    expect(list).toHaveLength(buyer?.n ?? 0);
    const dates = list.map((o: { createdAt: string }) => o.createdAt);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(list[0]).toMatchObject({ orderNumber: expect.stringMatching(/^SW-\d+$/), total: expect.any(Number) });
    expect(list[0].items[0]).toMatchObject({
      productName: expect.any(String),
      quantity: expect.any(Number),
      price: expect.any(Number),
    });
    const mine = await db
      .select({ id: orders.id })
      .from(orders)
      .where(eq(orders.userId, buyer?.userId as string));
    expect(list.map((o: { id: string }) => o.id).sort()).toEqual(mine.map((o) => o.id).sort());
  });
});

describe('GET /api/orders/user/product/:id/purchased', () => {
  test('true for a product the customer bought, false otherwise and for visitors', async () => {
    const [review] = await db
      .select()
      .from(reviews)
      .where(eq(reviews.userId, reviewer?.userId as string))
      .limit(1);
    const product = (await app.inject({ method: 'GET', url: `/api/products/by-id/${review?.productId}` })).json();
    const headers = await as(reviewer?.userId as string);
    const bought = await app.inject({
      method: 'GET',
      url: `/api/orders/user/product/${product.slug}/purchased`,
      headers,
    });
    expect(bought.json()).toEqual({ purchased: true });
    const visitor = await app.inject({ method: 'GET', url: `/api/orders/user/product/${product.slug}/purchased` });
    expect(visitor.json()).toEqual({ purchased: false });
    const unknown = await app.inject({ method: 'GET', url: '/api/orders/user/product/no-such/purchased', headers });
    expect(unknown.json()).toEqual({ purchased: false });
  });
});

describe('GET /api/reviews/user', () => {
  test('a visitor gets 401; a reviewer sees their reviews marked as their own', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/reviews/user' })).statusCode).toBe(401);
    const response = await app.inject({
      method: 'GET',
      url: '/api/reviews/user',
      headers: await as(reviewer?.userId as string),
    });
    const list = response.json().reviews;
    const [{ n }] = (await db
      .select({ n: count() })
      .from(reviews)
      .where(eq(reviews.userId, reviewer?.userId as string))) as [{ n: number }];
    expect(list).toHaveLength(n);
    expect(list.every((r: { isOwn: boolean; productTitle: string }) => r.isOwn && r.productTitle.length > 0)).toBe(
      true,
    );
  });
});
