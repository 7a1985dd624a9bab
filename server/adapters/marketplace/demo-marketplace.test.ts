import sharp from 'sharp';
import { describe, expect, test } from 'vitest';
import { seedProducts } from '#seed/catalog.ts';
import { createDemoMarketplace, DEMO_IMAGE_PATH, demoImportableIds, demoListings } from './demo-marketplace.ts';
import { ImageDownloadError, MarketplaceError, type SupplierOrderRequest } from './marketplace.ts';

const address = {
  name: 'Ada Lovelace',
  street: '1 Quiet Lane',
  city: 'Portland',
  state: 'OR',
  zipCode: '97201',
  country: 'US',
};
const fountain = seedProducts[0];
if (!fountain) throw new Error('the seed has no products');

function order(orderId: string, extra: Partial<SupplierOrderRequest> = {}): SupplierOrderRequest {
  const variant = fountain?.variants[0];
  return {
    orderId,
    address,
    lines: [{ productId: fountain?.aliId ?? '', skuAttr: variant?.skuAttr ?? '', quantity: 2 }],
    ...extra,
  };
}

async function failure(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('the demo catalogue', () => {
  const marketplace = createDemoMarketplace();

  test("sells every seed product with the seed's SKUs, prices in cents, stock, and its cost", async () => {
    for (const seed of seedProducts) {
      const product = await marketplace.getProduct(seed.aliId);
      expect(product.productId).toBe(seed.aliId);
      expect(product.title).toBe(seed.title);
      expect(product.cost).toBe(Math.round(seed.aliExpressPrice * 100));
      expect(product.variantLabel).toBe(seed.variantLabel);
      expect(product.variants.map((v) => [v.skuId, v.skuAttr, v.name, v.label, v.price, v.stock])).toEqual(
        seed.variants.map((v) => [v.skuId, v.skuAttr, v.name, v.label, Math.round(v.price * 100), v.stock]),
      );
      expect(product.stock).toBe(seed.variants.reduce((sum, v) => sum + v.stock, 0));
      expect(product.imageUrls).toEqual([1, 2, 3].map((n) => `${DEMO_IMAGE_PATH}/${seed.aliId}/${n}.png`));
      expect(product.descriptionHtml.startsWith('<p>')).toBe(true);
      expect(product.isOnSale).toBe(true);
    }
  });

  test('also sells a few products the shop does not list: one with a single SKU, the others with several', async () => {
    expect(demoImportableIds.length).toBeGreaterThanOrEqual(3);
    const seedIds = new Set(seedProducts.map((p) => p.aliId));
    const counts: number[] = [];
    for (const id of demoImportableIds) {
      expect(seedIds.has(id)).toBe(false);
      const product = await marketplace.getProduct(id);
      counts.push(product.variants.length);
      for (const variant of product.variants) {
        expect(Number.isInteger(variant.price) && variant.price > 0).toBe(true);
        expect(variant.salePrice === null || variant.salePrice < variant.price).toBe(true);
      }
      expect(product.cost).toBeLessThan(Math.min(...product.variants.map((v) => v.salePrice ?? v.price)));
    }
    expect(counts.filter((n) => n === 1)).toHaveLength(1);
    expect(counts.filter((n) => n > 1).length).toBeGreaterThanOrEqual(2);
    // Every id and every skuAttr within a product is unique.
    expect(new Set(demoListings.map((l) => l.aliId)).size).toBe(demoListings.length);
    for (const listing of demoListings) {
      expect(new Set(listing.variants.map((v) => v.skuAttr)).size).toBe(listing.variants.length);
    }
  });

  test('an unknown id is not_found, a malformed one invalid_request', async () => {
    expect(await failure(marketplace.getProduct('123'))).toMatchObject({ code: 'not_found' });
    expect(await failure(marketplace.getProduct('12a'))).toMatchObject({ code: 'invalid_request' });
    expect(await failure(marketplace.getProduct('1\u00002'))).toBeInstanceOf(MarketplaceError);
  });

  test('draws its pictures locally, the same bytes each time, and refuses addresses that are not its own', async () => {
    const withShop = createDemoMarketplace({ shopOrigin: 'http://localhost:3000' });
    const product = await withShop.getProduct(fountain.aliId);
    const first = product.imageUrls[0] ?? '';
    const bytes = await withShop.downloadImage(first);
    expect((await sharp(bytes).metadata()).format).toBe('png');
    expect((await withShop.downloadImage(`http://localhost:3000${first}`)).equals(bytes)).toBe(true);
    const variantImage = product.variants.find((v) => v.image)?.image;
    expect(variantImage).toMatch(/\/sku-\d+\.png$/);
    expect((await sharp(await withShop.downloadImage(variantImage ?? '')).metadata()).width).toBe(800);

    const refusals: [string, string][] = [
      ['https://ae01.alicdn.com/kf/photo.jpg', 'host_not_allowed'],
      [`https://evil.example${first}`, 'host_not_allowed'],
      [`//evil.example${first}`, 'host_not_allowed'],
      [`${DEMO_IMAGE_PATH}/${fountain.aliId}/4.png`, 'upstream_status'],
      [`${DEMO_IMAGE_PATH}/999/1.png`, 'upstream_status'],
      [`${DEMO_IMAGE_PATH}/${fountain.aliId}/../../1.png`, 'upstream_status'],
      ['/etc/passwd', 'upstream_status'],
      ['http://[::1', 'invalid_url'],
    ];
    for (const [url, reason] of refusals) {
      const error = await failure(withShop.downloadImage(url));
      expect(error, url).toBeInstanceOf(ImageDownloadError);
      expect((error as ImageDownloadError).reason, url).toBe(reason);
    }
    expect(await withShop.picture(fountain.aliId, 'sku-1.png')).toBeNull();
  });
});

describe('the demo fulfilment', () => {
  const step = 60_000;
  let clock = Date.UTC(2026, 0, 1);
  const marketplace = createDemoMarketplace({ stepMs: step, now: () => clock });

  test('placing the same order twice answers the same supplier order', async () => {
    const first = await marketplace.placeOrder(order('a1b2c3d4e5f60718'));
    clock += 5000;
    const again = await marketplace.placeOrder(order('a1b2c3d4e5f60718'));
    expect(again).toEqual(first);
    expect(first.supplierOrderIds).toHaveLength(1);
    expect(first.supplierOrderIds[0]).toMatch(/^\d{19}$/);
    const other = await marketplace.placeOrder(order('ffffffffffffffff'));
    expect(other.supplierOrderIds).not.toEqual(first.supplierOrderIds);
  });

  test('with the attempt time, the same order is answered by another instance too (no state)', async () => {
    const placedAt = new Date(clock - 1000);
    const one = await marketplace.placeOrder(order('0123456789abcdef', { placedAt }));
    const elsewhere = createDemoMarketplace({ stepMs: step, now: () => clock + 999_999 });
    expect(await elsewhere.placeOrder(order('0123456789abcdef', { placedAt }))).toEqual(one);
  });

  test('moves from processing to shipped with a tracking number to delivered as the steps pass', async () => {
    const placed = clock;
    const [id = ''] = (await marketplace.placeOrder(order('1111222233334444', { placedAt: new Date(placed) })))
      .supplierOrderIds;
    clock = placed + step - 1;
    expect(await marketplace.getOrder(id)).toEqual({
      supplierOrderId: id,
      status: 'processing',
      supplierStatus: 'WAIT_SELLER_SEND_GOODS',
      trackingNumbers: [],
    });
    expect(await marketplace.getTracking(id)).toEqual([]);

    clock = placed + step;
    const shipped = await marketplace.getOrder(id);
    expect(shipped.status).toBe('shipped');
    expect(shipped.trackingNumbers).toEqual([
      { trackingNumber: expect.stringMatching(/^DEMO\d{12}$/), carrier: 'Cainiao Standard' },
    ]);
    const [parcel] = await marketplace.getTracking(id);
    expect(parcel?.trackingNumber).toBe(shipped.trackingNumbers[0]?.trackingNumber);
    expect(parcel?.events.map((e) => e.description)).toEqual(['Shipped: the parcel was handed to the carrier']);

    clock = placed + 2 * step;
    expect((await marketplace.getOrder(id)).status).toBe('delivered');
    const [delivered] = await marketplace.getTracking(id);
    // Newest first.
    expect(delivered?.events.map((e) => e.description)).toEqual([
      'Delivered',
      'In transit: arrived at the destination country',
      'Shipped: the parcel was handed to the carrier',
    ]);
    clock = placed + 100 * step;
    expect((await marketplace.getOrder(id)).status).toBe('delivered');
  });

  test('refuses unknown products and SKUs, bad requests, and orders it never placed', async () => {
    expect(
      await failure(marketplace.placeOrder(order('2222', { lines: [{ productId: '42', skuAttr: '', quantity: 1 }] }))),
    ).toMatchObject({ code: 'rejected' });
    expect(
      await failure(
        marketplace.placeOrder(order('2222', { lines: [{ productId: fountain.aliId, skuAttr: 'nope', quantity: 1 }] })),
      ),
    ).toMatchObject({ code: 'rejected' });
    const badQuantity = [{ productId: fountain.aliId, skuAttr: fountain.variants[0]?.skuAttr ?? '', quantity: 0 }];
    expect(await failure(marketplace.placeOrder(order('2222', { lines: badQuantity })))).toMatchObject({
      code: 'invalid_request',
    });
    expect(await failure(marketplace.placeOrder(order('', {})))).toMatchObject({ code: 'invalid_request' });
    expect(await failure(marketplace.placeOrder(order('a\u0000b')))).toMatchObject({ code: 'invalid_request' });
    expect(await failure(marketplace.placeOrder(order('2222', { lines: [] })))).toMatchObject({
      code: 'invalid_request',
    });
    expect(await failure(marketplace.getOrder('8187654321001'))).toMatchObject({ code: 'not_found' });
    expect(await failure(marketplace.getTracking('abc'))).toMatchObject({ code: 'not_found' });
  });
});
