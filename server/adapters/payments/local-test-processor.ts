import { createHash, randomBytes } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { findTestCard } from '#common/payment-errors.ts';
import { type Db, executeRows } from '#server/db/client.ts';
import {
  localTestIdempotencyKeys,
  localTestPayments,
  type StoredPaymentResult,
} from './local-test-processor.tables.ts';
import {
  isClientSecretOf,
  type PaymentErrorKind,
  type PaymentInput,
  type PaymentProcessor,
  PaymentProviderError,
  PaymentWebhookError,
  type ProviderPayment,
  type ProviderPaymentStatus,
  paymentIdFromClientSecret,
} from './payment-processor.ts';

/** What the shopper types into the built-in payment form. Only the brand and last four digits are kept. */
export type TestCardInput = { number: string; expMonth: number; expYear: number; cvc: string; name: string };

export interface LocalTestProcessor extends PaymentProcessor {
  readonly name: 'local';
  /**
   * The browser's confirm step (what Stripe.js does against Stripe): authorises the payment with a
   * test card. A test card's decline is recorded on the payment (status back to
   * requires_payment_method, `failure` set) and the payment returned; a card that cannot be tried
   * at all (not a test number, expired, bad CVC) and an unknown client secret throw PaymentProviderError.
   */
  confirmCard(clientSecret: string, card: TestCardInput): Promise<ProviderPayment>;
}

export const TEST_MODE_MESSAGE = 'This shop is in test mode: use a test card number such as 4242 4242 4242 4242.';

const MIN_AMOUNT = 50;
const MAX_AMOUNT = 99_999_999;
const CONFIRMABLE: ProviderPaymentStatus[] = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
const UPDATABLE = CONFIRMABLE;
const CANCELABLE: ProviderPaymentStatus[] = [...CONFIRMABLE, 'processing', 'requires_capture'];

type Row = typeof localTestPayments.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The default processor: no network and no account, payments kept in the shop's own database.
 * It behaves like Stripe in test mode (statuses, manual capture, idempotency keys, error codes)
 * and takes only the test cards of common/payment-errors.ts.
 */
export function createLocalTestProcessor({
  db,
  now = () => new Date(),
}: {
  db: Db;
  now?: () => Date;
}): LocalTestProcessor {
  return {
    name: 'local',
    browserConfig: { provider: 'local' },

    async create(input) {
      checkInput(input);
      const id = `pi_local_${randomBytes(12).toString('hex')}`;
      const payment: ProviderPayment = {
        id,
        clientSecret: `${id}_secret_${randomBytes(16).toString('hex')}`,
        amount: input.amount,
        currency: 'usd',
        status: 'requires_payment_method',
        card: null,
        failure: null,
        metadata: withoutEmptyValues(input.metadata),
      };
      const request = { operation: 'create', ...input };
      checkKey(input.idempotencyKey);
      // A new key (the usual case) claims the key and creates the payment in one statement: the
      // answer of a create is known before it runs. A key seen before is answered as it was.
      const created = await executeRows<{ id: string }>(
        db,
        sql`
        WITH claimed AS (
          INSERT INTO ${localTestIdempotencyKeys} (key, request_hash, result)
          VALUES (${input.idempotencyKey}, ${hashOf(request)}, ${JSON.stringify({ payment })}::jsonb)
          ON CONFLICT DO NOTHING
          RETURNING key
        )
        INSERT INTO ${localTestPayments} (id, client_secret, amount, email, metadata)
        SELECT ${payment.id}, ${payment.clientSecret}, ${payment.amount}::int, ${input.email}::text,
          ${JSON.stringify(payment.metadata)}::jsonb
        FROM claimed
        RETURNING id`,
      );
      if (created.length > 0) return payment;
      return idempotent(input.idempotencyKey, request, async () => {
        throw new Error('an idempotency key seen before has no stored answer');
      });
    },

    async update(id, input) {
      checkInput(input);
      return idempotent(input.idempotencyKey, { operation: 'update', id, ...input }, async (tx) => {
        const current = await find(tx, id);
        if (!UPDATABLE.includes(current.status)) throw unexpectedState(current, 'updated', UPDATABLE);
        const [row] = await tx
          .update(localTestPayments)
          .set({
            amount: input.amount,
            ...(input.email === null ? {} : { email: input.email }),
            metadata: withoutEmptyValues({ ...current.metadata, ...input.metadata }),
          })
          .where(and(eq(localTestPayments.id, id), inArray(localTestPayments.status, UPDATABLE)))
          .returning();
        if (!row) throw unexpectedState(await find(tx, id), 'updated', UPDATABLE);
        return toPayment(row);
      });
    },

    async retrieve(id) {
      return toPayment(await find(db, id));
    },

    capture(id, idempotencyKey) {
      return idempotent(idempotencyKey, { operation: 'capture', id }, async (tx) => {
        // The status condition makes the capture atomic: of two concurrent captures one finds no row.
        const [row] = await tx
          .update(localTestPayments)
          .set({ status: 'succeeded', capturedAt: now() })
          .where(and(eq(localTestPayments.id, id), eq(localTestPayments.status, 'requires_capture')))
          .returning();
        if (!row) throw unexpectedState(await find(tx, id), 'captured', ['requires_capture']);
        return toPayment(row);
      });
    },

    cancel(id, idempotencyKey) {
      return idempotent(idempotencyKey, { operation: 'cancel', id }, async (tx) => {
        const [row] = await tx
          .update(localTestPayments)
          .set({ status: 'canceled', canceledAt: now() })
          .where(and(eq(localTestPayments.id, id), inArray(localTestPayments.status, CANCELABLE)))
          .returning();
        if (!row) throw unexpectedState(await find(tx, id), 'canceled', CANCELABLE);
        return toPayment(row);
      });
    },

    async confirmCard(clientSecret, card) {
      const id = paymentIdFromClientSecret(clientSecret);
      const current = id ? await findOrNull(db, id) : null;
      if (!current || !isClientSecretOf(current, clientSecret)) {
        throw new PaymentProviderError(
          'not_found',
          'resource_missing',
          'No such payment: the client secret does not match.',
        );
      }
      const testCard = findTestCard(card.number);
      if (!testCard) throw new PaymentProviderError('card', 'card_declined', TEST_MODE_MESSAGE, 'test_mode_live_card');
      checkExpiry(card, now());
      if (!/^\d{3,4}$/.test(card.cvc.trim())) {
        throw new PaymentProviderError('card', 'invalid_cvc', "Your card's security code is invalid.");
      }
      const last4 = testCard.number.slice(-4);
      const outcome =
        testCard.outcome === 'authorised'
          ? { status: 'requires_capture' as const, failureCode: null, failureMessage: null }
          : {
              status: 'requires_payment_method' as const,
              failureCode: testCard.declineCode ?? testCard.code,
              failureMessage: declineMessage(testCard.declineCode),
            };
      const [row] = await db
        .update(localTestPayments)
        .set({ ...outcome, cardBrand: testCard.brand, cardLast4: last4 })
        .where(and(eq(localTestPayments.id, current.id), inArray(localTestPayments.status, CONFIRMABLE)))
        .returning();
      if (!row) throw unexpectedState(await find(db, current.id), 'confirmed', CONFIRMABLE);
      return toPayment(row);
    },

    async parseWebhook() {
      throw new PaymentWebhookError('unsupported', 'The built-in test processor sends no webhooks.');
    },
  };

  /**
   * Runs a request once per idempotency key, in one transaction with the key's record: a repeat
   * (even a concurrent one, which waits for the first) gets the first result, error included.
   */
  async function idempotent(
    key: string,
    request: Record<string, unknown>,
    run: (tx: Tx) => Promise<ProviderPayment>,
  ): Promise<ProviderPayment> {
    checkKey(key);
    const requestHash = hashOf(request);
    const result = await db.transaction(async (tx): Promise<StoredPaymentResult> => {
      const [claimed] = await tx
        .insert(localTestIdempotencyKeys)
        .values({ key, requestHash })
        .onConflictDoNothing()
        .returning({ key: localTestIdempotencyKeys.key });
      if (!claimed) {
        const [first] = await tx.select().from(localTestIdempotencyKeys).where(eq(localTestIdempotencyKeys.key, key));
        if (first?.requestHash !== requestHash) {
          return {
            error: {
              kind: 'idempotency',
              code: 'idempotency_error',
              declineCode: null,
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          };
        }
        if (!first.result) throw new Error(`idempotency key ${key} has no result`);
        return first.result;
      }
      let outcome: StoredPaymentResult;
      try {
        outcome = { payment: await run(tx) };
      } catch (error) {
        if (!(error instanceof PaymentProviderError)) throw error;
        const { kind, code, declineCode, message } = error;
        outcome = { error: { kind, code, declineCode, message } };
      }
      await tx.update(localTestIdempotencyKeys).set({ result: outcome }).where(eq(localTestIdempotencyKeys.key, key));
      return outcome;
    });
    if ('error' in result) {
      const { kind, code, message, declineCode } = result.error;
      throw new PaymentProviderError(kind as PaymentErrorKind, code, message, declineCode);
    }
    return result.payment;
  }
}

function checkKey(key: string): void {
  if (!key || key.length > 255) {
    throw new PaymentProviderError(
      'invalid_request',
      'parameter_invalid',
      'An idempotency key of 1-255 characters is required.',
    );
  }
}

/** The operation and its parameters: the same key with other parameters is refused. */
function hashOf(request: Record<string, unknown>): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('hex');
}

async function findOrNull(db: Db | Tx, id: string): Promise<Row | null> {
  const [row] = await db.select().from(localTestPayments).where(eq(localTestPayments.id, id));
  return row ?? null;
}

async function find(db: Db | Tx, id: string): Promise<Row> {
  const row = await findOrNull(db, id);
  if (!row) throw new PaymentProviderError('not_found', 'resource_missing', `No such payment: '${id}'`);
  return row;
}

function toPayment(row: Row): ProviderPayment {
  return {
    id: row.id,
    clientSecret: row.clientSecret,
    amount: row.amount,
    currency: 'usd',
    status: row.status,
    card: row.cardBrand && row.cardLast4 ? { brand: row.cardBrand, last4: row.cardLast4 } : null,
    failure: row.failureCode ? { code: row.failureCode, message: row.failureMessage ?? '' } : null,
    metadata: row.metadata,
  };
}

/** Stripe's refusal for a status that does not allow the operation, in Stripe's words. */
function unexpectedState(row: Row, done: string, allowed: ProviderPaymentStatus[]): PaymentProviderError {
  return new PaymentProviderError(
    'state',
    'payment_intent_unexpected_state',
    `This payment could not be ${done} because it has a status of ${row.status}. Only a payment with one of the following statuses may be ${done}: ${allowed.join(', ')}.`,
  );
}

function checkInput({ amount, metadata }: PaymentInput): void {
  if (!Number.isInteger(amount) || amount < MIN_AMOUNT) {
    throw new PaymentProviderError('invalid_request', 'amount_too_small', 'Amount must be at least $0.50 usd');
  }
  if (amount > MAX_AMOUNT) {
    throw new PaymentProviderError('invalid_request', 'amount_too_large', 'Amount must be no more than $999,999.99');
  }
  const entries = Object.entries(metadata);
  const fits = ([key, value]: [string, string]) =>
    key.length > 0 && key.length <= 40 && !/[[\]]/.test(key) && typeof value === 'string' && value.length <= 500;
  if (entries.length > 50 || !entries.every(fits)) {
    throw new PaymentProviderError(
      'invalid_request',
      'parameter_invalid_metadata',
      'Metadata allows up to 50 keys of up to 40 characters (no brackets) with values of up to 500 characters.',
    );
  }
}

function withoutEmptyValues(metadata: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(metadata).filter(([, value]) => value !== ''));
}

/** A card is valid through the last day of its expiry month. */
function checkExpiry({ expMonth, expYear }: TestCardInput, today: Date): void {
  if (!Number.isInteger(expMonth) || expMonth < 1 || expMonth > 12) {
    throw new PaymentProviderError('card', 'invalid_expiry_month', "Your card's expiration month is invalid.");
  }
  const year = expYear < 100 ? 2000 + expYear : expYear;
  const thisMonth = today.getUTCFullYear() * 12 + today.getUTCMonth() + 1;
  if (!Number.isInteger(year) || year * 12 + expMonth < thisMonth) {
    throw new PaymentProviderError('card', 'invalid_expiry_year', "Your card's expiration date is in the past.");
  }
}

function declineMessage(declineCode: string | null): string {
  return declineCode === 'authentication_required'
    ? 'Your card was declined. This transaction requires authentication.'
    : 'Your card was declined.';
}
