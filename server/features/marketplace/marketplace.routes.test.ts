import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { seedProducts } from '#seed/catalog.ts';
import { createDemoMarketplace, DEMO_IMAGE_PATH } from '#server/adapters/marketplace/demo-marketplace.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { storedEventsAbout } from '#server/features/events/stored-events.testing.ts';
import { isAdminApiUrl } from '#server/http/admin-access.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';

const { app, database, jobsDone } = await buildTestApp();
const { db } = database;
const fountain = seedProducts[0];
if (!fountain) throw new Error('the seed has no products');

describe('GET /api/aliexpress/refresh', () => {
  test("is public, answers 202 at once, refreshes the marketplace's cost and stock in the background, once an hour", async () => {
    const [product] = await db.select().from(products).where(eq(products.aliId, fountain.aliId));
    if (!product) throw new Error('no fountain');
    await db.update(products).set({ aliExpressPrice: 1 }).where(eq(products.id, product.id));

    const visitor = testClient(app, { remoteAddress: '10.92.0.1' });
    const response = await visitor.get('/api/aliexpress/refresh');
    expect(response.statusCode).toBe(202);
    expect(response.json()).toEqual({ started: true });
    expect(response.headers['cache-control']).toBe('no-store');

    await new Promise((resolve) => setImmediate(resolve));
    await jobsDone();
    const [after] = await db.select().from(products).where(eq(products.id, product.id));
    expect(after?.aliExpressPrice).toBe(Math.round(fountain.aliExpressPrice * 100));
    const [event] = await storedEventsAbout(db, product.id, 1);
    expect(event).toMatchObject({ type: 'product_updated', collection: 'products' });

    // Within the hour, from anyone: nothing more is started.
    const again = await testClient(app, { remoteAddress: '10.92.0.2' }).get('/api/aliexpress/refresh');
    expect(again.statusCode).toBe(202);
    expect(again.json()).toEqual({ started: false });
  });

  test('is counted by the general rate limit, not the admin one', () => {
    expect(isAdminApiUrl('/api/aliexpress/refresh')).toBe(false);
    expect(isAdminApiUrl('/api/aliexpress/refresh?now=1')).toBe(false);
    expect(isAdminApiUrl('/api/aliexpress/refresh/')).toBe(false);
    expect(isAdminApiUrl('/api/aliexpress/product-info/1')).toBe(true);
    expect(isAdminApiUrl('/api/aliexpress/refreshx')).toBe(true);
    expect(isAdminApiUrl('/api/admin/products')).toBe(true);
    expect(isAdminApiUrl('/api/products')).toBe(false);
  });
});

describe('the demo marketplace pictures', () => {
  test('are PNGs drawn by the shop, cached for good', async () => {
    const response = await app.inject({ method: 'GET', url: `${DEMO_IMAGE_PATH}/${fountain.aliId}/2.png` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/png');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({ format: 'png', width: 800, height: 800 });
    const variant = fountain.variants.find((v) => v.palette);
    const sku = await app.inject({
      method: 'GET',
      url: `${DEMO_IMAGE_PATH}/${fountain.aliId}/sku-${variant?.skuId}.png`,
    });
    expect(sku.statusCode).toBe(200);
  });

  test.each([
    [`${DEMO_IMAGE_PATH}/${fountain.aliId}/4.png`, 404],
    [`${DEMO_IMAGE_PATH}/123/1.png`, 404],
    [`${DEMO_IMAGE_PATH}/${fountain.aliId}/sku-1.png`, 404],
    [`${DEMO_IMAGE_PATH}/abc/1.png`, 400],
    [`${DEMO_IMAGE_PATH}/${fountain.aliId}/1.jpg`, 400],
    [`${DEMO_IMAGE_PATH}/${fountain.aliId}/..%2F..%2Fetc%2Fpasswd`, 400],
    [`${DEMO_IMAGE_PATH}/${fountain.aliId}/1%00.png`, 400],
  ])('%s answers %i', async (url, status) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(status);
    expect(response.json().error).toBeTypeOf('string');
  });

  test('are not served when the shop uses the real marketplace', async () => {
    const real = { ...createDemoMarketplace(), name: 'aliexpress' as const };
    const { app: realApp } = await buildTestApp({ marketplace: real });
    const response = await realApp.inject({ method: 'GET', url: `${DEMO_IMAGE_PATH}/${fountain.aliId}/1.png` });
    expect(response.statusCode).toBe(404);
  });
});
