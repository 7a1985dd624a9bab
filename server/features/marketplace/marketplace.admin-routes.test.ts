import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import type { MarketplaceProductInfo } from '#common/contracts/admin/marketplace.ts';
import { deniedMessages } from '#common/permissions.ts';
import { seedProducts } from '#seed/catalog.ts';
import { DEMO_IMAGE_PATH, demoImportableIds } from '#server/adapters/marketplace/demo-marketplace.ts';
import { type Marketplace, MarketplaceError } from '#server/adapters/marketplace/marketplace.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';

const { app, database } = await buildTestApp();
const { db } = database;

const fountain = seedProducts[0];
if (!fountain) throw new Error('the seed has no products');
const [singleSku = '', severalSkus = ''] = [
  demoImportableIds.find((id) => id.endsWith('962')),
  demoImportableIds.find((id) => id.endsWith('961')),
];

/** A signed-in owner from an address of their own (the admin limit counts per address). */
const owner = async () => (await signedInAs(app, db, 'owner')).browser;

describe('GET /api/aliexpress/product-info/:id', () => {
  test("answers the spec's product info: variants in dollars, the cost in cents, a plain-text description", async () => {
    const browser = await owner();
    const response = await browser.get(`/api/aliexpress/product-info/${fountain.aliId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const info = response.json() as MarketplaceProductInfo;
    expect(info).toMatchObject({
      productId: fountain.aliId,
      title: fountain.title,
      variantLabel: fountain.variantLabel,
      aliExpressPrice: Math.round(fountain.aliExpressPrice * 100),
      stock: fountain.variants.reduce((sum, v) => sum + v.stock, 0),
    });
    expect(info.imageUrls).toEqual([1, 2, 3].map((n) => `${DEMO_IMAGE_PATH}/${fountain.aliId}/${n}.png`));
    const [first] = fountain.variants;
    expect(info.variants[0]).toEqual({
      skuId: first?.skuId,
      skuAttr: first?.skuAttr,
      name: first?.name,
      label: first?.label,
      price: first?.price,
      salePrice: first?.salePrice ?? null,
      stock: first?.stock,
      image: expect.stringMatching(/\/sku-\d+\.png$/),
    });
    expect(info.description).toBe(fountain.description);
    expect(info.description).not.toContain('<');
  });

  test('a product the shop does not list yet, with its one SKU', async () => {
    const browser = await owner();
    const info = (await browser.get(`/api/aliexpress/product-info/${singleSku}`)).json() as MarketplaceProductInfo;
    expect(info.variants).toHaveLength(1);
    expect(info.variants[0]).toMatchObject({ skuAttr: '', name: 'Standard', image: null });
    expect(Number.isInteger(info.aliExpressPrice)).toBe(true);
  });

  test.each([
    ['abc', 400],
    ['12a4', 400],
    ['1%002', 400],
    ['%00', 400],
    ['-5', 400],
    ['1.5', 400],
    ['1'.repeat(21), 400],
    ['123456', 404],
  ])('the id %s answers %i with a readable error', async (id, status) => {
    const browser = await owner();
    const response = await browser.get(`/api/aliexpress/product-info/${id}`);
    expect(response.statusCode).toBe(status);
    expect(typeof response.json().error).toBe('string');
    if (status === 404) expect(response.json().error).toBe('The marketplace has no product 123456');
  });
});

describe('GET /api/aliexpress/product-skus/:id', () => {
  test('answers the variants alone', async () => {
    const browser = await owner();
    const response = await browser.get(`/api/aliexpress/product-skus/${severalSkus}`);
    expect(response.statusCode).toBe(200);
    const { variants } = response.json() as { variants: MarketplaceProductInfo['variants'] };
    expect(variants.length).toBeGreaterThan(1);
    expect(variants.every((v) => typeof v.price === 'number' && v.price > 0 && v.price < 1000)).toBe(true);
    expect(Object.keys(response.json())).toEqual(['variants']);
  });

  test('refuses a malformed id and names an unknown one', async () => {
    const browser = await owner();
    expect((await browser.get('/api/aliexpress/product-skus/x1')).statusCode).toBe(400);
    expect((await browser.get('/api/aliexpress/product-skus/99')).statusCode).toBe(404);
  });
});

describe('POST /api/admin/fetch-aliexpress-images', () => {
  test.each([
    fountain.aliId,
    `https://www.aliexpress.com/item/${fountain.aliId}.html?spm=a2g0o`,
    `https://m.aliexpress.us/product/${fountain.aliId}`,
    `https://example.com/p?productId=${fountain.aliId}`,
  ])('answers the product-info pictures for %s', async (aliExpressUrl) => {
    const browser = await owner();
    const response = await browser.post('/api/admin/fetch-aliexpress-images', { productId: '', aliExpressUrl });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      images: [1, 2, 3].map((n) => `${DEMO_IMAGE_PATH}/${fountain.aliId}/${n}.png`),
    });
  });

  test.each([
    [{}, 'aliExpressUrl'],
    [{ aliExpressUrl: '' }, 'aliExpressUrl'],
    [{ aliExpressUrl: 'https://www.aliexpress.com/store/123' }, 'aliExpressUrl'],
    [{ aliExpressUrl: 'a\u0000b' }, 'aliExpressUrl'],
    [{ aliExpressUrl: 42 }, 'aliExpressUrl'],
    [{ aliExpressUrl: fountain.aliId, productId: 'not-an-id' }, 'productId'],
    [{ aliExpressUrl: 'x'.repeat(2001) }, 'aliExpressUrl'],
  ])('refuses a bad body with a 400 naming the field (%#)', async (body, field) => {
    const browser = await owner();
    const response = await browser.post('/api/admin/fetch-aliexpress-images', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().field).toBe(field);
  });

  test('refuses a huge body before reading it, and a request without CSRF', async () => {
    const browser = await owner();
    const huge = await browser.post('/api/admin/fetch-aliexpress-images', { aliExpressUrl: 'x'.repeat(1_100_000) });
    expect(huge.statusCode).toBe(413);
    const noCsrf = await browser.post(
      '/api/admin/fetch-aliexpress-images',
      { aliExpressUrl: fountain.aliId },
      { csrf: false },
    );
    expect(noCsrf.statusCode).toBe(403);
  });
});

describe('POST /api/admin/upload-aliexpress-image', () => {
  test('stores a marketplace picture for a draft under drafts/{aliId}, as WebP, and audits it', async () => {
    const { browser, id: userId } = await signedInAs(app, db, 'owner');
    const imageUrl = `${DEMO_IMAGE_PATH}/${singleSku}/2.png`;
    const response = await browser.post('/api/admin/upload-aliexpress-image', {
      productId: '',
      aliId: singleSku,
      imageUrl,
      customName: 'Planter on the desk',
    });
    expect(response.statusCode).toBe(201);
    const body = response.json() as { url: string; width: number; height: number; name: string };
    expect(body.url).toMatch(new RegExp(`^/media/drafts/${singleSku}/image-1-\\d+-[0-9a-f]{12}\\.webp$`));
    expect(body).toMatchObject({ width: 800, height: 800, name: 'Planter on the desk' });
    const stored = await app.inject({ method: 'GET', url: body.url });
    expect(stored.statusCode).toBe(200);
    expect((await sharp(stored.rawPayload).metadata()).format).toBe('webp');
    const [audit] = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'product_image.imported'), eq(auditLog.actorUserId, userId)));
    expect(audit?.details).toMatchObject({ source: imageUrl, url: body.url, aliId: singleSku });
  });

  test("stores a saved product's picture under products/{productId}, at the position given", async () => {
    const browser = await owner();
    const [product] = await db.select({ id: products.id }).from(products).where(eq(products.aliId, fountain.aliId));
    const response = await browser.post('/api/admin/upload-aliexpress-image', {
      productId: product?.id,
      imageUrl: `${DEMO_IMAGE_PATH}/${fountain.aliId}/${1}.png`,
      position: 4,
    });
    expect(response.statusCode).toBe(201);
    expect(response.json().url).toMatch(
      new RegExp(`^/media/products/${product?.id}/image-4-\\d+-[0-9a-f]{12}\\.webp$`),
    );
    expect(response.json().name).toBe('1');
  });

  test.each([
    [{ imageUrl: 'https://ae01.alicdn.com/kf/photo.jpg' }, 400, 'host_not_allowed'],
    [{ imageUrl: `${DEMO_IMAGE_PATH}/${fountain.aliId}/9.png` }, 502, 'upstream_status'],
    [{ imageUrl: `https://evil.example${DEMO_IMAGE_PATH}/${fountain.aliId}/1.png` }, 400, 'host_not_allowed'],
    [{ productId: 'abcdef0123456789', imageUrl: `${DEMO_IMAGE_PATH}/${fountain.aliId}/1.png` }, 404, 'not_found'],
    [{}, 400, 'invalid_input'],
    [{ imageUrl: '' }, 400, 'invalid_input'],
    [{ imageUrl: 'a\u0000b' }, 400, 'invalid_input'],
    [{ imageUrl: `${DEMO_IMAGE_PATH}/1/1.png`, productId: '../../etc' }, 400, 'invalid_input'],
    [{ imageUrl: `${DEMO_IMAGE_PATH}/1/1.png`, aliId: '../x' }, 400, 'invalid_input'],
    [{ imageUrl: `${DEMO_IMAGE_PATH}/1/1.png`, position: 0 }, 400, 'invalid_input'],
    [{ imageUrl: `${DEMO_IMAGE_PATH}/1/1.png`, customName: 'x'.repeat(121) }, 400, 'invalid_input'],
  ])('refuses %o with %i %s', async (body, status, code) => {
    const browser = await owner();
    const response = await browser.post('/api/admin/upload-aliexpress-image', body);
    expect(response.statusCode).toBe(status);
    expect(response.json().code).toBe(code);
  });
});

describe('who may call the marketplace routes', () => {
  const calls: { method: 'GET' | 'POST'; url: string; body?: object }[] = [
    { method: 'GET', url: `/api/aliexpress/product-info/${fountain.aliId}` },
    { method: 'GET', url: `/api/aliexpress/product-skus/${fountain.aliId}` },
    { method: 'POST', url: '/api/admin/fetch-aliexpress-images', body: { aliExpressUrl: fountain.aliId } },
    {
      method: 'POST',
      url: '/api/admin/upload-aliexpress-image',
      body: { aliId: fountain.aliId, imageUrl: `${DEMO_IMAGE_PATH}/${fountain.aliId}/3.png` },
    },
  ];
  const send = (browser: ReturnType<typeof testClient>, call: (typeof calls)[number]) =>
    call.method === 'GET' ? browser.get(call.url) : browser.post(call.url, call.body);

  test.each(calls)(
    '$method $url: visitor 401, shopper 403, admin without uploadProducts 403, owner 2xx',
    async (call) => {
      expect((await send(testClient(app, { remoteAddress: '10.91.0.1' }), call)).statusCode).toBe(401);
      const shopper = (await signedInAs(app, db, 'user')).browser;
      expect((await send(shopper, call)).statusCode).toBe(403);
      const admin = (await signedInAs(app, db, 'admin', { downloadXlsx: true, manageUsers: true })).browser;
      const denied = await send(admin, call);
      expect(denied.statusCode).toBe(403);
      expect(denied.json().error).toBe("You don't have permission to manage products.");
      expect(deniedMessages.uploadProducts).toBe("You don't have permission to manage products.");
      const allowed = (await signedInAs(app, db, 'admin', { uploadProducts: true })).browser;
      expect([200, 201]).toContain((await send(allowed, call)).statusCode);
      expect([200, 201]).toContain((await send(await owner(), call)).statusCode);
    },
  );

  test('an unknown path under /api/aliexpress/ is the admin API’s: 401 for a visitor', async () => {
    const response = await testClient(app, { remoteAddress: '10.91.0.2' }).get('/api/aliexpress/nothing-here');
    expect(response.statusCode).toBe(401);
  });
});

const secret = 'SECRET-token-0123456789';
// One app whose marketplace fails as the test says.
let failure: Error = new Error('unset');
const fail = async () => {
  throw failure;
};
const failing: Marketplace = {
  name: 'aliexpress',
  getProduct: fail,
  placeOrder: fail,
  getOrder: fail,
  getTracking: fail,
  downloadImage: fail,
};
const { app: failingApp, database: failingDb } = await buildTestApp({ marketplace: failing });

describe('marketplace failures', () => {
  test.each([
    [new MarketplaceError('not_found', 'AliExpress has no product'), 404, 'not_found'],
    [new MarketplaceError('not_available', 'AliExpress 602'), 422, 'not_available'],
    [new MarketplaceError('rate_limited', 'slow down', { retryAfterMs: 2500 }), 429, 'rate_limited'],
    [new MarketplaceError('auth', `IncompleteSignature for session ${secret}`), 502, 'marketplace_auth'],
    [new MarketplaceError('outage', `isp.remote-service-error ${secret}`), 502, 'marketplace_unavailable'],
    [new MarketplaceError('bad_response', 'unreadable'), 502, 'marketplace_unavailable'],
    [new MarketplaceError('rejected', 'no'), 502, 'marketplace_rejected'],
    [new MarketplaceError('invalid_request', 'bad id'), 400, 'invalid_input'],
  ])('%s answers %i %s, never a 500, never a credential', async (error, status, code) => {
    failure = error;
    const { browser } = await signedInAs(failingApp, failingDb.db, 'owner');
    for (const url of ['/api/aliexpress/product-info/1005', '/api/aliexpress/product-skus/1005']) {
      const response = await browser.get(url);
      expect(response.statusCode).toBe(status);
      expect(response.json().code).toBe(code);
      expect(response.body).not.toContain(secret);
      if (status === 429) expect(response.headers['retry-after']).toBe('3');
    }
    const images = await browser.post('/api/admin/fetch-aliexpress-images', { aliExpressUrl: '1005' });
    expect(images.statusCode).toBe(status);
    expect(images.body).not.toContain(secret);
  });
});
