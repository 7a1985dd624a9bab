import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from '#server/db/columns.ts';
import { orders } from '#server/features/orders/orders.tables.ts';

/**
 * Where a paid order's supplier order stands:
 * - queued: waiting for its first placement;
 * - placing: a worker holds the lease (until leaseUntil) and is calling the marketplace;
 * - retry: the last attempt failed for a passing reason; tried again at nextAttemptAt;
 * - placed: the marketplace has it (supplierOrderIds); its progress is read at nextCheckAt;
 * - failed: a person must look (lastError says why; the back office shows it);
 * - done: the order was delivered and completed, or cancelled: nothing more to read.
 */
export const fulfilmentStates = ['queued', 'placing', 'retry', 'placed', 'failed', 'done'] as const;
export type FulfilmentState = (typeof fulfilmentStates)[number];

export const fulfilments = pgTable(
  'fulfilments',
  {
    orderId: text()
      .primaryKey()
      .references(() => orders.id, { onDelete: 'cascade' }),
    state: text({ enum: fulfilmentStates }).notNull().default('queued'),
    attempts: integer().notNull().default(0),
    /** When the placement was first attempted: recorded before the call, sent with every retry (the marketplace's idempotency). */
    placedAt: timestamp({ withTimezone: true }),
    leaseUntil: timestamp({ withTimezone: true }),
    nextAttemptAt: timestamp({ withTimezone: true }),
    nextCheckAt: timestamp({ withTimezone: true }),
    supplierOrderIds: jsonb().$type<string[]>().notNull().default([]),
    /** The marketplace's own words for the supplier order's status, for the back office. */
    supplierStatus: text(),
    lastError: text(),
    deliveredAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The sweep's two reads: work due, and progress to read.
    index('fulfilments_due_idx').on(t.state, t.nextAttemptAt).where(sql`${t.state} IN ('queued', 'placing', 'retry')`),
    index('fulfilments_check_idx').on(t.nextCheckAt).where(sql`${t.state} = 'placed'`),
  ],
);
