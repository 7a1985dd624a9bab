import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { localTestPayments } from '#server/adapters/payments/local-test-processor.tables.ts';
import { createLocalTestProcessor } from '#server/adapters/payments/local-test-processor.ts';
import type { ProviderPayment } from '#server/adapters/payments/payment-processor.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { sales } from '#server/features/marketing/marketing.tables.ts';
import { orders } from '#server/features/orders/orders.tables.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { RECOVER_AFTER_MS } from './checkout.service.ts';
import { payments } from './checkout.tables.ts';
import { home, type Intent, simpleProduct } from './checkout-test-helpers.ts';

/**
 * The payment recovery job (issue 16, crash safety): what a checkout that died half-way leaves
 * (an authorisation with no order; an order whose capture did not finish), finished by the job.
 * A crash is played by a capture that never returns: the request stays where the process would
 * have died, with everything before it committed. The job is run by hand, as pg-boss would.
 */

const jobs = createJobs();
const jobErrors: unknown[] = [];
jobs.runInProcess((error) => jobErrors.push(error));
/** The next capture call hangs for ever (before reaching the processor, or after it captured). */
let hangNextCapture: 'before' | 'after' | null = null;
const { app, database, mailbox } = await buildTestApp({
  jobs,
  payments: (db) => {
    const local = createLocalTestProcessor({ db: db.db });
    return {
      ...local,
      async capture(id, key) {
        const hang = hangNextCapture;
        hangNextCapture = null;
        if (hang === 'before') return new Promise<ProviderPayment>(() => {});
        const captured = await local.capture(id, key);
        if (hang === 'after') return new Promise<ProviderPayment>(() => {});
        return captured;
      },
    };
  },
});
const { db } = database;
const recovery = jobs.definitions.find((job) => job.name === 'checkout.recover-payments');
const recover = async () => {
  const outcomes = (await recovery?.run({})) as Record<string, number>;
  await jobs.idle();
  return outcomes;
};
let counter = 0;
const shopper = () => testClient(app, { remoteAddress: `10.71.0.${++counter}` });
const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123', name: 'Ada Calm' };

/** Intent and card, as the checkout modal does: the payment is authorised, the order not asked for yet. */
async function authorise(email: string, quantity: number, extra: Record<string, unknown> = {}) {
  const product = await simpleProduct(db);
  const browser = shopper();
  const created = await browser.post('/api/create-or-update-payment-intent', {
    metaVersion: 2,
    items: [{ id: product.slug, quantity }],
    email,
    shipping: home,
    ...extra,
  });
  expect(created.statusCode, created.body).toBe(200);
  const { id, clientSecret } = created.json() as Intent;
  const confirmed = await browser.post('/api/payments/test-card/confirm', { clientSecret, card });
  expect(confirmed.statusCode, confirmed.body).toBe(200);
  return { browser, id, product };
}

const stockOf = async (productId: string) =>
  (await db.select({ stock: products.stock }).from(products).where(eq(products.id, productId)))[0]?.stock;
const paymentOf = async (id: string) => (await db.select().from(payments).where(eq(payments.providerPaymentId, id)))[0];
const providerStatusOf = async (id: string) =>
  (await db.select().from(localTestPayments).where(eq(localTestPayments.id, id)))[0]?.status;
/** The recovery interval has passed since the payment was last touched. */
const ageBeyondInterval = (id: string) =>
  db
    .update(payments)
    .set({ updatedAt: sql`now() - ${`${RECOVER_AFTER_MS + 1000} milliseconds`}::interval` })
    .where(eq(payments.providerPaymentId, id));
const usesOf = async (saleId: string | undefined) =>
  (
    await db
      .select({ uses: sales.usageCount })
      .from(sales)
      .where(eq(sales.id, saleId ?? ''))
  )[0]?.uses;
const mailsTo = (email: string) =>
  mailbox.filter((mail) => mail.to === email && mail.template === 'order-confirmation');

async function waitFor(check: () => Promise<boolean>) {
  for (let tries = 0; tries < 200; tries++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('timed out');
}

describe('the payment recovery job', () => {
  test('is scheduled every minute and also runs as the queue starts', () => {
    expect(recovery).toMatchObject({ schedule: '* * * * *', alsoAtStart: true });
  });

  test('died after the authorisation: the job makes the order once and captures it', async () => {
    const email = 'after-authorise@example.com';
    const { id, product } = await authorise(email, 2);
    const stockBefore = await stockOf(product.id);
    expect((await paymentOf(id))?.status).toBe('authorized');

    // Within the interval the payment is left alone: its completion may still be under way.
    expect(await recover()).toEqual({});
    expect((await paymentOf(id))?.orderId).toBeNull();

    await ageBeyondInterval(id);
    expect(await recover()).toEqual({ order_created: 1 });
    const payment = await paymentOf(id);
    expect(payment).toMatchObject({ status: 'succeeded' });
    expect(payment?.orderId).toBeTruthy();
    expect(await providerStatusOf(id)).toBe('succeeded');
    expect(await stockOf(product.id)).toBe((stockBefore ?? 0) - 2);
    expect(mailsTo(email)).toHaveLength(1);

    // Done: the next run finds nothing, and the shopper's own (late) completion gets the same order.
    await ageBeyondInterval(id);
    expect(await recover()).toEqual({});
    const late = await shopper().post('/api/checkout/complete', { paymentIntentId: id });
    expect(late.statusCode).toBe(200);
    expect(late.json().reference).toBe(payment?.orderId);
    expect(await db.select().from(orders).where(eq(orders.email, email))).toHaveLength(1);
    expect(mailsTo(email)).toHaveLength(1);
    expect(jobErrors).toEqual([]);
  });

  test('died between the order and its capture: the job captures it and confirms the order', async () => {
    const email = 'before-capture@example.com';
    const { browser, id, product } = await authorise(email, 1);
    const stockBefore = await stockOf(product.id);
    hangNextCapture = 'before';
    void browser.post('/api/checkout/complete', { paymentIntentId: id });
    await waitFor(async () => (await paymentOf(id))?.status === 'capturing');
    expect(await providerStatusOf(id)).toBe('requires_capture');
    expect(mailsTo(email)).toHaveLength(0);

    await ageBeyondInterval(id);
    expect(await recover()).toEqual({ captured: 1 });
    expect(await paymentOf(id)).toMatchObject({ status: 'succeeded' });
    expect(await providerStatusOf(id)).toBe('succeeded');
    expect(await stockOf(product.id)).toBe((stockBefore ?? 0) - 1);
    expect(mailsTo(email)).toHaveLength(1);
    expect(await db.select().from(orders).where(eq(orders.email, email))).toHaveLength(1);
  });

  test('died right after the capture: the job confirms the order without capturing again', async () => {
    const email = 'after-capture@example.com';
    const { browser, id } = await authorise(email, 1);
    hangNextCapture = 'after';
    void browser.post('/api/checkout/complete', { paymentIntentId: id });
    await waitFor(async () => (await providerStatusOf(id)) === 'succeeded');
    expect((await paymentOf(id))?.status).toBe('capturing');

    await ageBeyondInterval(id);
    expect(await recover()).toEqual({ captured: 1 });
    expect(await paymentOf(id)).toMatchObject({ status: 'succeeded' });
    expect(mailsTo(email)).toHaveLength(1);
  });

  test('the authorisation ended before the capture: the order is undone, its stock and sale use given back', async () => {
    const email = 'voided@example.com';
    const code = `RECOVER${counter}`;
    const [sale] = await db
      .insert(sales)
      .values({
        name: 'Recovery test',
        type: 'global',
        discountType: 'percentage',
        discountValue: 10,
        couponCode: code,
        startDate: new Date(Date.now() - 60_000),
        endDate: new Date(Date.now() + 86_400_000),
      })
      .returning();
    const { browser, id, product } = await authorise(email, 1, { discountCodes: [code] });
    const stockBefore = await stockOf(product.id);
    hangNextCapture = 'before';
    void browser.post('/api/checkout/complete', { paymentIntentId: id });
    await waitFor(async () => (await paymentOf(id))?.status === 'capturing');
    expect(await usesOf(sale?.id)).toBe(1);
    expect(await stockOf(product.id)).toBe((stockBefore ?? 0) - 1);
    // The authorisation is voided at the provider meanwhile (or it expired).
    await db.update(localTestPayments).set({ status: 'canceled' }).where(eq(localTestPayments.id, id));

    await ageBeyondInterval(id);
    expect(await recover()).toEqual({ order_undone: 1 });
    expect(await paymentOf(id)).toMatchObject({ status: 'failed', failureCode: 'capture_failed' });
    const [order] = await db.select().from(orders).where(eq(orders.email, email));
    expect(order?.status).toBe('cancelled');
    expect(await stockOf(product.id)).toBe(stockBefore);
    expect(await usesOf(sale?.id)).toBe(0);
    expect(mailsTo(email)).toHaveLength(0);
  });

  test('an authorisation that is gone with no order is closed, nothing charged', async () => {
    const { id } = await authorise('gone@example.com', 1);
    await db.update(localTestPayments).set({ status: 'canceled' }).where(eq(localTestPayments.id, id));
    await ageBeyondInterval(id);
    expect(await recover()).toEqual({ authorisation_gone: 1 });
    expect(await paymentOf(id)).toMatchObject({ status: 'canceled', orderId: null });
  });

  test('two runs at once (two instances): each payment is taken by one of them', async () => {
    const ids = await Promise.all(
      Array.from({ length: 4 }, async (_, index) => (await authorise(`pair-${index}@example.com`, 1)).id),
    );
    for (const id of ids) await ageBeyondInterval(id);
    const [first, second] = await Promise.all([recover(), recover()]);
    expect((first?.order_created ?? 0) + (second?.order_created ?? 0)).toBe(4);
    for (let index = 0; index < 4; index++) {
      expect(
        await db
          .select()
          .from(orders)
          .where(eq(orders.email, `pair-${index}@example.com`)),
      ).toHaveLength(1);
      expect(mailsTo(`pair-${index}@example.com`)).toHaveLength(1);
    }
  });
});
