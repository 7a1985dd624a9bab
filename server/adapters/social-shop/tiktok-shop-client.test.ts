import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createSandboxSocialShop, SANDBOX_BASE_PATH } from './sandbox.ts';
import { type ListingInput, type ShopAccess, type SocialShop, SocialShopError } from './social-shop.ts';
import {
  centsToDecimal,
  classifyFailure,
  createTikTokShopClient,
  decimalToCents,
  expiryToDate,
  toProductBody,
} from './tiktok-shop-client.ts';
import { createTikTokShopStandIn, SANDBOX_SELLER } from './tiktok-shop-stand-in.ts';

const appKey = '6kc76sandbox';
const appSecret = 'sandbox-secret-0123456789abcdef';
const serviceId = '7301234567890123456';
const redirectUrl = 'https://shop.example/api/tiktok-shop/callback';

let clock = Date.parse('2026-11-20T10:00:00Z');
const now = () => new Date(clock);
const advance = (seconds: number) => {
  clock += seconds * 1000;
};

const standIn = createTikTokShopStandIn({
  appKey,
  appSecret,
  serviceId,
  redirectUrl,
  now,
  accessTokenLifetimeSeconds: 3600,
  rejectListing: (body) =>
    body.title === 'Mystery Box' ? 'The listing violates the prohibited products policy' : null,
});
let server: { url: string; close(): Promise<void> };

const us = SANDBOX_SELLER.shops[0];
const gb = SANDBOX_SELLER.shops[1];
const png = {
  bytes: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
  fileName: 'candle.png',
  contentType: 'image/png',
};

function clientWith(overrides: Partial<Parameters<typeof createTikTokShopClient>[0]> = {}): SocialShop {
  return createTikTokShopClient({
    mode: 'sandbox',
    appKey,
    appSecret,
    serviceId,
    apiBase: `${server.url}/api`,
    authBase: `${server.url}/auth/api/v2`,
    authorizeBase: `${server.url}/open/authorize`,
    retry: { attempts: 3, baseDelayMs: 1 },
    now,
    ...overrides,
  });
}

async function failure(promise: Promise<unknown>): Promise<SocialShopError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SocialShopError);
  return error as SocialShopError;
}

/** The seller's side of the OAuth exchange: open the page, press a button, follow the form. */
async function pressButton(pageUrl: string, label: 'Authorize' | 'Cancel'): Promise<URL> {
  const html = await (await fetch(pageUrl)).text();
  const form = new RegExp(
    `<form method="get" action="([^"]+)">((?:(?!</form>)[\\s\\S])*?)<button type="submit">${label}</button>`,
  ).exec(html);
  expect(form).not.toBeNull();
  const target = new URL(form?.[1] ?? '', pageUrl);
  for (const [, name, value] of (form?.[2] ?? '').matchAll(/name="([^"]+)" value="([^"]*)"/g)) {
    target.searchParams.set(name ?? '', (value ?? '').replaceAll('&amp;', '&'));
  }
  const answer = await fetch(target, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

let client: SocialShop;
let access: ShopAccess;
let tokens: Awaited<ReturnType<SocialShop['exchangeCode']>>;

beforeAll(async () => {
  server = await standIn.listen();
  client = clientWith();
  const back = await pressButton(client.authorizeUrl('state-1'), 'Authorize');
  tokens = await client.exchangeCode(back.searchParams.get('code') ?? '');
  access = { accessToken: tokens.accessToken, shopCipher: us.cipher };
});

afterAll(async () => {
  await server.close();
});

describe('OAuth', () => {
  test('the authorise page is plain, accessible HTML naming the sandbox seller', async () => {
    const url = client.authorizeUrl('a b&c');
    expect(url).toBe(`${server.url}/open/authorize?service_id=${serviceId}&state=a+b%26c`);
    const response = await fetch(url);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toMatch(/<h1>[^<]+<\/h1>/);
    expect(html).toContain(SANDBOX_SELLER.name);
    expect(html).toContain('value="a b&amp;c"');
    expect(html).not.toMatch(/<script|<style|\sstyle=|\son[a-z]+=/i);
    const unknown = await fetch(`${server.url}/open/authorize?service_id=other&state=x`);
    expect(unknown.status).toBe(400);
  });

  test('Authorize sends the code and the state back; the code gives tokens once', async () => {
    const back = await pressButton(client.authorizeUrl('state-2'), 'Authorize');
    expect(`${back.origin}${back.pathname}`).toBe(redirectUrl);
    expect(back.searchParams.get('state')).toBe('state-2');
    const code = back.searchParams.get('code') ?? '';
    const granted = await client.exchangeCode(code);
    expect(granted.sellerName).toBe(SANDBOX_SELLER.name);
    expect(granted.region).toBe('US');
    expect(granted.accessTokenExpiresAt.getTime()).toBe(Math.floor(clock / 1000) * 1000 + 3600_000);
    expect(granted.refreshTokenExpiresAt.getTime()).toBeGreaterThan(granted.accessTokenExpiresAt.getTime());
    const replay = await failure(client.exchangeCode(code));
    expect(replay.kind).toBe('credentials');
    expect(replay.message).not.toContain(code);
    expect(replay.message).not.toContain(appSecret);
  });

  test('Cancel sends the state back without a code', async () => {
    const back = await pressButton(client.authorizeUrl('state-3'), 'Cancel');
    expect(back.searchParams.get('state')).toBe('state-3');
    expect(back.searchParams.has('code')).toBe(false);
  });

  test('the grant covers the seller’s two shops, with their ciphers', async () => {
    const shops = await client.authorisedShops(tokens.accessToken);
    expect(shops).toEqual(
      SANDBOX_SELLER.shops.map((s) => ({ id: s.id, name: s.name, region: s.region, cipher: s.cipher, code: s.code })),
    );
    const call = standIn.calls.findLast((c) => c.path === '/authorization/202309/shops');
    expect(call?.query.app_key).toBe(appKey);
    expect(call?.query.timestamp).toBe(String(Math.floor(clock / 1000)));
    expect(call?.query).not.toHaveProperty('sign');
    expect(JSON.stringify(standIn.calls)).not.toContain(tokens.accessToken);
  });

  test('a client with the wrong secret is refused as credentials', async () => {
    const wrong = clientWith({ appSecret: 'not-the-secret' });
    const error = await failure(wrong.authorisedShops(tokens.accessToken));
    expect(error.kind).toBe('credentials');
    expect(error.code).toBe(106001);
    expect(error.requestId).toMatch(/SBX/);
    expect(error.message).not.toContain(tokens.accessToken);
    expect(error.message).not.toContain('not-the-secret');
    expect((await failure(wrong.exchangeCode('anything'))).kind).toBe('credentials');
  });

  test('a token the stand-in did not issue is refused as credentials', async () => {
    const error = await failure(client.authorisedShops(`${tokens.accessToken.slice(0, -2)}xx`));
    expect(error.kind).toBe('credentials');
    expect(error.code).toBe(105001);
  });

  test('an expired access token is token_expired; the refreshed one works', async () => {
    const granted = await client.exchangeCode(
      (await pressButton(client.authorizeUrl('s'), 'Authorize')).searchParams.get('code') ?? '',
    );
    advance(3601);
    const expired = await failure(client.categories({ accessToken: granted.accessToken, shopCipher: us.cipher }));
    expect(expired.kind).toBe('token_expired');
    expect(expired.code).toBe(105002);
    const refreshed = await client.refreshTokens(granted.refreshToken);
    expect(refreshed.accessToken).not.toBe(granted.accessToken);
    expect(refreshed.refreshToken).not.toBe(granted.refreshToken);
    expect(refreshed.accessTokenExpiresAt.getTime()).toBe(clock - (clock % 1000) + 3600_000);
    const categories = await client.categories({ accessToken: refreshed.accessToken, shopCipher: us.cipher });
    expect(categories.length).toBeGreaterThan(5);
    expect((await failure(client.refreshTokens(refreshed.accessToken))).kind).toBe('credentials');
    tokens = refreshed;
    access = { accessToken: refreshed.accessToken, shopCipher: us.cipher };
  });
});

describe('errors and retries', () => {
  const attemptsAt = (suffix: string) => standIn.calls.filter((c) => c.path.endsWith(suffix)).length;

  test('429 and 5xx are retried until an answer comes', async () => {
    const before = attemptsAt('/warehouses');
    standIn.failNext('/warehouses', { status: 429, times: 1 });
    standIn.failNext('/warehouses', { status: 503, times: 1 });
    expect(await client.defaultWarehouseId(access)).toBe(us.warehouseId);
    expect(attemptsAt('/warehouses') - before).toBe(3);
  });

  test('the rate-limit code is retried even with HTTP 200', async () => {
    const before = attemptsAt('/warehouses');
    standIn.failNext('/warehouses', { code: 36009002, times: 2 });
    expect(await client.defaultWarehouseId(access)).toBe(us.warehouseId);
    expect(attemptsAt('/warehouses') - before).toBe(3);
  });

  test('after the attempts, the last failure is given: rate_limited or unavailable', async () => {
    standIn.failNext('/warehouses', { status: 429, times: 3 });
    expect((await failure(client.defaultWarehouseId(access))).kind).toBe('rate_limited');
    const before = attemptsAt('/warehouses');
    standIn.failNext('/warehouses', { status: 500, times: 3 });
    const error = await failure(client.defaultWarehouseId(access));
    expect(error.kind).toBe('unavailable');
    expect(error.code).toBe(36009003);
    expect(attemptsAt('/warehouses') - before).toBe(3);
  });

  test('a refusal is not retried, and envelope codes and statuses map to kinds', async () => {
    const before = attemptsAt('/warehouses');
    standIn.failNext('/warehouses', { status: 400, code: 12052700, times: 1 });
    expect((await failure(client.defaultWarehouseId(access))).kind).toBe('not_approved');
    standIn.failNext('/warehouses', { status: 403, code: 99999999, times: 1 });
    expect((await failure(client.defaultWarehouseId(access))).kind).toBe('not_approved');
    standIn.failNext('/warehouses', { status: 404, code: 99999999, times: 1 });
    expect((await failure(client.defaultWarehouseId(access))).kind).toBe('not_found');
    standIn.failNext('/warehouses', { status: 400, times: 1 });
    expect((await failure(client.defaultWarehouseId(access))).kind).toBe('rejected');
    expect(attemptsAt('/warehouses') - before).toBe(4);
  });

  test('the network failing is unavailable, after the attempts', async () => {
    let attempts = 0;
    const offline = clientWith({
      fetch: async () => {
        attempts += 1;
        throw new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } });
      },
    });
    const error = await failure(offline.authorisedShops(tokens.accessToken));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('ECONNREFUSED');
    expect(attempts).toBe(3);
  });

  test('an answer without an envelope is unavailable', async () => {
    const garbled = clientWith({ fetch: async () => new Response('<html>gateway</html>', { status: 200 }) });
    const error = await failure(garbled.authorisedShops(tokens.accessToken));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('without an envelope');
  });

  test('classifyFailure, for codes the stand-in does not send', () => {
    expect(classifyFailure(200, 36009004, 'Invalid credentials. Invalid `app_key` query parameter.')).toBe(
      'credentials',
    );
    expect(classifyFailure(400, 36009004, 'Unexpected identifier. The `shop_cipher` query parameter…')).toBe(
      'rejected',
    );
    expect(classifyFailure(200, 105005, '')).toBe('not_approved');
    expect(classifyFailure(502, null, '')).toBe('unavailable');
    expect(classifyFailure(401, null, '')).toBe('credentials');
    expect(classifyFailure(200, 12052024, 'Category is not final category')).toBe('rejected');
  });
});

describe('listings and stock', () => {
  const listing = (overrides: Partial<ListingInput> = {}): ListingInput => ({
    externalProductId: 'a1b2c3d4e5f60718',
    title: 'Lavender Soy Candle',
    descriptionHtml: '<p>Hand-poured soy wax with a cotton wick.</p>',
    categoryId: '600111',
    imageUris: [],
    skus: [{ sellerSku: 'SW-CANDLE-LAV', variantName: '', price: 1850, currency: 'USD', quantity: 12 }],
    warehouseId: us.warehouseId,
    ...overrides,
  });
  let imageUri = '';

  test('categories, the recommendation and the warehouse', async () => {
    const leaves = await client.categories(access);
    expect(leaves.every((c) => c.isLeaf)).toBe(true);
    expect(leaves.map((c) => c.name)).toEqual(expect.arrayContaining(['Scented Candles', 'Desk Organisers', 'Tea']));
    expect(leaves.map((c) => c.name)).not.toContain('Home Supplies');
    expect(await client.recommendCategory(access, { title: 'Walnut Desk Organiser', descriptionHtml: '' })).toEqual({
      id: '600311',
      name: 'Desk Organisers',
      isLeaf: true,
      parentId: '600301',
    });
    expect(await client.recommendCategory(access, { title: 'Gift card', descriptionHtml: '' })).toBeNull();
    expect(await client.defaultWarehouseId({ ...access, shopCipher: gb.cipher })).toBe(gb.warehouseId);
  });

  test('an image uploads as multipart, without a shop cipher, and gives a uri', async () => {
    imageUri = await client.uploadImage(access, png);
    expect(imageUri).toMatch(/^tos-/);
    const call = standIn.calls.findLast((c) => c.path === '/product/202309/images/upload');
    expect(call?.query).not.toHaveProperty('shop_cipher');
  });

  test('create, find by seller SKU, update and stock', async () => {
    const created = await client.createProduct(access, listing({ imageUris: [imageUri] }));
    expect(created.skus).toEqual([{ id: expect.any(String), sellerSku: 'SW-CANDLE-LAV' }]);
    const held = standIn.products().find((p) => p.id === created.productId);
    expect(held?.externalProductId).toBe('a1b2c3d4e5f60718');
    expect(held?.skus[0]).toMatchObject({ price: '18.50', currency: 'USD', quantity: 12, style: null });

    expect(await client.findProductBySellerSku(access, 'SW-CANDLE-LAV')).toEqual(created);
    expect(await client.findProductBySellerSku(access, 'SW-NOWHERE')).toBeNull();
    expect(await client.findProductBySellerSku({ ...access, shopCipher: gb.cipher }, 'SW-CANDLE-LAV')).toBeNull();

    const updated = await client.updateProduct(
      access,
      created.productId,
      listing({
        imageUris: [imageUri],
        skus: [
          { sellerSku: 'SW-CANDLE-LAV', variantName: 'Lavender', price: 1900, currency: 'USD', quantity: 10 },
          { sellerSku: 'SW-CANDLE-CED', variantName: 'Cedar', price: 2000, currency: 'USD', quantity: 4 },
        ],
      }),
    );
    expect(updated.productId).toBe(created.productId);
    expect(updated.skus[0]).toEqual(created.skus[0]);
    expect(updated.skus[1]?.sellerSku).toBe('SW-CANDLE-CED');
    const cedar = updated.skus[1]?.id ?? '';

    await client.updateInventory(access, created.productId, [{ channelSkuId: cedar, quantity: 0 }], us.warehouseId);
    const stocked = standIn.products().find((p) => p.id === created.productId);
    expect(stocked?.skus.map((s) => [s.sellerSku, s.style, s.quantity])).toEqual([
      ['SW-CANDLE-LAV', 'Lavender', 10],
      ['SW-CANDLE-CED', 'Cedar', 0],
    ]);
    const missing = await failure(
      client.updateInventory(access, '999', [{ channelSkuId: cedar, quantity: 1 }], us.warehouseId),
    );
    expect(missing.kind).toBe('not_found');
  });

  test('the channel’s refusals come back as rejected with its message', async () => {
    const duplicate = await failure(client.createProduct(access, listing({ imageUris: [imageUri] })));
    expect(duplicate.kind).toBe('rejected');
    expect(duplicate.message).toContain('SW-CANDLE-LAV is already used');

    const refused = await failure(
      client.createProduct(
        access,
        listing({
          title: 'Mystery Box',
          imageUris: [imageUri],
          skus: [{ sellerSku: 'SW-BOX', variantName: '', price: 999, currency: 'USD', quantity: 1 }],
        }),
      ),
    );
    expect(refused.kind).toBe('rejected');
    expect(refused.message).toContain('The listing violates the prohibited products policy');

    const other = { sellerSku: 'SW-OTHER', variantName: '', price: 999, currency: 'USD', quantity: 1 };
    const cases: [Partial<ListingInput>, string][] = [
      [{ categoryId: '600101' }, 'not final category'],
      [{ imageUris: ['tos-made-up'] }, 'main_images'],
      [{ imageUris: [imageUri], title: '' }, 'title'],
      [{ imageUris: [imageUri], title: 'x'.repeat(256) }, 'title'],
      [{ imageUris: [imageUri], skus: [{ ...other, price: 0 }] }, 'greater than 0'],
      [{ imageUris: [imageUri], skus: [{ ...other, currency: 'GBP' }] }, 'currency'],
      [
        {
          imageUris: [imageUri],
          skus: [
            { ...other, variantName: 'A' },
            { ...other, variantName: 'B' },
          ],
        },
        'twice',
      ],
    ];
    for (const [change, words] of cases) {
      const error = await failure(client.createProduct(access, listing({ skus: [other], ...change })));
      expect(error.kind, words).toBe('rejected');
      expect(error.message).toContain(words);
    }
  });

  test('the product body: decimal prices, one Style attribute for variants only', () => {
    const single = toProductBody(listing({ imageUris: ['u1'] }));
    expect(single.skus[0]).toEqual({
      seller_sku: 'SW-CANDLE-LAV',
      price: { amount: '18.50', currency: 'USD' },
      inventory: [{ warehouse_id: us.warehouseId, quantity: 12 }],
    });
    const variants = toProductBody(
      listing({
        skus: [
          { sellerSku: 'A', variantName: 'Small', price: 5, currency: 'USD', quantity: 1 },
          { sellerSku: 'B', variantName: 'Large', price: 100000, currency: 'USD', quantity: 1 },
        ],
      }),
    );
    expect(variants.skus.map((s) => [s.price.amount, s.sales_attributes])).toEqual([
      ['0.05', [{ name: 'Style', value_name: 'Small' }]],
      ['1000.00', [{ name: 'Style', value_name: 'Large' }]],
    ]);
  });
});

describe('orders and webhooks', () => {
  test('order search pages through the update-time range; details map cents and the address', async () => {
    const gbAccess = { ...access, shopCipher: gb.cipher };
    await client.createProduct(gbAccess, {
      externalProductId: 'b1',
      title: 'Cotton Throw Blanket',
      descriptionHtml: '<p>Soft.</p>',
      categoryId: '600212',
      imageUris: [await client.uploadImage(access, png)],
      skus: [
        { sellerSku: 'SW-THROW-OAT', variantName: 'Oat', price: 4500, currency: 'GBP', quantity: 100 },
        { sellerSku: 'SW-THROW-SAGE', variantName: 'Sage', price: 4750, currency: 'GBP', quantity: 100 },
      ],
      warehouseId: gb.warehouseId,
    });
    const from = now();
    advance(10);
    const first = standIn.placeOrder({
      shopId: gb.id,
      lines: [
        { sellerSku: 'SW-THROW-OAT', quantity: 2 },
        { sellerSku: 'SW-THROW-SAGE', quantity: 1 },
      ],
      buyer: { email: 'buyer@example.com' },
    });
    for (let i = 0; i < 54; i++) {
      advance(1);
      standIn.placeOrder({ shopId: gb.id, lines: [{ sellerSku: 'SW-THROW-OAT', quantity: 1 }] });
    }
    advance(1);
    const to = now();
    advance(5);
    standIn.placeOrder({ shopId: gb.id, lines: [{ sellerSku: 'SW-THROW-OAT', quantity: 1 }] });

    const page1 = await client.searchOrders(gbAccess, { updatedFrom: from, updatedTo: to });
    expect(page1.orders).toHaveLength(50);
    expect(page1.nextPageToken).not.toBeNull();
    const page2 = await client.searchOrders(gbAccess, { updatedFrom: from, updatedTo: to }, page1.nextPageToken);
    expect(page2.orders).toHaveLength(5);
    expect(page2.nextPageToken).toBeNull();
    expect(new Set([...page1.orders, ...page2.orders].map((o) => o.id)).size).toBe(55);
    expect((await client.searchOrders(access, { updatedFrom: from, updatedTo: to })).orders).toEqual([]);

    const [order] = await client.getOrders(gbAccess, [first.orderId]);
    expect(order).toMatchObject({
      id: first.orderId,
      status: 'AWAITING_SHIPMENT',
      buyerEmail: 'buyer@example.com',
      recipient: {
        name: 'Amelia Hart',
        street: '12 Riverside Walk',
        line2: '',
        city: 'Bath',
        state: 'England',
        zipCode: 'BA1 1SU',
        country: 'GB',
        phone: '(+44)7700 900123',
      },
      payment: { currency: 'GBP', subtotal: 13750, shipping: 395, tax: 0, total: 14145 },
    });
    expect(order?.createdAt.getTime()).toBe(from.getTime() + 10_000);
    expect(order?.lines.map((l) => [l.sellerSku, l.salePrice, l.quantity, l.productName])).toEqual([
      ['SW-THROW-OAT', 4500, 2, 'Cotton Throw Blanket'],
      ['SW-THROW-SAGE', 4750, 1, 'Cotton Throw Blanket'],
    ]);
    expect(await client.getOrders(gbAccess, [])).toEqual([]);
  });

  test('US orders carry sales tax and the US address levels', async () => {
    const [product] = standIn.products().filter((p) => p.shopId === us.id);
    const placed = standIn.placeOrder({
      shopId: us.id,
      lines: [{ sellerSku: product?.skus[0]?.sellerSku ?? '', quantity: 1 }],
    });
    const [order] = await client.getOrders(access, [placed.orderId]);
    expect(order?.recipient).toMatchObject({ city: 'Sausalito', state: 'California', line2: 'Apt 4B', country: 'US' });
    expect(order?.payment).toEqual({ currency: 'USD', subtotal: 1900, shipping: 395, tax: 157, total: 2452 });
  });

  test('the webhook verifies with the right signature only', () => {
    const placed = standIn.placeOrder({ shopId: gb.id, lines: [{ sellerSku: 'SW-THROW-SAGE', quantity: 1 }] });
    const event = client.verifyWebhook(placed.webhookBody, placed.webhookHeaders.authorization);
    expect(event).toEqual({
      type: 1,
      notificationId: expect.any(String),
      shopId: gb.id,
      timestamp: Math.floor(clock / 1000),
      data: {
        order_id: placed.orderId,
        order_status: 'AWAITING_SHIPMENT',
        is_on_hold_order: false,
        update_time: Math.floor(clock / 1000),
      },
    });
    const signature = placed.webhookHeaders.authorization;
    expect(
      client.verifyWebhook(placed.webhookBody, `${signature.slice(0, -1)}${signature.endsWith('a') ? 'b' : 'a'}`),
    ).toBeNull();
    expect(client.verifyWebhook(placed.webhookBody.replace(placed.orderId, '1'), signature)).toBeNull();
    expect(client.verifyWebhook(placed.webhookBody, undefined)).toBeNull();
    expect(clientWith({ appSecret: 'other' }).verifyWebhook(placed.webhookBody, signature)).toBeNull();
  });
});

describe('pure helpers', () => {
  test('money and expiry conversions', () => {
    expect(centsToDecimal(0)).toBe('0.00');
    expect(centsToDecimal(1205)).toBe('12.05');
    expect(() => centsToDecimal(1.5)).toThrow();
    expect(decimalToCents('12.05')).toBe(1205);
    expect(decimalToCents('12.5')).toBe(1250);
    expect(decimalToCents('3')).toBe(300);
    expect(decimalToCents('0.125')).toBe(13);
    expect(decimalToCents('-1')).toBeNull();
    expect(decimalToCents('')).toBeNull();
    const at = new Date('2026-01-01T00:00:00Z');
    expect(expiryToDate(1782408746, at).toISOString()).toBe('2026-06-25T17:32:26.000Z');
    expect(expiryToDate(3600, at).toISOString()).toBe('2026-01-01T01:00:00.000Z');
  });
});

describe('the demo sandbox', () => {
  test('runs the whole flow in-process, with the page under the app’s prefix', async () => {
    const { socialShop, standIn: sandbox } = createSandboxSocialShop({
      publicUrl: 'http://localhost:3000/',
      redirectUrl: 'http://localhost:3000/api/tiktok-shop/callback',
      secret: 'app-secret-for-tests',
    });
    expect(socialShop.mode).toBe('sandbox');
    const url = socialShop.authorizeUrl('st');
    expect(url.startsWith(`http://localhost:3000${SANDBOX_BASE_PATH}/open/authorize?service_id=`)).toBe(true);
    const pageAnswer = await sandbox.handle(new Request(url));
    expect(pageAnswer.status).toBe(200);
    const action = /action="([^"]+)"/.exec(await pageAnswer.text())?.[1] ?? '';
    const grant = new URL(action, url);
    grant.searchParams.set('service_id', new URL(url).searchParams.get('service_id') ?? '');
    grant.searchParams.set('state', 'st');
    expect(grant.pathname).toBe(`${SANDBOX_BASE_PATH}/open/authorize/grant`);
    const back = await sandbox.handle(new Request(grant));
    const location = new URL(back.headers.get('location') ?? '');
    expect(location.pathname).toBe('/api/tiktok-shop/callback');
    const granted = await socialShop.exchangeCode(location.searchParams.get('code') ?? '');
    const shops = await socialShop.authorisedShops(granted.accessToken);
    expect(shops.map((s) => s.name)).toEqual(['Stillwater Sandbox US', 'Stillwater Sandbox GB']);

    // Keys and tokens derive from the app's secret: a restarted demo accepts the tokens it issued.
    const restarted = createSandboxSocialShop({
      publicUrl: 'http://localhost:3000',
      redirectUrl: 'http://localhost:3000/api/tiktok-shop/callback',
      secret: 'app-secret-for-tests',
    });
    expect(await restarted.socialShop.authorisedShops(granted.accessToken)).toEqual(shops);
  });
});
