import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { paymentErrorMessage, paymentErrorMessages, testCards } from '#common/payment-errors.ts';
import type { Database } from '#server/db/client.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { createPaymentProcessor } from './create-payment-processor.ts';
import { createLocalTestProcessor, type LocalTestProcessor, TEST_MODE_MESSAGE } from './local-test-processor.ts';
import {
  isClientSecretOf,
  type PaymentInput,
  type PaymentProcessor,
  PaymentProviderError,
  PaymentWebhookError,
  type ProviderPayment,
  paymentIdFromClientSecret,
} from './payment-processor.ts';
import { createStripeProcessor, STRIPE_API_VERSION } from './stripe-processor.ts';
import { startStripeStandIn } from './stripe-stand-in.ts';

const SECRET_KEY = 'sk_test_standin_7Hq2LmX9pR4vK1sW';
const PUBLISHABLE_KEY = 'pk_test_standin_3Jd8NfQ2';
const WEBHOOK_SECRET = 'whsec_standin_Zx81Qp';
const FUTURE_YEAR = new Date().getUTCFullYear() + 2;

type Harness = {
  processor: PaymentProcessor;
  /** Plays the browser's confirm step with a test card. */
  confirm(payment: ProviderPayment, cardNumber: string): Promise<void>;
  close(): Promise<void>;
};

const implementations: [string, () => Promise<Harness>][] = [
  [
    'built-in test processor',
    async () => {
      const database = await createMigratedTestDatabase();
      const processor = createLocalTestProcessor({ db: database.db });
      return {
        processor,
        async confirm(payment, number) {
          await processor.confirmCard(payment.clientSecret, {
            number,
            expMonth: 12,
            expYear: FUTURE_YEAR,
            cvc: '123',
            name: 'Mara Quill',
          });
        },
        close: database.close,
      };
    },
  ],
  [
    'Stripe against the local stand-in',
    async () => {
      const standIn = await startStripeStandIn({ secretKey: SECRET_KEY });
      const processor = createStripeProcessor({
        secretKey: SECRET_KEY,
        publishableKey: PUBLISHABLE_KEY,
        webhookSecret: WEBHOOK_SECRET,
        apiBase: standIn.apiBase,
      });
      return {
        processor,
        async confirm(payment, number) {
          standIn.confirmWithCard(payment.id, number);
        },
        close: standIn.close,
      };
    },
  ],
];

const input = (changes: Partial<PaymentInput> = {}): PaymentInput => ({
  amount: 4999,
  email: 'mara@example.com',
  metadata: { cart_id: 'cart-1', meta_version: '2' },
  idempotencyKey: randomUUID(),
  ...changes,
});

/** The PaymentProviderError a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof PaymentProviderError))
    throw new Error(`expected a PaymentProviderError, got ${String(error)}`);
  return error;
}

/** The rows of a raw query: PGlite and node-postgres both answer `{ rows }`. */
function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

const declines = testCards.filter((card) => card.outcome === 'declined');

describe.each(implementations)('%s', (_name, make) => {
  let harness: Harness;
  let processor: PaymentProcessor;
  beforeAll(async () => {
    harness = await make();
    processor = harness.processor;
  });
  afterAll(() => harness.close());

  async function authorised(changes: Partial<PaymentInput> = {}) {
    const payment = await processor.create(input(changes));
    await harness.confirm(payment, '4242 4242 4242 4242');
    return payment;
  }

  test('creates a payment of integer cents in USD, waiting for a card', async () => {
    const payment = await processor.create(input({ amount: 12_345 }));
    expect(payment).toEqual({
      id: expect.stringMatching(/^pi_/),
      clientSecret: expect.stringMatching(/_secret_[0-9a-zA-Z]+$/),
      amount: 12_345,
      currency: 'usd',
      status: 'requires_payment_method',
      card: null,
      failure: null,
      metadata: { cart_id: 'cart-1', meta_version: '2' },
    });
    expect(paymentIdFromClientSecret(payment.clientSecret)).toBe(payment.id);
    expect(isClientSecretOf(payment, payment.clientSecret)).toBe(true);
    expect(isClientSecretOf(payment, `${payment.id}_secret_guess`)).toBe(false);
  });

  test('retrieve gives the payment; an unknown id is not found', async () => {
    const payment = await processor.create(input());
    expect(await processor.retrieve(payment.id)).toEqual(payment);
    const missing = await refusal(processor.retrieve('pi_doesnotexist'));
    expect(missing).toMatchObject({ kind: 'not_found', code: 'resource_missing' });
  });

  test('update changes the amount and merges metadata (an empty value removes a key)', async () => {
    const payment = await processor.create(input());
    const updated = await processor.update(
      payment.id,
      input({ amount: 7_450, email: null, metadata: { order_ref: 'A-17', meta_version: '' } }),
    );
    expect(updated).toMatchObject({ id: payment.id, clientSecret: payment.clientSecret, amount: 7_450 });
    expect(updated.metadata).toEqual({ cart_id: 'cart-1', order_ref: 'A-17' });
    expect(await processor.retrieve(payment.id)).toEqual(updated);
  });

  test('an amount under 50 cents or not in whole cents is refused', async () => {
    expect(await refusal(processor.create(input({ amount: 49 })))).toMatchObject({
      kind: 'invalid_request',
      code: 'amount_too_small',
    });
    const payment = await processor.create(input());
    expect((await refusal(processor.update(payment.id, input({ amount: 10 })))).kind).toBe('invalid_request');
    await expect(processor.create(input({ amount: 12.5 }))).rejects.toBeInstanceOf(PaymentProviderError);
  });

  test('a test card authorises the payment; capture then takes it', async () => {
    const payment = await authorised({ amount: 2_599 });
    const held = await processor.retrieve(payment.id);
    expect(held).toMatchObject({
      status: 'requires_capture',
      amount: 2_599,
      card: { brand: 'visa', last4: '4242' },
      failure: null,
    });
    const captured = await processor.capture(payment.id, randomUUID());
    expect(captured).toMatchObject({ id: payment.id, status: 'succeeded', amount: 2_599 });
    expect(await processor.retrieve(payment.id)).toMatchObject({ status: 'succeeded' });
  });

  test('nothing to capture before the card is authorised, and nothing twice', async () => {
    const payment = await processor.create(input());
    expect(await refusal(processor.capture(payment.id, randomUUID()))).toMatchObject({
      kind: 'state',
      code: 'payment_intent_unexpected_state',
    });
    await harness.confirm(payment, '4242424242424242');
    await processor.capture(payment.id, randomUUID());
    expect((await refusal(processor.capture(payment.id, randomUUID()))).kind).toBe('state');
  });

  test('an authorised payment keeps its amount', async () => {
    const payment = await authorised();
    expect((await refusal(processor.update(payment.id, input({ amount: 9_999 })))).kind).toBe('state');
    expect((await processor.retrieve(payment.id)).amount).toBe(4999);
  });

  test('cancel voids an authorisation or an unconfirmed payment, but not a captured or canceled one', async () => {
    const held = await authorised();
    expect(await processor.cancel(held.id, randomUUID())).toMatchObject({ id: held.id, status: 'canceled' });
    expect((await refusal(processor.capture(held.id, randomUUID()))).kind).toBe('state');
    expect((await refusal(processor.cancel(held.id, randomUUID()))).kind).toBe('state');

    const unconfirmed = await processor.create(input());
    expect((await processor.cancel(unconfirmed.id, randomUUID())).status).toBe('canceled');

    const captured = await authorised();
    await processor.capture(captured.id, randomUUID());
    expect((await refusal(processor.cancel(captured.id, randomUUID()))).kind).toBe('state');
  });

  test.each(declines.map((card) => [card.number, card.declineCode ?? card.code] as const))(
    "card %s declines with %s, which the shopper reads in the catalogue's words",
    async (number, code) => {
      const payment = await processor.create(input());
      await harness.confirm(payment, number);
      const declined = await processor.retrieve(payment.id);
      expect(declined.status).toBe('requires_payment_method');
      expect(declined.failure?.code).toBe(code);
      expect(paymentErrorMessage(declined.failure?.code, declined.failure?.message)).toBe(
        paymentErrorMessages[code as keyof typeof paymentErrorMessages],
      );
      // The shopper can try another card on the same payment.
      await harness.confirm(declined, '4242 4242 4242 4242');
      expect(await processor.retrieve(payment.id)).toMatchObject({ status: 'requires_capture', failure: null });
    },
  );

  test('a repeated request (same idempotency key) gets the first result and does nothing again', async () => {
    const request = input();
    const first = await processor.create(request);
    const again = await processor.create(request);
    expect(again).toEqual(first);

    await harness.confirm(first, '4242 4242 4242 4242');
    const key = randomUUID();
    const captured = await processor.capture(first.id, key);
    expect(await processor.capture(first.id, key)).toEqual(captured);

    // A refusal is replayed too.
    const other = await processor.create(input());
    const refusalKey = randomUUID();
    const refused = await refusal(processor.capture(other.id, refusalKey));
    await harness.confirm(other, '4242 4242 4242 4242');
    expect(await refusal(processor.capture(other.id, refusalKey))).toMatchObject({
      kind: refused.kind,
      code: refused.code,
    });
  });

  test('an idempotency key used again with other parameters is refused', async () => {
    const request = input();
    const payment = await processor.create(request);
    expect((await refusal(processor.create({ ...request, amount: 5_000 }))).kind).toBe('idempotency');
    expect((await refusal(processor.capture(payment.id, request.idempotencyKey))).kind).toBe('idempotency');
  });

  test('the same create sent at once from several requests makes one payment', async () => {
    const request = input();
    const payments = await Promise.all([1, 2, 3, 4].map(() => processor.create(request)));
    expect(new Set(payments.map((payment) => payment.id)).size).toBe(1);
  });

  test('concurrent captures of one payment capture it once', async () => {
    const payment = await authorised();
    const results = await Promise.allSettled([1, 2, 3, 4, 5].map(() => processor.capture(payment.id, randomUUID())));
    const captured = results.filter((result) => result.status === 'fulfilled');
    expect(captured).toHaveLength(1);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toMatchObject({ kind: 'state' });
    }
    expect((await processor.retrieve(payment.id)).status).toBe('succeeded');
  });
});

describe('built-in test processor: the card form', () => {
  let database: Database;
  let processor: LocalTestProcessor;
  beforeAll(async () => {
    database = await createMigratedTestDatabase();
    processor = createLocalTestProcessor({ db: database.db, now: () => new Date('2030-06-15T12:00:00Z') });
  });
  afterAll(() => database.close());

  const card = (changes: Partial<Parameters<LocalTestProcessor['confirmCard']>[1]> = {}) => ({
    number: '4242 4242 4242 4242',
    expMonth: 6,
    expYear: 2030,
    cvc: '123',
    name: 'Mara Quill',
    ...changes,
  });

  test.each([
    ['a real card number', '4111 1111 1111 1111'],
    ['a number that is no card', '1234 5678 9012 3456'],
    ['a test number with a typo', '4242 4242 4242 4241'],
    ['nothing', ''],
  ])('%s is refused: the shop is in test mode, and the payment is untouched', async (_case, number) => {
    const payment = await processor.create(input());
    const error = await refusal(processor.confirmCard(payment.clientSecret, card({ number })));
    expect(error).toMatchObject({ kind: 'card', code: 'card_declined', declineCode: 'test_mode_live_card' });
    expect(error.message).toBe(TEST_MODE_MESSAGE);
    expect(paymentErrorMessage(error.failureCode, error.message)).toBe(
      'This shop is in test mode: use a test card number such as 4242 4242 4242 4242.',
    );
    expect(await processor.retrieve(payment.id)).toEqual(payment);
  });

  test.each([
    ['an expiry last month', { expMonth: 5, expYear: 2030 }, 'invalid_expiry_year'],
    ['an expiry last year (two digits)', { expMonth: 12, expYear: 29 }, 'invalid_expiry_year'],
    ['month 13', { expMonth: 13, expYear: 2031 }, 'invalid_expiry_month'],
    ['a 2-digit CVC', { cvc: '12' }, 'invalid_cvc'],
    ['a 5-digit CVC', { cvc: '12345' }, 'invalid_cvc'],
    ['letters for a CVC', { cvc: 'abc' }, 'invalid_cvc'],
  ])('%s is refused', async (_case, changes, code) => {
    const payment = await processor.create(input());
    expect(await refusal(processor.confirmCard(payment.clientSecret, card(changes)))).toMatchObject({
      kind: 'card',
      code,
    });
    expect((await processor.retrieve(payment.id)).status).toBe('requires_payment_method');
  });

  test('this month, a two-digit year and a 4-digit CVC are fine', async () => {
    const payment = await processor.create(input());
    const confirmed = await processor.confirmCard(
      payment.clientSecret,
      card({ expMonth: 6, expYear: 30, cvc: '1234' }),
    );
    expect(confirmed.status).toBe('requires_capture');
  });

  test('a wrong or unknown client secret finds no payment', async () => {
    const payment = await processor.create(input());
    for (const secret of [`${payment.id}_secret_0000`, 'pi_local_nope_secret_1', 'no-secret', '']) {
      expect(await refusal(processor.confirmCard(secret, card()))).toMatchObject({ kind: 'not_found' });
    }
    expect((await processor.retrieve(payment.id)).status).toBe('requires_payment_method');
  });

  test('an authorised payment cannot be confirmed again', async () => {
    const payment = await processor.create(input());
    await processor.confirmCard(payment.clientSecret, card());
    expect((await refusal(processor.confirmCard(payment.clientSecret, card()))).kind).toBe('state');
  });

  test('no column holds a card number or a CVC: only the brand and the last four digits are kept', async () => {
    for (const { number } of testCards) {
      const payment = await processor.create(input());
      await processor.confirmCard(payment.clientSecret, card({ number, cvc: '7319' }));
    }
    const columns = rowsOf<{ table_name: string; column_name: string }>(
      await database.db.execute(sql`select table_name, column_name from information_schema.columns
          where table_name in ('local_test_payments', 'local_test_idempotency_keys') order by table_name, ordinal_position`),
    );
    expect(columns.map((c) => `${c.table_name}.${c.column_name}`)).toEqual([
      'local_test_idempotency_keys.key',
      'local_test_idempotency_keys.request_hash',
      'local_test_idempotency_keys.result',
      'local_test_idempotency_keys.created_at',
      'local_test_payments.id',
      'local_test_payments.client_secret',
      'local_test_payments.amount',
      'local_test_payments.currency',
      'local_test_payments.status',
      'local_test_payments.email',
      'local_test_payments.metadata',
      'local_test_payments.card_brand',
      'local_test_payments.card_last4',
      'local_test_payments.failure_code',
      'local_test_payments.failure_message',
      'local_test_payments.captured_at',
      'local_test_payments.canceled_at',
      'local_test_payments.created_at',
      'local_test_payments.updated_at',
    ]);
    const rows = rowsOf<{ row: string }>(
      await database.db.execute(sql`select row_to_json(p)::text as row from local_test_payments p
          union all select row_to_json(k)::text from local_test_idempotency_keys k`),
    );
    const stored = rows.map((r) => r.row).join('\n');
    expect(stored).toContain('"card_last4":"4242"');
    for (const { number } of testCards) {
      expect(stored).not.toContain(number.replaceAll(' ', ''));
      expect(stored).not.toContain(number);
    }
    // Nor the CVC or the cardholder's name (a CVC's digits could occur by chance in random ids).
    expect(stored).not.toMatch(/cvc|Mara Quill/i);
  });

  test('shows the browser no secret and takes no webhooks', async () => {
    expect(processor.browserConfig).toEqual({ provider: 'local' });
    await expect(processor.parseWebhook(Buffer.from('{}'), 't=1,v1=00')).rejects.toThrow(PaymentWebhookError);
  });
});

describe('Stripe adapter: the wire', () => {
  test("sends Stripe's parameters, our idempotency key, the pinned API version and the secret key", async () => {
    const standIn = await startStripeStandIn({ secretKey: SECRET_KEY });
    try {
      const processor = createStripeProcessor({
        secretKey: SECRET_KEY,
        publishableKey: PUBLISHABLE_KEY,
        webhookSecret: null,
        apiBase: standIn.apiBase,
      });
      expect(processor.browserConfig).toEqual({ provider: 'stripe', publishableKey: PUBLISHABLE_KEY });
      const payment = await processor.create(input({ idempotencyKey: 'pi-sync:cart-hash:initial' }));
      await processor.capture(payment.id, 'capture:order-1').catch(() => {});
      const [create, capture] = standIn.requests;
      expect(create).toMatchObject({
        method: 'POST',
        path: '/v1/payment_intents',
        headers: {
          authorization: `Bearer ${SECRET_KEY}`,
          'idempotency-key': 'pi-sync:cart-hash:initial',
          'stripe-version': STRIPE_API_VERSION,
          'content-type': 'application/x-www-form-urlencoded',
        },
        params: {
          amount: '4999',
          currency: 'usd',
          capture_method: 'manual',
          automatic_payment_methods: { enabled: 'true' },
          metadata: { cart_id: 'cart-1', meta_version: '2' },
          receipt_email: 'mara@example.com',
          expand: ['latest_charge'],
        },
      });
      expect(capture).toMatchObject({
        path: `/v1/payment_intents/${payment.id}/capture`,
        headers: { 'idempotency-key': 'capture:order-1' },
      });
    } finally {
      await standIn.close();
    }
  });

  test('a wrong secret key is an authentication error that does not repeat the key', async () => {
    const standIn = await startStripeStandIn({ secretKey: SECRET_KEY });
    const wrongKey = 'sk_test_wrong_key_0123456789';
    try {
      const processor = createStripeProcessor({
        secretKey: wrongKey,
        publishableKey: PUBLISHABLE_KEY,
        webhookSecret: null,
        apiBase: standIn.apiBase,
      });
      const error = await refusal(processor.create(input()));
      expect(error.kind).toBe('authentication');
      expect(error.message).not.toContain(wrongKey);
    } finally {
      await standIn.close();
    }
  });

  test('the keys saved in the settings are used from the next call, without a restart', async () => {
    // The account's key is the saved one; the key the shop started with (STRIPE_SECRET_KEY) is refused.
    const savedKeys = {
      secretKey: 'sk_test_saved_in_settings_5Tg8Wq',
      publishableKey: 'pk_test_saved_in_settings_2Lp',
    };
    const standIn = await startStripeStandIn({ secretKey: savedKeys.secretKey });
    let saved: typeof savedKeys | null = null;
    try {
      const processor = createStripeProcessor({
        secretKey: SECRET_KEY,
        publishableKey: PUBLISHABLE_KEY,
        webhookSecret: null,
        apiBase: standIn.apiBase,
        currentKeys: () => saved,
      });
      const { browserConfig } = processor;
      expect(browserConfig).toEqual({ provider: 'stripe', publishableKey: PUBLISHABLE_KEY });
      expect((await refusal(processor.create(input()))).kind).toBe('authentication');

      saved = savedKeys;
      const payment = await processor.create(input());
      expect(payment.status).toBe('requires_payment_method');
      expect((await processor.retrieve(payment.id)).id).toBe(payment.id);
      // The pages read the same object on each render: it shows the saved publishable key now.
      expect(browserConfig).toEqual({ provider: 'stripe', publishableKey: savedKeys.publishableKey });
      expect(standIn.requests.map((request) => request.headers.authorization)).toEqual([
        `Bearer ${SECRET_KEY}`,
        `Bearer ${savedKeys.secretKey}`,
        `Bearer ${savedKeys.secretKey}`,
      ]);

      // Removed from the settings: back to the keys it started with.
      saved = null;
      const error = await refusal(processor.retrieve(payment.id));
      expect(error.kind).toBe('authentication');
      expect(error.message).not.toContain(SECRET_KEY);
      expect(browserConfig).toEqual({ provider: 'stripe', publishableKey: PUBLISHABLE_KEY });
    } finally {
      await standIn.close();
    }
  });

  test('an unreachable API is reported as unavailable', async () => {
    const standIn = await startStripeStandIn({ secretKey: SECRET_KEY });
    await standIn.close();
    const processor = createStripeProcessor({
      secretKey: SECRET_KEY,
      publishableKey: PUBLISHABLE_KEY,
      webhookSecret: null,
      apiBase: standIn.apiBase,
      timeoutMs: 1_000,
    });
    expect((await refusal(processor.retrieve('pi_1'))).kind).toBe('unavailable');
  });
});

describe('createPaymentProcessor', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createMigratedTestDatabase();
  });
  afterAll(() => database.close());

  test('takes Stripe when both keys are set, the built-in processor when neither is', () => {
    const { db } = database;
    const stripe = createPaymentProcessor(
      { db },
      { stripeSecretKey: SECRET_KEY, stripePublishableKey: PUBLISHABLE_KEY, stripeWebhookSecret: WEBHOOK_SECRET },
    );
    expect(stripe.name).toBe('stripe');
    expect(stripe.browserConfig).toEqual({ provider: 'stripe', publishableKey: PUBLISHABLE_KEY });
    expect(createPaymentProcessor({ db }, {}).name).toBe('local');
    expect(createPaymentProcessor({ db }, { stripeSecretKey: '', stripePublishableKey: null }).name).toBe('local');
  });

  test('Stripe’s keys saved in the settings choose Stripe at start; saved later, they wait for a restart', () => {
    const { db } = database;
    let saved: { secretKey: string; publishableKey: string } | null = null;
    const savedStripeKeys = () => saved;
    expect(createPaymentProcessor({ db }, { savedStripeKeys }).name).toBe('local');
    saved = { secretKey: SECRET_KEY, publishableKey: PUBLISHABLE_KEY };
    const local = createPaymentProcessor({ db }, {});
    expect(local.name).toBe('local');
    const stripe = createPaymentProcessor({ db }, { savedStripeKeys });
    expect(stripe.name).toBe('stripe');
    expect(stripe.browserConfig).toEqual({ provider: 'stripe', publishableKey: PUBLISHABLE_KEY });
  });

  test('one Stripe key without the other is a mistake', () => {
    const { db } = database;
    expect(() => createPaymentProcessor({ db }, { stripeSecretKey: SECRET_KEY })).toThrow(/both/);
    expect(() => createPaymentProcessor({ db }, { stripePublishableKey: PUBLISHABLE_KEY })).toThrow(/both/);
  });
});
