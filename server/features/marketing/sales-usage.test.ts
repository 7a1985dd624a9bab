import { eq, inArray } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { AdminSale } from '#common/contracts/admin/sales.ts';
import { localTestPayments } from '#server/adapters/payments/local-test-processor.tables.ts';
import { createLocalTestProcessor } from '#server/adapters/payments/local-test-processor.ts';
import { home, type Intent, simpleProduct } from '#server/features/checkout/checkout-test-helpers.ts';
import { orders } from '#server/features/orders/orders.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { sales } from './marketing.tables.ts';

/**
 * Sales made in the sales tab are real (issue 12): the checkout applies them, each paid order
 * counts a use once, under the limit, whatever runs at the same time, and keeps the sales that
 * priced it, which the tab reads back as the sale's orders and revenue.
 */
const { app, database } = await buildTestApp();
const { db } = database;
let counter = 0;
const shopper = () => testClient(app, { remoteAddress: `10.79.${Math.floor(++counter / 200)}.${counter % 200}` });
const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123', name: 'Ada Calm' };
const day = 24 * 60 * 60 * 1000;

async function owner() {
  const { browser } = await signedInAs(app, db, 'owner', {});
  return browser;
}

/** A sale made and switched on through the tab's API, as an admin does. */
async function runningSale(admin: ReturnType<typeof shopper>, form: Record<string, unknown>) {
  const created = await admin.post('/api/sales', {
    name: 'Race Day',
    type: 'global',
    discountType: 'percentage',
    discountValue: 10,
    startDate: new Date(Date.now() - day).toISOString(),
    endDate: new Date(Date.now() + day).toISOString(),
    active: true,
    ...form,
  });
  expect(created.statusCode).toBe(201);
  return created.json().sale as AdminSale;
}

/** A card authorised for the cart: the intent, then the test card's confirmation. */
async function authorised(items: unknown[], email: string, discountCodes: string[] = []) {
  const browser = shopper();
  const created = await browser.post('/api/create-or-update-payment-intent', {
    metaVersion: 2,
    items,
    email,
    shipping: home,
    discountCodes,
  });
  expect(created.statusCode).toBe(200);
  const intent = created.json() as Intent;
  const confirmed = await browser.post('/api/payments/test-card/confirm', { clientSecret: intent.clientSecret, card });
  expect(confirmed.statusCode).toBe(200);
  return { browser, intent };
}

describe('coupon usage', () => {
  test('a code limited to 5 uses under 50 paid checkouts at once: exactly 5 orders use it, the rest are not charged', async () => {
    const admin = await owner();
    const code = `RACE${Date.now().toString(36).toUpperCase()}`;
    const sale = await runningSale(admin, { couponCode: code, usageLimit: 5 });
    const product = await simpleProduct(db);
    const items = [{ id: product.id, quantity: 1 }];
    // Every card is authorised at the sale's price first (no use counted yet), then all complete at once.
    const ready = await Promise.all(
      Array.from({ length: 50 }, async (_, n) => {
        const { browser, intent } = await authorised(items, `race.${n}@example.com`, [code]);
        expect(intent.refusedCodes).toEqual([]);
        return { browser, intent };
      }),
    );
    const answers = await Promise.all(
      ready.map(({ browser, intent }) => browser.post('/api/checkout/complete', { paymentIntentId: intent.id })),
    );
    const codes = answers.map((answer) => answer.statusCode);
    expect(codes.filter((status) => status === 200)).toHaveLength(5);
    expect(codes.filter((status) => status === 409)).toHaveLength(45);
    expect(answers.find((answer) => answer.statusCode === 409)?.json()).toMatchObject({
      code: 'coupon_used_up',
      error: `Code "${code}" has just been used up. Nothing was charged.`,
    });
    const [after] = await db.select().from(sales).where(eq(sales.id, sale.id));
    expect(after?.usageCount).toBe(5);
    const ids = ready.map(({ intent }) => intent.id);
    const processed = await db.select().from(localTestPayments).where(inArray(localTestPayments.id, ids));
    expect(processed.filter((payment) => payment.status === 'succeeded')).toHaveLength(5);
    expect(processed.filter((payment) => payment.status === 'canceled')).toHaveLength(45);

    // The orders keep the sale; the tab shows them and their revenue.
    const references = answers.filter((a) => a.statusCode === 200).map((a) => a.json().reference as string);
    const made = await db.select().from(orders).where(inArray(orders.id, references));
    expect(made.map((order) => order.saleIds)).toEqual(Array(5).fill([sale.id]));
    expect(made.map((order) => order.discountCodes)).toEqual(Array(5).fill([code]));
    const listed = ((await admin.get('/api/sales?dateRange=24h')).json().sales as AdminSale[]).find(
      (row) => row.id === sale.id,
    );
    expect(listed).toMatchObject({
      usageCount: 5,
      orders: 5,
      revenue: made.reduce((sum, order) => sum + order.total, 0),
    });
  }, 120_000);

  test('a sale without a code prices in scope by itself once active, and its orders and uses are counted', async () => {
    const admin = await owner();
    const product = await simpleProduct(db);
    const sale = await runningSale(admin, {
      type: 'product',
      targetId: product.id,
      discountType: 'fixed_price',
      discountValue: 100,
      active: false,
    });
    const items = [{ id: product.id, quantity: 1 }];
    const priced = async () =>
      (
        await shopper().post('/api/create-or-update-payment-intent', {
          metaVersion: 2,
          items,
          email: 'auto@example.com',
          shipping: home,
        })
      ).json() as Intent;
    // Switched off: the regular price.
    expect((await priced()).lines[0]?.unitPrice).not.toBe(100);
    const activated = await app.inject({
      method: 'PATCH',
      url: `/api/sales/${sale.id}/activate`,
      headers: {
        cookie: `sw_session=${admin.cookie('sw_session')}; sw_csrf=${admin.cookie('sw_csrf')}`,
        'x-csrf-token': (await admin.get('/api/auth/csrf-token')).json().token,
      },
    });
    expect(activated.statusCode).toBe(200);
    // On at once (the running sales are read again after the write).
    expect((await priced()).lines[0]?.unitPrice).toBe(100);

    const { browser, intent } = await authorised(items, 'auto.buyer@example.com');
    const done = await browser.post('/api/checkout/complete', { paymentIntentId: intent.id });
    expect(done.statusCode).toBe(200);
    const [order] = await db.select().from(orders).where(eq(orders.id, done.json().reference));
    expect(order?.saleIds).toEqual([sale.id]);
    expect(order?.discountCodes).toEqual([]);
    const listed = ((await admin.get('/api/sales')).json().sales as AdminSale[]).find((row) => row.id === sale.id);
    expect(listed).toMatchObject({ usageCount: 1, orders: 1, revenue: order?.total });
  });

  test('an order whose capture fails is not paid: the uses it counted are given back', async () => {
    // The built-in processor, but every capture fails (the order is written, then undone).
    const { app: shop, database: own } = await buildTestApp({
      payments: (database) => ({
        ...createLocalTestProcessor({ db: database.db }),
        capture: async () => {
          throw new Error('the processor is down');
        },
      }),
    });
    const { browser: admin } = await signedInAs(shop, own.db, 'owner', {});
    const product = await simpleProduct(own.db);
    const code = `DOWN${Date.now().toString(36).toUpperCase()}`;
    const coupon = await admin.post('/api/sales', {
      name: 'Capture Day',
      type: 'global',
      discountType: 'percentage',
      discountValue: 10,
      couponCode: code,
      usageLimit: 1,
      startDate: new Date(Date.now() - day).toISOString(),
      endDate: new Date(Date.now() + day).toISOString(),
      active: true,
    });
    expect(coupon.statusCode).toBe(201);
    const buyer = testClient(shop, { remoteAddress: '10.79.250.9' });
    const created = (
      await buyer.post('/api/create-or-update-payment-intent', {
        metaVersion: 2,
        items: [{ id: product.id, quantity: 1 }],
        email: 'down@example.com',
        shipping: home,
        discountCodes: [code],
      })
    ).json() as Intent;
    await buyer.post('/api/payments/test-card/confirm', { clientSecret: created.clientSecret, card });
    const done = await buyer.post('/api/checkout/complete', { paymentIntentId: created.id });
    expect(done.statusCode).toBe(402);
    expect(done.json().code).toBe('capture_failed');
    const [sale] = await own.db.select().from(sales).where(eq(sales.couponCode, code));
    // The single use is free again for a paid order.
    expect(sale?.usageCount).toBe(0);
    const [order] = await own.db.select().from(orders).where(eq(orders.email, 'down@example.com'));
    expect(order).toMatchObject({ status: 'cancelled', saleIds: [sale?.id] });

    // An automatic sale that priced the cart but was used up before it was paid: the order does not
    // count it, so its failed capture gives nothing back (the limit of 1 stays used).
    const automatic = await admin.post('/api/sales', {
      name: 'Last One',
      type: 'product',
      targetId: product.id,
      discountType: 'percentage',
      discountValue: 20,
      usageLimit: 1,
      startDate: new Date(Date.now() - day).toISOString(),
      endDate: new Date(Date.now() + day).toISOString(),
      active: true,
    });
    expect(automatic.statusCode).toBe(201);
    const late = testClient(shop, { remoteAddress: '10.79.250.10' });
    const priced = (
      await late.post('/api/create-or-update-payment-intent', {
        metaVersion: 2,
        items: [{ id: product.id, quantity: 1 }],
        email: 'late@example.com',
        shipping: home,
      })
    ).json() as Intent;
    const automaticId = (automatic.json() as { sale: { id: string } }).sale.id;
    // Another order took the last use meanwhile.
    await own.db.update(sales).set({ usageCount: 1 }).where(eq(sales.id, automaticId));
    await late.post('/api/payments/test-card/confirm', { clientSecret: priced.clientSecret, card });
    const refused = await late.post('/api/checkout/complete', { paymentIntentId: priced.id });
    expect(refused.json().code).toBe('capture_failed');
    const [usedUp] = await own.db.select().from(sales).where(eq(sales.id, automaticId));
    expect(usedUp?.usageCount).toBe(1);
    const [lateOrder] = await own.db.select().from(orders).where(eq(orders.email, 'late@example.com'));
    expect(lateOrder).toMatchObject({ status: 'cancelled', saleIds: [automaticId] });
  });
});
