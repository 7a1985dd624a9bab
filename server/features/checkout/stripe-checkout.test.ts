import { count, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { salesTax } from '#common/tax.ts';
import { createStripeProcessor } from '#server/adapters/payments/stripe-processor.ts';
import {
  type StandInEvent,
  signedWebhook,
  signWebhookPayload,
  startStripeStandIn,
} from '#server/adapters/payments/stripe-stand-in.ts';
import { products, skuVariants } from '#server/features/catalog/catalog.tables.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { paymentEvents, payments } from './checkout.tables.ts';
import { home, type Intent, simpleProduct, variantProduct } from './checkout-test-helpers.ts';

/**
 * The checkout with the Stripe adapter, against the local stand-in of Stripe's API: the browser's
 * calls through app.inject, Stripe's webhooks over real HTTP to the listening app, signed as
 * Stripe signs them (or not, for the deliveries that must be refused).
 */
const SECRET_KEY = 'sk_test_checkout_standin_R7u2Kd';
const WEBHOOK_SECRET = 'whsec_checkout_standin_Vn41xQ';

const standIn = await startStripeStandIn({ secretKey: SECRET_KEY });
afterAll(() => standIn.close());
const { app, database, mailbox, jobsDone } = await buildTestApp({
  payments: () =>
    createStripeProcessor({
      secretKey: SECRET_KEY,
      publishableKey: 'pk_test_checkout_standin',
      webhookSecret: WEBHOOK_SECRET,
      apiBase: standIn.apiBase,
    }),
});
const { db } = database;
const webhookUrl = `${await app.listen({ port: 0, host: '127.0.0.1' })}/api/webhooks/stripe`;

let counter = 0;
const address = () => `10.71.${Math.floor(++counter / 200)}.${counter % 200}`;
const shopper = () => testClient(app, { remoteAddress: address() });
/** An email of its own for each checkout: the order limit counts orders per email. */
const newEmail = (name: string) => `${name}.${Date.now().toString(36)}${++counter}@example.com`;
const nowSeconds = () => Math.floor(Date.now() / 1000);

const VISA = '4242 4242 4242 4242';

function intent(browser: ReturnType<typeof shopper>, body: Record<string, unknown>) {
  return browser.post('/api/create-or-update-payment-intent', { metaVersion: 2, ...body });
}

/** A payment intent made by the checkout for one line, with the shipping address. */
async function paymentFor(item: Record<string, unknown>, email: string) {
  const browser = shopper();
  const created = await intent(browser, { items: [item], email, shipping: home });
  expect(created.statusCode).toBe(200);
  return { browser, created: created.json() as Intent };
}

/** Stripe's delivery of an event to the shop's endpoint, signed with the endpoint's secret. */
function deliver(event: StandInEvent, options: { timestamp?: number } = {}) {
  return standIn.deliverWebhook(webhookUrl, event, { secret: WEBHOOK_SECRET, ...options });
}

/** The event Stripe sends when a manual-capture payment is authorised (the card confirmed). */
const authorisedEvent = (id: string) => standIn.event('payment_intent.amount_capturable_updated', standIn.intent(id));

const apiCalls = (method: string, path: string) =>
  standIn.requests.filter((request) => request.method === method && request.path === path);
const captures = (id: string) => apiCalls('POST', `/v1/payment_intents/${id}/capture`);

async function paymentRow(providerPaymentId: string) {
  const [row] = await db.select().from(payments).where(eq(payments.providerPaymentId, providerPaymentId));
  if (!row) throw new Error(`no payments row for ${providerPaymentId}`);
  return row;
}

async function ordersOf(email: string) {
  return db.select().from(orders).where(eq(orders.email, email));
}

async function eventRows(eventId: string) {
  return db.select().from(paymentEvents).where(eq(paymentEvents.eventId, eventId));
}

async function countRows(table: typeof orders | typeof paymentEvents) {
  const [row] = await db.select({ n: count() }).from(table);
  return row?.n ?? 0;
}

function shuffled<T>(items: T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

describe('Stripe checkout', () => {
  test('intent created and updated on Stripe, card confirmed, the webhook makes the order and captures', async () => {
    const product = await simpleProduct(db);
    const unit = product.salePrice ?? product.price;
    const email = newEmail('stripe.flow');
    const browser = shopper();

    const before = standIn.requests.length;
    const created = await intent(browser, { items: [{ id: product.slug, quantity: 2 }], email });
    expect(created.statusCode).toBe(200);
    const first = created.json() as Intent;
    expect(first.id).toMatch(/^pi_[0-9a-f]{24}$/);
    expect(first.clientSecret.startsWith(`${first.id}_secret_`)).toBe(true);
    expect(first.breakdown).toMatchObject({ subtotal: 2 * unit, shipping: null, total: 2 * unit });
    // Created on Stripe for the server's total, in cents, authorised only (manual capture).
    const createCall = standIn.requests
      .slice(before)
      .find((r) => r.method === 'POST' && r.path === '/v1/payment_intents');
    expect(createCall?.params).toMatchObject({ amount: String(2 * unit), currency: 'usd', capture_method: 'manual' });
    expect(createCall?.headers['idempotency-key']).toMatch(/^pi-create:/);
    expect(standIn.intent(first.id)).toMatchObject({
      amount: 2 * unit,
      currency: 'usd',
      capture_method: 'manual',
      status: 'requires_payment_method',
      receipt_email: email,
      metadata: { metaVersion: '2', shop: 'stillwater' },
    });

    // The address is entered: the same payment intent, for the new total.
    const updated = await intent(browser, {
      items: [{ id: product.slug, quantity: 2 }],
      email,
      shipping: home,
      reason: 'shipping_update',
      paymentIntentId: first.id,
    });
    expect(updated.statusCode).toBe(200);
    const second = updated.json() as Intent;
    expect(second.id).toBe(first.id);
    expect(second.clientSecret).toBe(first.clientSecret);
    const shipping = 2 * unit >= 5000 ? 0 : 499;
    const total = 2 * unit + shipping + salesTax(2 * unit, 'US', 'CA');
    expect(second.breakdown).toMatchObject({ subtotal: 2 * unit, shipping, total });
    expect(total).not.toBe(2 * unit);
    expect(standIn.intent(first.id).amount).toBe(total);
    expect(apiCalls('POST', `/v1/payment_intents/${first.id}`).at(-1)?.headers['idempotency-key']).toMatch(/^pi-sync:/);
    expect(await paymentRow(first.id)).toMatchObject({
      provider: 'stripe',
      amount: total,
      status: 'requires_payment_method',
      orderId: null,
    });
    const retrieved = await browser.get(
      `/api/retrieve-payment-intent?clientSecret=${encodeURIComponent(second.clientSecret)}`,
    );
    expect(retrieved.json().breakdown).toEqual(second.breakdown);

    // Stripe.js confirms with the card, then Stripe tells the shop.
    expect(standIn.confirmWithCard(first.id, VISA).status).toBe('requires_capture');
    const delivered = await deliver(authorisedEvent(first.id));
    expect(delivered.status).toBe(200);
    expect(JSON.parse(delivered.body)).toEqual({ received: true, duplicate: false });

    const made = await ordersOf(email);
    expect(made).toHaveLength(1);
    const order = made[0];
    expect(order).toMatchObject({ status: 'processing', total, shipping, subtotal: 2 * unit });
    expect(order?.shippingAddress).toMatchObject({ name: home.name, city: home.city, state: 'CA', country: 'US' });
    const lines = await db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, order?.id ?? ''));
    expect(lines).toMatchObject([{ productId: product.id, quantity: 2, unitPrice: unit }]);
    const [after] = await db.select().from(products).where(eq(products.id, product.id));
    expect(after?.stock).toBe(product.stock - 2);
    expect(await paymentRow(first.id)).toMatchObject({
      orderId: order?.id,
      status: 'succeeded',
      cardBrand: 'visa',
      cardLast4: '4242',
    });
    expect(standIn.intent(first.id)).toMatchObject({ status: 'succeeded', amount_received: total });
    expect(captures(first.id)).toHaveLength(1);
    expect(captures(first.id)[0]?.headers['idempotency-key']).toBe(`capture:${first.id}`);
    await jobsDone();
    const mails = mailbox.filter((mail) => mail.to === email);
    expect(mails).toHaveLength(1);
    expect(mails[0]?.subject).toContain(order?.orderNumber);

    // The browser comes back from Stripe.js and completes: the same order. Stripe's later
    // payment_intent.succeeded (after our capture) changes nothing.
    const completed = await browser.post('/api/checkout/complete', { paymentIntentId: first.id });
    expect(completed.statusCode).toBe(200);
    expect(completed.json()).toEqual({ reference: order?.id, orderNumber: order?.orderNumber, total });
    const succeeded = await deliver(standIn.event('payment_intent.succeeded', standIn.intent(first.id)));
    expect(succeeded.status).toBe(200);
    await jobsDone();
    expect(await ordersOf(email)).toHaveLength(1);
    expect(captures(first.id)).toHaveLength(1);
    expect(mailbox.filter((mail) => mail.to === email)).toHaveLength(1);
  });

  // A few rounds, each in a new random order: the overlaps that matter (the webhook's and the
  // browser's completion inside the same moment) do not happen on every run.
  test.each([1, 2, 3, 4, 5])(
    'the same webhook 5 times, shuffled with another payment’s failure and the browser’s completion: one order, one capture, one mail (round %i)',
    async () => {
      const product = await simpleProduct(db);
      const email = newEmail('stripe.race');
      const { browser, created } = await paymentFor({ id: product.id, quantity: 1 }, email);
      standIn.confirmWithCard(created.id, VISA);
      const authorised = authorisedEvent(created.id);

      const other = await paymentFor({ id: product.id, quantity: 1 }, newEmail('stripe.other'));
      const failed = standIn.event(
        'payment_intent.payment_failed',
        standIn.confirmWithCard(other.created.id, '4000 0000 0000 1026'),
      );

      type Outcome = { kind: 'authorised' | 'failed' | 'browser'; status: number; body: unknown };
      const runs: (() => Promise<Outcome>)[] = [
        ...Array.from({ length: 5 }, () => async (): Promise<Outcome> => {
          const { status, body } = await deliver(authorised);
          return { kind: 'authorised', status, body: JSON.parse(body) };
        }),
        async () => {
          const { status, body } = await deliver(failed);
          return { kind: 'failed', status, body: JSON.parse(body) };
        },
        async () => {
          const response = await browser.post('/api/checkout/complete', { paymentIntentId: created.id });
          return { kind: 'browser', status: response.statusCode, body: response.json() };
        },
      ];
      const outcomes = await Promise.all(shuffled(runs).map((run) => run()));

      expect(outcomes.map((o) => o.status)).toEqual(Array(7).fill(200));
      const deliveries = outcomes.filter((o) => o.kind === 'authorised').map((o) => o.body);
      expect(deliveries.filter((body) => (body as { duplicate: boolean }).duplicate === false)).toHaveLength(1);
      expect(deliveries.filter((body) => (body as { duplicate: boolean }).duplicate === true)).toHaveLength(4);

      const made = await ordersOf(email);
      expect(made).toHaveLength(1);
      expect(outcomes.find((o) => o.kind === 'browser')?.body).toMatchObject({ reference: made[0]?.id });
      expect(await paymentRow(created.id)).toMatchObject({ orderId: made[0]?.id, status: 'succeeded' });
      expect(captures(created.id)).toHaveLength(1);
      expect(standIn.intent(created.id).status).toBe('succeeded');
      expect(await eventRows(authorised.id)).toHaveLength(1);
      await jobsDone();
      expect(mailbox.filter((mail) => mail.to === email)).toHaveLength(1);

      // The other payment's failure was recorded, and made nothing.
      expect(await eventRows(failed.id)).toHaveLength(1);
      expect(await paymentRow(other.created.id)).toMatchObject({
        failureCode: 'do_not_honor',
        orderId: null,
        status: 'requires_payment_method',
      });
      expect(captures(other.created.id)).toHaveLength(0);
    },
  );

  test('a full refund cancels the order; a partial one changes no status', async () => {
    const product = await simpleProduct(db);
    const email = newEmail('stripe.refund');
    const { created } = await paymentFor({ id: product.id, quantity: 1 }, email);
    standIn.confirmWithCard(created.id, VISA);
    expect((await deliver(authorisedEvent(created.id))).status).toBe(200);
    const [order] = await ordersOf(email);
    expect(order?.status).toBe('processing');
    const charge = (refunded: boolean) => ({
      id: `ch_${created.id}`,
      object: 'charge',
      payment_intent: created.id,
      amount: order?.total,
      amount_refunded: refunded ? order?.total : 100,
      refunded,
    });
    expect((await deliver(standIn.event('charge.refunded', charge(false)))).status).toBe(200);
    expect((await ordersOf(email))[0]?.status).toBe('processing');
    expect((await deliver(standIn.event('charge.refunded', charge(true)))).status).toBe(200);
    expect((await ordersOf(email))[0]?.status).toBe('cancelled');
    expect(await paymentRow(created.id)).toMatchObject({ status: 'refunded' });
  });

  test('a declined card makes no order; payment_intent.payment_failed records the failure code', async () => {
    const product = await simpleProduct(db);
    const email = newEmail('stripe.declined');
    const { browser, created } = await paymentFor({ id: product.id, quantity: 1 }, email);
    const declined = standIn.confirmWithCard(created.id, '4000 0000 0000 0002');
    expect(declined).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' },
    });
    const delivered = await deliver(standIn.event('payment_intent.payment_failed', declined));
    expect(delivered.status).toBe(200);

    expect(await paymentRow(created.id)).toMatchObject({
      failureCode: 'generic_decline',
      failureMessage: 'Your card was declined.',
      orderId: null,
    });
    expect(await ordersOf(email)).toHaveLength(0);
    const complete = await browser.post('/api/checkout/complete', { paymentIntentId: created.id });
    expect(complete.statusCode).toBe(409);
    expect(complete.json().code).toBe('payment_not_authorized');
    expect(captures(created.id)).toHaveLength(0);

    // The shopper tries another card on the same payment intent, as Stripe allows after a decline.
    standIn.confirmWithCard(created.id, VISA);
    expect((await deliver(authorisedEvent(created.id))).status).toBe(200);
    expect(await ordersOf(email)).toHaveLength(1);
    expect(captures(created.id)).toHaveLength(1);
  });

  test('one left of a SKU, two shoppers authorised, both webhooks at once: one order, the other authorisation voided', async () => {
    const { product, variant } = await variantProduct(db);
    await db.update(skuVariants).set({ stock: 1 }).where(eq(skuVariants.id, variant.id));
    await db.update(products).set({ stock: 1000 }).where(eq(products.id, product.id));
    const item = { id: product.id, skuId: variant.skuId, quantity: 1 };
    // Both are priced while the one unit is there.
    const shoppers = await Promise.all(
      ['stripe.first', 'stripe.second'].map(async (name) => {
        const email = newEmail(name);
        return { email, ...(await paymentFor(item, email)) };
      }),
    );
    for (const { created } of shoppers) standIn.confirmWithCard(created.id, VISA);

    const delivered = await Promise.all(shoppers.map(({ created }) => deliver(authorisedEvent(created.id))));
    expect(delivered.map((d) => d.status)).toEqual([200, 200]);

    const ids = shoppers.map((s) => s.created.id);
    const rows = await db.select().from(payments).where(inArray(payments.providerPaymentId, ids));
    const winner = rows.find((row) => row.orderId !== null);
    const loser = rows.find((row) => row.orderId === null);
    expect(winner).toMatchObject({ status: 'succeeded' });
    expect(loser).toMatchObject({ status: 'canceled', failureCode: 'sold_out' });
    if (!winner || !loser) throw new Error('expected one paid and one cancelled payment');
    expect(standIn.intent(winner.providerPaymentId).status).toBe('succeeded');
    expect(standIn.intent(loser.providerPaymentId)).toMatchObject({ status: 'canceled', amount_received: 0 });
    expect(captures(winner.providerPaymentId)).toHaveLength(1);
    expect(captures(loser.providerPaymentId)).toHaveLength(0);
    expect(apiCalls('POST', `/v1/payment_intents/${loser.providerPaymentId}/cancel`)).toHaveLength(1);
    const [after] = await db.select().from(skuVariants).where(eq(skuVariants.id, variant.id));
    expect(after?.stock).toBe(0);
    const made = await db
      .select()
      .from(orders)
      .where(
        inArray(
          orders.email,
          shoppers.map((s) => s.email),
        ),
      );
    expect(made).toHaveLength(1);
    expect(made[0]?.id).toBe(winner.orderId);

    // The loser's browser completes afterwards: refused cleanly, nothing charged.
    const losing = shoppers.find((s) => s.created.id === loser.providerPaymentId);
    const complete = await losing?.browser.post('/api/checkout/complete', { paymentIntentId: loser.providerPaymentId });
    expect(complete?.statusCode).toBe(409);
    await jobsDone();
    expect(mailbox.filter((mail) => mail.to === losing?.email)).toHaveLength(0);
  });
});

describe('Stripe webhook deliveries that are refused: 400, and nothing written', () => {
  let paymentId: string;
  let email: string;
  let event: StandInEvent;
  let payload: string;

  beforeAll(async () => {
    const product = await simpleProduct(db);
    email = newEmail('stripe.refused');
    const { created } = await paymentFor({ id: product.id, quantity: 1 }, email);
    paymentId = created.id;
    standIn.confirmWithCard(paymentId, VISA);
    event = authorisedEvent(paymentId);
    // The body exactly as Stripe sends it (pretty-printed), which the signature covers.
    payload = signedWebhook(event, { secret: WEBHOOK_SECRET }).payload;
  });

  const cases: [string, () => { body: string; signature?: string }, string][] = [
    [
      'a signature made with another secret',
      () => ({ body: payload, signature: signWebhookPayload(payload, { secret: 'whsec_not_this_endpoint' }) }),
      'webhook_bad_signature',
    ],
    [
      'a timestamp 301 s old',
      () => ({
        body: payload,
        signature: signWebhookPayload(payload, { secret: WEBHOOK_SECRET, timestamp: nowSeconds() - 301 }),
      }),
      'webhook_stale_timestamp',
    ],
    [
      'the signature of another body',
      () => ({
        body: payload,
        signature: signWebhookPayload(JSON.stringify(standIn.event('customer.created', { id: 'cus_1' })), {
          secret: WEBHOOK_SECRET,
        }),
      }),
      'webhook_bad_signature',
    ],
    [
      'the body altered after signing (another amount)',
      () => ({
        body: payload.replace(/"amount": \d+/, '"amount": 50'),
        signature: signWebhookPayload(payload, { secret: WEBHOOK_SECRET }),
      }),
      'webhook_bad_signature',
    ],
    [
      'the body re-serialised after signing',
      () => ({
        body: JSON.stringify(JSON.parse(payload)),
        signature: signWebhookPayload(payload, { secret: WEBHOOK_SECRET }),
      }),
      'webhook_bad_signature',
    ],
    ['no stripe-signature header', () => ({ body: payload }), 'webhook_missing_signature'],
    [
      'a header that is not a Stripe signature',
      () => ({ body: payload, signature: 'sha256=0123abcd' }),
      'webhook_malformed_signature',
    ],
    [
      'a signed body that is not JSON',
      () => ({
        body: '{"id": "evt_1", ',
        signature: signWebhookPayload('{"id": "evt_1", ', { secret: WEBHOOK_SECRET }),
      }),
      'webhook_malformed_body',
    ],
  ];

  test.each(cases)('%s', async (_name, delivery, code) => {
    const { body, signature } = delivery();
    const [eventsBefore, ordersBefore] = [await countRows(paymentEvents), await countRows(orders)];
    const response = await fetch(webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
      body,
    });
    expect(response.status).toBe(400);
    expect((await response.json()).code).toBe(code);
    expect(await countRows(paymentEvents)).toBe(eventsBefore);
    expect(await countRows(orders)).toBe(ordersBefore);
    expect(await eventRows(event.id)).toHaveLength(0);
    expect(await paymentRow(paymentId)).toMatchObject({ orderId: null, status: 'requires_payment_method' });
    expect(standIn.intent(paymentId).status).toBe('requires_capture');
    expect(captures(paymentId)).toHaveLength(0);
  });

  test('the refusals left no trace: the genuine delivery, 290 s old, still makes the order', async () => {
    const delivered = await deliver(event, { timestamp: nowSeconds() - 290 });
    expect(delivered.status).toBe(200);
    expect(JSON.parse(delivered.body)).toEqual({ received: true, duplicate: false });
    expect(await ordersOf(email)).toHaveLength(1);
    expect(captures(paymentId)).toHaveLength(1);
  });
});
