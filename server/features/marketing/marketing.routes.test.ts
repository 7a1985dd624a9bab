import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { buildTestApp } from '#server/testing/test-app.ts';
import { salePriceOf } from './marketing.service.ts';
import { sales } from './marketing.tables.ts';

const { app } = await buildTestApp();
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
