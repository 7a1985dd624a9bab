import { afterAll, describe, expect, test } from 'vitest';
import type { MarketplaceProductInfo } from '#common/contracts/admin/marketplace.ts';
import { createMarketplace } from '#server/adapters/adapters.ts';
import { type StandInProduct, startAliExpressStandIn } from '#server/adapters/marketplace/aliexpress-stand-in.ts';
import { loadConfig } from '#server/config.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';

/*
 * The wiring end to end: ALIEXPRESS_* in the environment → the AliExpress adapter → the product
 * modals' routes, against the local stand-in that checks every signature and the access token.
 */

const appKey = '500100';
const appSecret = 'stand-in-secret-0123456789abcdef';
const accessToken = 'env-token-0123456789';

const lamp: StandInProduct = {
  ae_item_base_info_dto: {
    product_id: '1005009000000001',
    subject: 'Rice Paper Table Lamp',
    product_status_type: 'onSelling',
    currency_code: 'USD',
    detail: '<div><p>Warm &amp; soft light.</p><script>steal()</script></div>',
  },
  ae_multimedia_info_dto: {
    image_urls: [
      'https://ae01.alicdn.com/kf/L1.jpg',
      'https://ae01.alicdn.com/kf/L1.jpg',
      'https://ae01.alicdn.com/kf/no_photo.png',
      'https://ae01.alicdn.com/kf/L2.jpg',
    ].join(';'),
  },
  ae_item_sku_info_dtos: [
    {
      sku_id: '12000049000000011',
      sku_attr: '14:193#White',
      sku_price: '24.50',
      offer_sale_price: '19.99',
      sku_available_stock: 40,
      currency_code: 'USD',
      ae_sku_property_dtos: [{ sku_property_name: 'Color', sku_property_value: 'white' }],
    },
    {
      sku_id: '12000049000000012',
      sku_attr: '14:29#Black',
      sku_price: '24.50',
      sku_available_stock: 3,
      currency_code: 'USD',
      ae_sku_property_dtos: [{ sku_property_name: 'Color', sku_property_value: 'black' }],
    },
  ],
};

const standIn = await startAliExpressStandIn({ appKey, appSecret, accessToken, products: [lamp] });
afterAll(() => standIn.close());
const env = {
  ALIEXPRESS_APP_KEY: appKey,
  ALIEXPRESS_APP_SECRET: appSecret,
  ALIEXPRESS_ACCESS_TOKEN: accessToken,
  ALIEXPRESS_API_BASE_URL: standIn.apiBase,
};

describe('the marketplace routes over AliExpress', () => {
  test('product info comes from the configured AliExpress account, in the spec’s shape', async () => {
    const { app, database } = await buildTestApp({ env });
    const { browser } = await signedInAs(app, database.db, 'owner');
    const response = await browser.get('/api/aliexpress/product-info/1005009000000001');
    expect(response.statusCode).toBe(200);
    const info = response.json() as MarketplaceProductInfo;
    expect(info).toMatchObject({
      productId: '1005009000000001',
      title: 'Rice Paper Table Lamp',
      imageUrls: ['https://ae01.alicdn.com/kf/L1.jpg', 'https://ae01.alicdn.com/kf/L2.jpg'],
      variantLabel: 'Color',
      description: 'Warm & soft light.',
      aliExpressPrice: 1999,
      stock: 43,
    });
    expect(info.variants.map((v) => [v.name, v.price, v.salePrice, v.stock])).toEqual([
      ['white', 24.5, 19.99, 40],
      ['black', 24.5, null, 3],
    ]);
    expect((await browser.get('/api/aliexpress/product-info/1005009999999999')).statusCode).toBe(404);
    // The demo marketplace's pictures are not served with the real marketplace.
    expect((await app.inject({ method: 'GET', url: '/api/demo-marketplace/images/1/1.png' })).statusCode).toBe(404);
  });

  test('a marketplace API key saved in the settings is used before ALIEXPRESS_ACCESS_TOKEN', async () => {
    const config = loadConfig({ NODE_ENV: 'test', ...env, ALIEXPRESS_ACCESS_TOKEN: 'stale-token-0123' });
    let saved: string | null = null;
    const marketplace = createMarketplace(config, () => saved);
    expect(marketplace.name).toBe('aliexpress');
    await expect(marketplace.getProduct('1005009000000001')).rejects.toMatchObject({ code: 'auth' });
    saved = accessToken;
    expect((await marketplace.getProduct('1005009000000001')).title).toBe('Rice Paper Table Lamp');
    expect(createMarketplace(loadConfig({ NODE_ENV: 'test' })).name).toBe('demo');
  });

  test('refused credentials answer a 502 that names no credential', async () => {
    const { app, database } = await buildTestApp({ env: { ...env, ALIEXPRESS_ACCESS_TOKEN: 'stale-token-0123' } });
    const { browser } = await signedInAs(app, database.db, 'owner');
    const response = await browser.get('/api/aliexpress/product-skus/1005009000000001');
    expect(response.statusCode).toBe(502);
    expect(response.json().code).toBe('marketplace_auth');
    for (const secret of ['stale-token-0123', appSecret, accessToken]) expect(response.body).not.toContain(secret);
  });
});
