import { and, eq } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import type { ChannelOrder } from '#server/adapters/social-shop/social-shop.ts';
import { webhookSignature } from '#server/adapters/social-shop/tiktok-shop-signing.ts';
import { SANDBOX_SELLER } from '#server/adapters/social-shop/tiktok-shop-stand-in.ts';
import { products, skuVariants } from '#server/features/catalog/catalog.tables.ts';
import { createDomainEvents } from '#server/features/events/domain-events.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { createSecretBox } from '#server/features/settings/secret-box.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { standInOverHttp } from '#server/testing/social-shop-stand-in.ts';
import { buildTestApp, testSigningKey } from '#server/testing/test-app.ts';
import { createChannelOrders } from './channel-orders.ts';
import { createGrants } from './grants.ts';
import { sellerSkuOf } from './listing.ts';
import { SOCIAL_SHOP_WEBHOOK_PATH } from './social-shop.routes.ts';

const appKey = 'sbxordersappkey1';
const appSecret = 'orders-test-secret-0123456789abcdef';
const serviceId = '7300000000000000003';
const { standIn, client } = await standInOverHttp({ appKey, appSecret, serviceId });

const jobErrors: unknown[] = [];
const jobs = createJobs();
jobs.runInProcess((error) => jobErrors.push(error));
const { app, database } = await buildTestApp({ jobs, socialShop: { socialShop: client, standIn } });
const { db } = database;
const [usShop] = SANDBOX_SELLER.shops;

// The app's own channel orders, called directly, for orders the stand-in cannot place (unpaid, foreign lines).
const grants = createGrants({ db, socialShop: client, box: createSecretBox(testSigningKey) });
const events = createDomainEvents({ database, log: () => {} });
const fulfilled: string[] = [];
const channelOrders = createChannelOrders({
  db,
  socialShop: client,
  grants,
  events,
  fulfil: async (orderId) => {
    fulfilled.push(orderId);
  },
});
afterAll(() => events.settled());

// Connect and resolve the sandbox seller's shops, as the owner does in the tab.
{
  const { browser } = await signedInAs(app, db, 'owner');
  const { authUrl } = (await browser.get('/api/tiktok-shop/auth-url')).json() as { authUrl: string };
  const decision = new URL('authorize/grant', authUrl);
  decision.search = new URL(authUrl).search;
  const back = new URL((await fetch(decision, { redirect: 'manual' })).headers.get('location') ?? '');
  expect((await browser.get(`${back.pathname}${back.search}`)).headers.location).toContain('tiktok_success=1');
  expect((await browser.post('/api/tiktok-shop/resolve-shops', {})).statusCode).toBe(200);
}

let orderCounter = 0;
/** A channel order as the client maps it, paid, of the given lines (salePrice in cents per unit). */
function channelOrder(
  lines: { sellerSku: string; quantity: number; productName?: string; salePrice?: number }[],
  overrides: Partial<ChannelOrder> = {},
): ChannelOrder {
  orderCounter += 1;
  const subtotal = lines.reduce((sum, line) => sum + (line.salePrice ?? 1500) * line.quantity, 0);
  return {
    id: `5769${String(Date.now()).slice(-8)}${String(orderCounter).padStart(4, '0')}`,
    status: 'AWAITING_SHIPMENT',
    createdAt: new Date('2025-03-14T09:26:53Z'),
    updatedAt: new Date('2025-03-14T09:27:10Z'),
    buyerEmail: 'v7f3c2a9@scs.tiktokw.us',
    recipient: {
      name: 'Jordan Avery',
      street: '1450 Harbor View Drive',
      line2: 'Apt 4B',
      city: 'Sausalito',
      state: 'California',
      zipCode: '94965',
      country: 'US',
      phone: '(+1)415-555-0134',
    },
    lines: lines.map((line, i) => ({
      id: `577${orderCounter}${i}`,
      sellerSku: line.sellerSku,
      channelProductId: '1729300000000000001',
      channelSkuId: '1731000000000000001',
      productName: line.productName ?? 'Listed product',
      salePrice: line.salePrice ?? 1500,
      quantity: line.quantity,
    })),
    payment: { currency: 'USD', subtotal, shipping: 395, tax: 0, total: subtotal + 395 },
    ...overrides,
  };
}

/** Active products of the demo shop no other test used, made plain (one SKU, no variants) with this stock. */
async function plainProducts(count: number, stock: number) {
  const rows = await db
    .select({ id: products.id, title: products.title })
    .from(products)
    .where(eq(products.status, 'active'))
    .orderBy(products.id);
  const unused = rows.filter((row) => !usedProducts.has(row.id)).slice(0, count);
  if (unused.length < count) throw new Error('not enough active products');
  for (const row of unused) {
    usedProducts.add(row.id);
    await db.delete(skuVariants).where(eq(skuVariants.productId, row.id));
    await db.update(products).set({ stock }).where(eq(products.id, row.id));
  }
  return unused;
}
const usedProducts = new Set<string>();

async function stockOf(productId: string) {
  const [row] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, productId));
  return row?.stock;
}

async function ordersOf(externalId: string) {
  return db
    .select()
    .from(orders)
    .where(and(eq(orders.channel, 'tiktok-shop'), eq(orders.externalId, externalId)));
}

async function itemsOf(orderId: string) {
  return db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).orderBy(orderItems.productName);
}

describe('importing a channel order', () => {
  test('an unpaid order is not imported; the paid version of it later is', async () => {
    const [product] = await plainProducts(1, 10);
    if (!product) throw new Error('no product');
    const unpaid = channelOrder([{ sellerSku: sellerSkuOf(product.id, null), quantity: 2 }], { status: 'UNPAID' });
    for (const status of ['UNPAID', 'ON_HOLD', 'CANCELLED'] as const) {
      expect(await channelOrders.importOrder({ ...unpaid, status })).toBe('not_paid');
    }
    expect(await ordersOf(unpaid.id)).toEqual([]);
    expect(await stockOf(product.id)).toBe(10);

    expect(await channelOrders.importOrder({ ...unpaid, status: 'AWAITING_SHIPMENT' })).toBe('created');
    const [order] = await ordersOf(unpaid.id);
    expect(order?.status).toBe('processing');
    expect(await stockOf(product.id)).toBe(8);
    expect(fulfilled).toContain(order?.id);
    // A later status of the same order changes nothing more.
    expect(await channelOrders.importOrder({ ...unpaid, status: 'DELIVERED' })).toBe('exists');
    expect(await stockOf(product.id)).toBe(8);
  });

  test('a line of a seller SKU that is not ours is kept by its name, without stock', async () => {
    const [ours, untouched] = await plainProducts(2, 10);
    if (!ours || !untouched) throw new Error('no products');
    const order = channelOrder([
      { sellerSku: sellerSkuOf(ours.id, null), quantity: 1, salePrice: 2400 },
      { sellerSku: 'SUPPLIER-MUG-01', quantity: 3, productName: 'Enamel Camp Mug', salePrice: 900 },
      // Shaped like ours, but of no product of ours.
      { sellerSku: 'ffffffffffffff00', quantity: 1, productName: 'Gone Product', salePrice: 500 },
      { sellerSku: `${untouched.id}-99999999`, quantity: 1, productName: 'No such variant', salePrice: 500 },
    ]);
    expect(await channelOrders.importOrder(order)).toBe('created');
    const [row] = await ordersOf(order.id);
    const items = await itemsOf(row?.id ?? '');
    const lines = items.map((i) => ({ product: i.productId, name: i.productName, quantity: i.quantity }));
    expect(lines).toHaveLength(4);
    expect(lines).toEqual(
      expect.arrayContaining([
        { product: null, name: 'Enamel Camp Mug', quantity: 3 },
        { product: null, name: 'Gone Product', quantity: 1 },
        { product: null, name: 'No such variant', quantity: 1 },
        { product: ours.id, name: ours.title, quantity: 1 },
      ]),
    );
    expect(items.find((i) => i.productName === 'Enamel Camp Mug')).toMatchObject({ unitPrice: 900, unitCost: 0 });
    expect(await stockOf(ours.id)).toBe(9);
    expect(await stockOf(untouched.id)).toBe(10);
  });

  test('more units than in stock take the stock to 0, not below, and the order is still recorded', async () => {
    const [product] = await plainProducts(1, 2);
    if (!product) throw new Error('no product');
    const order = channelOrder([{ sellerSku: sellerSkuOf(product.id, null), quantity: 5 }]);
    expect(await channelOrders.importOrder(order)).toBe('created');
    expect(await stockOf(product.id)).toBe(0);
    const [row] = await ordersOf(order.id);
    expect(await itemsOf(row?.id ?? '')).toEqual([expect.objectContaining({ productId: product.id, quantity: 5 })]);

    // A variant: its own stock and its product's both stop at 0.
    const variants = await db
      .select({ id: skuVariants.id, productId: skuVariants.productId })
      .from(skuVariants)
      .innerJoin(products, eq(products.id, skuVariants.productId))
      .where(eq(products.status, 'active'))
      .orderBy(skuVariants.id);
    const variant = variants.find((v) => !usedProducts.has(v.productId));
    if (!variant) throw new Error('no product with variants');
    const { productId } = variant;
    usedProducts.add(productId);
    // A variant added by hand: its SKU id is its attribute string, here too long for a seller
    // SKU, which then carries its digest.
    const handAdded = '14:193#Sage Green;5:100014064#Extra Large;200007763#United Kingdom';
    expect(sellerSkuOf(productId, handAdded)).toContain('~');
    await db.update(skuVariants).set({ skuId: handAdded, stock: 1 }).where(eq(skuVariants.id, variant.id));
    await db.update(products).set({ stock: 3 }).where(eq(products.id, productId));
    const variantOrder = channelOrder([{ sellerSku: sellerSkuOf(productId, handAdded), quantity: 4 }]);
    expect(await channelOrders.importOrder(variantOrder)).toBe('created');
    const [variantAfter] = await db.select().from(skuVariants).where(eq(skuVariants.id, variant.id));
    expect(variantAfter?.stock).toBe(0);
    expect(await stockOf(productId)).toBe(0);
    const [variantRow] = await ordersOf(variantOrder.id);
    expect(await itemsOf(variantRow?.id ?? '')).toEqual([
      expect.objectContaining({ productId, skuId: handAdded, quantity: 4 }),
    ]);
  });

  test("the order's totals, currency, address, payment method, channel and id are the channel's", async () => {
    const [product] = await plainProducts(1, 10);
    if (!product) throw new Error('no product');
    const order = channelOrder([{ sellerSku: sellerSkuOf(product.id, null), quantity: 2, salePrice: 1250 }], {
      buyerEmail: 'a1b2c3d4@scs.tiktokw.eu',
      recipient: {
        name: 'Amelia Hart',
        street: '12 Riverside Walk',
        line2: '',
        city: 'Bath',
        state: 'Somerset',
        zipCode: 'BA1 1SU',
        country: 'GB',
        phone: '(+44)7700 900123',
      },
      // A seller discount of 2.95 and VAT included.
      payment: { currency: 'GBP', subtotal: 2500, shipping: 395, tax: 0, total: 2600 },
    });
    expect(await channelOrders.importOrder(order)).toBe('created');
    const [row] = await ordersOf(order.id);
    const address = {
      name: 'Amelia Hart',
      street: '12 Riverside Walk',
      city: 'Bath',
      state: 'Somerset',
      zipCode: 'BA1 1SU',
      country: 'GB',
    };
    expect(row).toMatchObject({
      channel: 'tiktok-shop',
      externalId: order.id,
      status: 'processing',
      paymentMethod: 'TikTok Shop',
      currency: 'GBP',
      subtotal: 2500,
      shipping: 395,
      tax: 0,
      discount: 295,
      total: 2600,
      email: 'a1b2c3d4@scs.tiktokw.eu',
      customerName: 'Amelia Hart',
      shippingAddress: address,
      billingAddress: address,
      createdAt: order.createdAt,
    });
    expect(row?.orderNumber).toMatch(/^SW-\d+$/);
    expect(await itemsOf(row?.id ?? '')).toEqual([expect.objectContaining({ unitPrice: 1250, quantity: 2 })]);
  });

  test('the same order imported twice at once is one order and one stock decrement', async () => {
    const [product] = await plainProducts(1, 10);
    if (!product) throw new Error('no product');
    const order = channelOrder([{ sellerSku: sellerSkuOf(product.id, null), quantity: 3 }]);
    const outcomes = await Promise.all([
      channelOrders.importOrder(order),
      channelOrders.importOrder(order),
      channelOrders.importOrder(order),
    ]);
    expect(outcomes.sort()).toEqual(['created', 'exists', 'exists']);
    const rows = await ordersOf(order.id);
    expect(rows).toHaveLength(1);
    expect(await itemsOf(rows[0]?.id ?? '')).toHaveLength(1);
    expect(await stockOf(product.id)).toBe(7);
  });

  test('an order the channel cancels before it ships is cancelled here, its stock given back, once', async () => {
    const [product] = await plainProducts(1, 10);
    if (!product) throw new Error('no product');
    const order = channelOrder([{ sellerSku: sellerSkuOf(product.id, null), quantity: 4 }]);
    expect(await channelOrders.importOrder(order)).toBe('created');
    expect(await stockOf(product.id)).toBe(6);
    const outcomes = await Promise.all([
      channelOrders.importOrder({ ...order, status: 'CANCELLED' }),
      channelOrders.importOrder({ ...order, status: 'CANCELLED' }),
    ]);
    expect(outcomes.sort()).toEqual(['cancelled', 'not_paid']);
    const [row] = await ordersOf(order.id);
    expect(row?.status).toBe('cancelled');
    expect(await stockOf(product.id)).toBe(10);
  });

  test('an order the channel cancels after it shipped stays as it is', async () => {
    const [product] = await plainProducts(1, 10);
    if (!product) throw new Error('no product');
    const order = channelOrder([{ sellerSku: sellerSkuOf(product.id, null), quantity: 1 }]);
    expect(await channelOrders.importOrder(order)).toBe('created');
    await db.update(orders).set({ status: 'shipped' }).where(eq(orders.externalId, order.id));
    expect(await channelOrders.importOrder({ ...order, status: 'CANCELLED' })).toBe('not_paid');
    const [row] = await ordersOf(order.id);
    expect(row?.status).toBe('shipped');
    expect(await stockOf(product.id)).toBe(9);
  });
});

describe('orders by webhook', () => {
  /** Lists one of our products on the US shop of the stand-in, so that a buyer can order it there. */
  async function listed(productId: string, title: string) {
    const shop = await grants.readyShop(usShop.id);
    await grants.withShop(shop, async (access) => {
      const uri = await client.uploadImage(access, {
        bytes: Buffer.from('89504e470d0a1a0a', 'hex'),
        fileName: 'product.png',
        contentType: 'image/png',
      });
      await client.createProduct(access, {
        externalProductId: productId,
        title,
        descriptionHtml: '<p>Listed for the test.</p>',
        categoryId: '600412',
        imageUris: [uri],
        skus: [{ sellerSku: sellerSkuOf(productId, null), variantName: '', price: 1800, currency: 'USD', quantity: 5 }],
        warehouseId: usShop.warehouseId,
      });
    });
  }

  function deliver(body: string, headers: Record<string, string>) {
    return app.inject({ method: 'POST', url: SOCIAL_SHOP_WEBHOOK_PATH, headers, payload: body });
  }

  test('a webhook naming a shop that is not connected is answered 200 and imports nothing', async () => {
    const body = JSON.stringify({
      type: 1,
      tts_notification_id: '7327000000000999001',
      shop_id: '7495000000000009999',
      timestamp: Math.floor(Date.now() / 1000),
      data: { order_id: '576800000000999001', order_status: 'AWAITING_SHIPMENT', update_time: 1741944413 },
    });
    const detailCalls = standIn.calls.filter((call) => call.path === '/order/202309/orders').length;
    const answer = await deliver(body, {
      'content-type': 'application/json',
      authorization: webhookSignature(appKey, appSecret, body),
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ received: true, duplicate: false });
    await jobs.idle();
    expect(jobErrors).toEqual([]);
    expect(await ordersOf('576800000000999001')).toEqual([]);
    expect(standIn.calls.filter((call) => call.path === '/order/202309/orders')).toHaveLength(detailCalls);
  });

  test('the import job, retried after the channel failed, brings the order in once', async () => {
    const [product] = await plainProducts(1, 10);
    if (!product) throw new Error('no product');
    await listed(product.id, product.title);
    const placed = standIn.placeOrder({
      shopId: usShop.id,
      lines: [{ sellerSku: sellerSkuOf(product.id, null), quantity: 2 }],
    });
    // The order details are not answered, through every retry of the client.
    standIn.failNext('/order/202309/orders', { status: 503, times: 2 });
    const answer = await deliver(placed.webhookBody, placed.webhookHeaders);
    expect(answer.statusCode).toBe(200);
    await jobs.idle();
    expect(jobErrors).toHaveLength(1);
    expect(jobErrors.pop()).toMatchObject({ kind: 'unavailable' });
    expect(await ordersOf(placed.orderId)).toEqual([]);
    expect(await stockOf(product.id)).toBe(10);

    // The queue runs the job again (it is retried), and once more by a duplicate delivery of the queue.
    const job = jobs.definitions.find((definition) => definition.name === 'social-shop.import-order');
    if (!job) throw new Error('no import job');
    expect(job.retry?.retryLimit).toBeGreaterThan(0);
    const data = JSON.parse(placed.webhookBody) as { shop_id: string; data: { order_id: string } };
    await job.run({ shopId: data.shop_id, orderId: data.data.order_id });
    await job.run({ shopId: data.shop_id, orderId: data.data.order_id });
    // The same notification again is a replay: nothing is queued.
    expect((await deliver(placed.webhookBody, placed.webhookHeaders)).json()).toEqual({
      received: true,
      duplicate: true,
    });
    await jobs.idle();
    expect(jobErrors).toEqual([]);

    const rows = await ordersOf(placed.orderId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ currency: 'USD', subtotal: 3600, shipping: 395, total: 3600 + 395 + 297 });
    expect(await itemsOf(rows[0]?.id ?? '')).toEqual([
      expect.objectContaining({ productId: product.id, quantity: 2, unitPrice: 1800 }),
    ]);
    expect(await stockOf(product.id)).toBe(8);
  });
});
