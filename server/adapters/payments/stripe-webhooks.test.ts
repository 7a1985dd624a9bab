import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type PaymentEvent, type PaymentProcessor, PaymentWebhookError } from './payment-processor.ts';
import { createStripeProcessor } from './stripe-processor.ts';
import { type StripeStandIn, signedWebhook, signWebhookPayload, startStripeStandIn } from './stripe-stand-in.ts';

const SECRET_KEY = 'sk_test_standin_webhooks_5Tg1';
const WEBHOOK_SECRET = 'whsec_standin_4mV9cQ2aLx';

let standIn: StripeStandIn;
let processor: PaymentProcessor;
/** A webhook endpoint as the shop would have it: raw body and signature header into parseWebhook. */
let endpoint: { url: string; close(): Promise<void> };

beforeAll(async () => {
  standIn = await startStripeStandIn({ secretKey: SECRET_KEY });
  processor = createStripeProcessor({
    secretKey: SECRET_KEY,
    publishableKey: 'pk_test_standin',
    webhookSecret: WEBHOOK_SECRET,
    apiBase: standIn.apiBase,
  });
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const signature = req.headers['stripe-signature'];
    try {
      const event = await processor.parseWebhook(
        Buffer.concat(chunks),
        Array.isArray(signature) ? signature[0] : signature,
      );
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(event));
    } catch (error) {
      const problem = error instanceof PaymentWebhookError ? error.problem : 'crash';
      res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ problem }));
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  endpoint = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/webhooks/stripe`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
});
afterAll(async () => {
  await endpoint.close();
  await standIn.close();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);

async function newIntent(amount = 3_150) {
  return processor.create({
    amount,
    email: null,
    metadata: { cart_id: 'cart-9' },
    idempotencyKey: `create-${Math.random()}`,
  });
}

/** Delivers an event signed with the endpoint's secret and returns what the endpoint made of it. */
async function deliver(type: string, object: unknown): Promise<PaymentEvent> {
  const event = standIn.event(type, object);
  const { status, body } = await standIn.deliverWebhook(endpoint.url, event, { secret: WEBHOOK_SECRET });
  expect(status).toBe(200);
  const parsed = JSON.parse(body) as PaymentEvent;
  expect(parsed.id).toBe(event.id);
  return parsed;
}

async function problemOf(run: () => Promise<unknown>): Promise<string> {
  try {
    await run();
  } catch (error) {
    if (error instanceof PaymentWebhookError) return error.problem;
    throw error;
  }
  throw new Error('the webhook was accepted');
}

describe('Stripe webhooks: events', () => {
  test('an authorisation (amount_capturable_updated) is payment_authorized, with the payment', async () => {
    const payment = await newIntent();
    const intent = standIn.confirmWithCard(payment.id, '4242 4242 4242 4242');
    const event = await deliver('payment_intent.amount_capturable_updated', intent);
    expect(event).toMatchObject({
      type: 'payment_authorized',
      paymentId: payment.id,
      refund: null,
      payment: { id: payment.id, status: 'requires_capture', amount: 3_150, metadata: { cart_id: 'cart-9' } },
    });
  });

  test('a decline is payment_failed with decline_code ?? code', async () => {
    const payment = await newIntent();
    const declined = await deliver(
      'payment_intent.payment_failed',
      standIn.confirmWithCard(payment.id, '4000 0000 0000 0002'),
    );
    expect(declined).toMatchObject({
      type: 'payment_failed',
      paymentId: payment.id,
      payment: { status: 'requires_payment_method', failure: { code: 'generic_decline' } },
    });
    const other = await newIntent();
    const plain = await deliver(
      'payment_intent.payment_failed',
      standIn.confirmWithCard(other.id, '4000 0000 0000 1018'),
    );
    expect(plain.payment?.failure?.code).toBe('card_declined');
  });

  test('a capture is payment_succeeded, a cancel payment_canceled, a refund payment_refunded', async () => {
    const payment = await newIntent(8_000);
    standIn.confirmWithCard(payment.id, '4242424242424242');
    await processor.capture(payment.id, `capture-${payment.id}`);
    expect(await deliver('payment_intent.succeeded', standIn.intent(payment.id))).toMatchObject({
      type: 'payment_succeeded',
      paymentId: payment.id,
      payment: { status: 'succeeded' },
    });
    expect(await deliver('charge.refunded', standIn.refund(payment.id))).toEqual({
      id: expect.stringMatching(/^evt_/),
      type: 'payment_refunded',
      paymentId: payment.id,
      payment: null,
      refund: { amount: 8_000, full: true },
    });

    const canceled = await newIntent();
    await processor.cancel(canceled.id, `cancel-${canceled.id}`);
    expect(await deliver('payment_intent.canceled', standIn.intent(canceled.id))).toMatchObject({
      type: 'payment_canceled',
      paymentId: canceled.id,
    });
  });

  test('another event type is "other"', async () => {
    expect(await deliver('customer.created', { id: 'cus_1', object: 'customer' })).toMatchObject({
      type: 'other',
      payment: null,
      paymentId: null,
    });
  });
});

describe('Stripe webhooks: deliveries that are refused', () => {
  const body = () => signedWebhook(standIn.event('customer.created', { id: 'cus_1' }), { secret: WEBHOOK_SECRET });

  test('a signature made with another secret', async () => {
    const event = standIn.event('payment_intent.succeeded', { id: 'pi_forged' });
    const { status, body: answer } = await standIn.deliverWebhook(endpoint.url, event, { secret: 'whsec_attacker' });
    expect(status).toBe(400);
    expect(JSON.parse(answer)).toEqual({ problem: 'bad_signature' });
  });

  test('a body changed after signing', async () => {
    const { payload, header } = body();
    const altered = payload.replace('cus_1', 'cus_2');
    expect(await problemOf(() => processor.parseWebhook(Buffer.from(altered), header))).toBe('bad_signature');
    // The same bytes pass: verification is of the raw body.
    expect((await processor.parseWebhook(Buffer.from(payload), header)).type).toBe('other');
  });

  test('a re-serialised body (the parsed JSON sent again) does not pass', async () => {
    const { payload, header } = body();
    const reserialised = JSON.stringify(JSON.parse(payload));
    expect(await problemOf(() => processor.parseWebhook(Buffer.from(reserialised), header))).toBe('bad_signature');
  });

  test('a timestamp more than 300 s old; 290 s is still fine', async () => {
    const event = standIn.event('customer.created', { id: 'cus_1' });
    const stale = await standIn.deliverWebhook(endpoint.url, event, {
      secret: WEBHOOK_SECRET,
      timestamp: nowSeconds() - 301,
    });
    expect(stale.status).toBe(400);
    expect(JSON.parse(stale.body)).toEqual({ problem: 'stale_timestamp' });
    const recent = await standIn.deliverWebhook(endpoint.url, event, {
      secret: WEBHOOK_SECRET,
      timestamp: nowSeconds() - 290,
    });
    expect(recent.status).toBe(200);
  });

  test('no signature header, or an empty one', async () => {
    const { payload } = body();
    expect(await problemOf(() => processor.parseWebhook(Buffer.from(payload), undefined))).toBe('missing_signature');
    expect(await problemOf(() => processor.parseWebhook(Buffer.from(payload), ''))).toBe('missing_signature');
    const response = await fetch(endpoint.url, { method: 'POST', body: payload });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ problem: 'missing_signature' });
  });

  test('a header that is not a Stripe signature', async () => {
    const { payload } = body();
    for (const header of ['garbage', 't=abc,v1=00', `t=${nowSeconds()}`, `t=${nowSeconds()},v0=abcdef`]) {
      expect(await problemOf(() => processor.parseWebhook(Buffer.from(payload), header))).toBe('malformed_signature');
    }
  });

  test('a signed body that is not JSON', async () => {
    const payload = 'not json';
    const header = signWebhookPayload(payload, { secret: WEBHOOK_SECRET });
    expect(await problemOf(() => processor.parseWebhook(Buffer.from(payload), header))).toBe('malformed_body');
  });

  test('every delivery, when no webhook secret is configured', async () => {
    const unconfigured = createStripeProcessor({
      secretKey: SECRET_KEY,
      publishableKey: 'pk_test_standin',
      webhookSecret: null,
      apiBase: standIn.apiBase,
    });
    const { payload, header } = body();
    expect(await problemOf(() => unconfigured.parseWebhook(Buffer.from(payload), header))).toBe('not_configured');
  });
});
