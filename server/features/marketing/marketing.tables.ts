import { sql } from 'drizzle-orm';
import { boolean, check, date, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { discountTypes, saleTypes } from '#common/contracts/marketing.ts';
import { createdAt, idColumn, updatedAt } from '#server/db/columns.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';

/**
 * A sale lowers prices on its scope between its dates. With a coupon code it applies only when
 * the shopper enters the code; without one it applies by itself. A flash sale is shown with a
 * countdown on the product page.
 */
export const sales = pgTable(
  'sales',
  {
    id: idColumn(),
    name: text().notNull(),
    description: text().notNull().default(''),
    type: text({ enum: saleTypes }).notNull(),
    /** The category, product or SKU the sale applies to; null for a global sale. */
    targetId: text(),
    discountType: text({ enum: discountTypes }).notNull(),
    /** A percentage (0-100) for 'percentage'; integer cents for 'fixed_amount' and 'fixed_price'. */
    discountValue: integer().notNull(),
    /** Upper-case coupon code; null when the sale applies without a code. */
    couponCode: text(),
    isFlashSale: boolean().notNull().default(false),
    startDate: timestamp({ withTimezone: true }).notNull(),
    endDate: timestamp({ withTimezone: true }).notNull(),
    usageCount: integer().notNull().default(0),
    /** Null: unlimited. */
    usageLimit: integer(),
    /** Integer cents. */
    minimumPurchase: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('sales_coupon_code_key').on(t.couponCode).where(sql`${t.couponCode} IS NOT NULL`),
    index('sales_active_dates_idx').on(t.active, t.startDate, t.endDate),
    index('sales_target_idx').on(t.type, t.targetId),
    check('sales_dates_check', sql`${t.endDate} > ${t.startDate}`),
    check('sales_discount_value_check', sql`${t.discountValue} >= 0`),
  ],
);

/**
 * The best sellers as last counted (units sold in paid orders of the last 30 days, the most
 * first): refreshed by a job every few minutes, so a storefront read is one short index walk
 * rather than a sum over a month of order lines.
 */
export const bestSellers = pgTable(
  'best_sellers',
  {
    productId: text()
      .primaryKey()
      .references(() => products.id, { onDelete: 'cascade' }),
    score: integer().notNull(),
    /** When the list was counted (the counting transaction's start): a start skips a fresh count. */
    countedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('best_sellers_score_idx').on(t.score.desc(), t.productId)],
);

/**
 * Units of each product sold in paid orders, per UTC day of the order, as changes: the triggers of
 * migration 0030 append a row for an order's lines when it becomes paid (their units) or stops
 * being paid (minus them), whoever writes the order. No row is ever updated, so checkouts never
 * queue at a shared row. The best sellers' count sums the window's rows (its cost follows the
 * month's order lines, not every order line ever) and drops the days that left the window.
 */
export const productUnitsByDay = pgTable(
  'product_units_by_day',
  {
    day: date({ mode: 'string' }).notNull(),
    productId: text().notNull(),
    units: integer().notNull(),
  },
  (t) => [index('product_units_by_day_day_idx').on(t.day)],
);
