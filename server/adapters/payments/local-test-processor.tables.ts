import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '#server/db/columns.ts';
import { type ProviderPayment, providerPaymentStatuses } from './payment-processor.ts';

/**
 * The built-in test processor's payments: what a provider would hold. Card data is never stored
 * beyond its brand and last four digits.
 */
export const localTestPayments = pgTable(
  'local_test_payments',
  {
    /** `pi_local_<random>`. */
    id: text().primaryKey(),
    /** Kept as is: a provider returns it with the payment; compared in constant time. */
    clientSecret: text().notNull(),
    /** Integer cents. */
    amount: integer().notNull(),
    currency: text().notNull().default('usd'),
    status: text({ enum: providerPaymentStatuses }).notNull().default('requires_payment_method'),
    email: text(),
    metadata: jsonb().$type<Record<string, string>>().notNull(),
    cardBrand: text(),
    cardLast4: text(),
    failureCode: text(),
    failureMessage: text(),
    capturedAt: timestamp({ withTimezone: true }),
    canceledAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('local_test_payments_created_idx').on(t.createdAt)],
);

/** What a request with an idempotency key gave the first time: replayed when the key comes again. */
export type StoredPaymentResult =
  | { payment: ProviderPayment }
  | { error: { kind: string; code: string; declineCode: string | null; message: string } };

export const localTestIdempotencyKeys = pgTable(
  'local_test_idempotency_keys',
  {
    key: text().primaryKey(),
    /** The operation and its parameters, hashed: the same key with other parameters is refused. */
    requestHash: text().notNull(),
    /** Null only inside the transaction that runs the request. */
    result: jsonb().$type<StoredPaymentResult>(),
    createdAt: createdAt(),
  },
  (t) => [index('local_test_idempotency_keys_created_idx').on(t.createdAt)],
);
