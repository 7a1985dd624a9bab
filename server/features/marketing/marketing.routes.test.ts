import { and, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { paidStatuses } from '#server/features/orders/order-status.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { refreshBestSellers, refreshStaleBestSellers, salePriceOf } from './marketing.service.ts';
import { bestSellers, sales } from './marketing.tables.ts';

const { app, database } = await buildTestApp();
const { db } = database;
const get = (url: string) => app.inject({ method: 'GET', url });

describe('GET /api/marketing/best-sellers', () => {
  test('products by units sold in paid orders of the last 30 days', async () => {
    const response = await get('/api/marketing/best-sellers?limit=50');
    expect(response.statusCode).toBe(200);
    const { success, data } = response.json();
    expect(success).toBe(true);
    expect(data.length).toBeGreaterThan(5);
    const scores = data.map((entry: { score: number }) => entry.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    const fountain = (await get('/api/products/desktop-fountain')).json();
    expect(data[0].productId).toBe(fountain.id);
  });

  test('limit is respected and validated', async () => {
    expect((await get('/api/marketing/best-sellers?limit=3')).json().data).toHaveLength(3);
    expect((await get('/api/marketing/best-sellers')).json().data.length).toBeLessThanOrEqual(50);
    for (const limit of ['0', '101', 'many']) {
      const response = await get(`/api/marketing/best-sellers?limit=${limit}`);
      expect(response.statusCode).toBe(400);
      expect(response.json().field).toBe('limit');
    }
  });
});

describe('best sellers, counted again by their job', () => {
  const listed = async (limit: number) =>
    (await get(`/api/marketing/best-sellers?limit=${limit}`)).json().data as { productId: string; score: number }[];

  test('units sold since the last count show after the next one, and not before', async () => {
    const before = await listed(60);
    // A recent paid order line of a product that is not the best seller gets 10,000 more units.
    const [line] = await db
      .select({ id: orderItems.id, productId: orderItems.productId })
      .from(orderItems)
      .innerJoin(orders, eq(orders.id, orderItems.orderId))
      .where(
        and(
          inArray(orders.status, [...paidStatuses]),
          gte(orders.createdAt, sql`now() - interval '10 days'`),
          sql`${orderItems.productId} <> ${before[0]?.productId}`,
        ),
      )
      .orderBy(desc(orders.createdAt))
      .limit(1);
    if (!line?.productId) throw new Error('the seed has recent paid orders');
    await db
      .update(orderItems)
      .set({ quantity: sql`${orderItems.quantity} + 10000` })
      .where(eq(orderItems.id, line.id));
    expect((await listed(61))[0]?.productId).toBe(before[0]?.productId);

    expect(await refreshBestSellers(db)).toBe(before.length);
    const after = await listed(62);
    const earlier = before.find((entry) => entry.productId === line.productId)?.score ?? 0;
    expect(after[0]).toEqual({ productId: line.productId, score: earlier + 10000 });
    expect(after).toHaveLength(before.length);
  });

  test('a start counts again only when the kept count is older than the schedule (5 minutes)', async () => {
    const now = new Date();
    await refreshBestSellers(db, now);
    // Counted just now: a start leaves it.
    expect(await refreshStaleBestSellers(db, new Date(now.getTime() + 4 * 60 * 1000))).toBeNull();
    // The transaction's own clock stamped the rows; six minutes on, they are stale.
    const [stamped] = await db.select({ countedAt: bestSellers.countedAt }).from(bestSellers).limit(1);
    if (!stamped) throw new Error('the seed has best sellers');
    const later = new Date(stamped.countedAt.getTime() + 6 * 60 * 1000);
    expect(await refreshStaleBestSellers(db, later)).toBeGreaterThan(0);
    // An empty list (no paid orders yet, or never counted) is counted.
    await db.delete(bestSellers);
    expect(await refreshStaleBestSellers(db, new Date())).toBeGreaterThan(0);
  });

  test('a product taken off the shop leaves the list at once, without waiting for the count', async () => {
    const [first] = await listed(63);
    if (!first) throw new Error('the seed has best sellers');
    await db.update(products).set({ status: 'inactive' }).where(eq(products.id, first.productId));
    const after = await listed(64);
    expect(after.map((entry) => entry.productId)).not.toContain(first.productId);
    await db.update(products).set({ status: 'active' }).where(eq(products.id, first.productId));
  });
});

describe('GET /api/marketing/flash-sales/:productId', () => {
  test('the running flash sale of the fountain', async () => {
    const { success, data } = (await get('/api/marketing/flash-sales/desktop-fountain')).json();
    expect(success).toBe(true);
    expect(data).toMatchObject({ isActive: true, originalPrice: 12998, salePrice: 7799 });
    expect(data.endTime).toBeGreaterThan(Date.now());
    expect(data.description.length).toBeGreaterThan(10);
  });

  test('a product without a flash sale answers data null; an unknown one 404', async () => {
    expect((await get('/api/marketing/flash-sales/moon-lamp')).json()).toEqual({ success: true, data: null });
    const missing = await get('/api/marketing/flash-sales/nope');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('Product not found');
  });

  test('an ended sale is no longer running', async () => {
    const { app: other, database: db } = await buildTestApp();
    await db.db
      .update(sales)
      .set({ endDate: new Date(Date.now() - 1000), startDate: new Date(Date.now() - 86_400_000) })
      .where(eq(sales.isFlashSale, true));
    expect(
      (await other.inject({ method: 'GET', url: '/api/marketing/flash-sales/desktop-fountain' })).json().data,
    ).toBeNull();
  });
});

test('sale prices by discount type', () => {
  expect(salePriceOf({ discountType: 'percentage', discountValue: 10 }, 4999)).toBe(4499);
  expect(salePriceOf({ discountType: 'percentage', discountValue: 150 }, 4999)).toBe(0);
  expect(salePriceOf({ discountType: 'fixed_amount', discountValue: 500 }, 4999)).toBe(4499);
  expect(salePriceOf({ discountType: 'fixed_amount', discountValue: 9000 }, 4999)).toBe(0);
  expect(salePriceOf({ discountType: 'fixed_price', discountValue: 2999 }, 4999)).toBe(2999);
  expect(salePriceOf({ discountType: 'fixed_price', discountValue: 9999 }, 4999)).toBe(4999);
});
