import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { PaymentBreakdown } from '#common/contracts/checkout.ts';
import { createdAt, idColumn, updatedAt } from '#server/db/columns.ts';
import { orders } from '#server/features/orders/orders.tables.ts';

/**
 * A payment's way: open (requires_payment_method), authorised at the provider with no order yet
 * (authorized), its order written and the capture under way (capturing), captured (succeeded), or
 * ended (canceled, failed, refunded). The recovery job finishes what a crash left authorized or
 * capturing.
 */
export const paymentStatuses = [
  'requires_payment_method',
  'authorized',
  'capturing',
  'succeeded',
  'canceled',
  'failed',
  'refunded',
] as const;

/** The cart as the server priced it when the payment was created or last synced. */
export type PricedCart = {
  items: {
    productId: string;
    skuId: string | null;
    quantity: number;
    unitPrice: number;
    /** What the order line keeps, as the cart was priced (absent on the demo shop's payments). */
    title?: string;
    skuAttr?: string | null;
    variantName?: string | null;
    image?: string | null;
    unitCost?: number;
  }[];
  /**
   * The priced lines and refused codes as answered, and a fingerprint of the items and codes they
   * were priced for: a sync that changes only an address reuses them (absent on the demo shop's).
   */
  pricing?: {
    fingerprint: string;
    lines: {
      key: string;
      unitPrice: number;
      originalUnitPrice: number;
      lineTotal: number;
      appliedCode: string | null;
    }[];
    refused: { code: string; product: string }[];
  };
  discountCodes: string[];
  /** The sales that priced the lines (automatic ones and coupons); absent on payments made before they were kept. */
  saleIds?: string[];
  email: string;
  newsletter: boolean;
  shipping: unknown;
  billing: unknown;
  /** The signed-in shopper who checked out; null or absent for a guest. */
  userId?: string | null;
  /** The sales whose use the order counted (written with the order): given back if its capture fails. */
  countedSaleIds?: string[];
};

export const payments = pgTable(
  'payments',
  {
    id: idColumn(),
    /** 'local' (the built-in test processor) or 'stripe'. */
    provider: text().notNull(),
    /** The provider's payment id (a Stripe PaymentIntent id); orders are created once per payment. */
    providerPaymentId: text().notNull(),
    status: text({ enum: paymentStatuses }).notNull().default('requires_payment_method'),
    /** Integer cents. */
    amount: integer().notNull(),
    currency: text().notNull().default('USD'),
    breakdown: jsonb().$type<PaymentBreakdown>().notNull(),
    cart: jsonb().$type<PricedCart>().notNull(),
    orderId: text().references(() => orders.id, { onDelete: 'set null' }),
    /** The card that paid: its brand and last four digits only. */
    cardBrand: text(),
    cardLast4: text(),
    failureCode: text(),
    failureMessage: text(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('payments_provider_payment_key').on(t.provider, t.providerPaymentId),
    uniqueIndex('payments_order_key').on(t.orderId),
    index('payments_created_idx').on(t.createdAt),
    // The recovery job's every-minute look for payments a crash left half-way.
    index('payments_unfinished_idx').on(t.updatedAt).where(sql`${t.status} IN ('authorized', 'capturing')`),
  ],
);

/** Provider webhook events already acted on: a delivery that comes again is answered and ignored. */
export const paymentEvents = pgTable(
  'payment_events',
  {
    provider: text().notNull(),
    eventId: text().notNull(),
    type: text().notNull(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] }), index('payment_events_received_idx').on(t.receivedAt)],
);
