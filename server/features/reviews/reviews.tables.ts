import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ReviewAnalysis } from '#common/contracts/reviews.ts';
import { createdAt, idColumn, updatedAt } from '#server/db/columns.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';

export const moderationStatuses = ['pending', 'approved', 'rejected', 'flagged'] as const;

export type ModerationResult = { flagged: boolean; reasons: string[] };

export const reviews = pgTable(
  'reviews',
  {
    id: idColumn(),
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** Null for reviews whose author account was deleted. */
    userId: text().references(() => users.id, { onDelete: 'set null' }),
    customerName: text().notNull(),
    /** 1.0 to 5.0 in steps of 0.1. */
    rating: numeric({ precision: 2, scale: 1, mode: 'number' }).notNull(),
    title: text().notNull(),
    content: text().notNull(),
    verified: boolean().notNull().default(false),
    helpfulCount: integer().notNull().default(0),
    moderationStatus: text({ enum: moderationStatuses }).notNull().default('approved'),
    denialReason: text(),
    aiModerationResult: jsonb().$type<ModerationResult>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One review per user and product.
    uniqueIndex('reviews_product_user_key').on(t.productId, t.userId).where(sql`${t.userId} IS NOT NULL`),
    // A product's reviews in each sort order (tie-breakers follow the sort's direction, so one
    // index serves both directions), read up to the page asked for: a late page of a product with
    // 100,000 reviews never sorts them all. Moderation status is filtered while reading, so the
    // shopper's own reviews awaiting moderation fit in the same scan.
    index('reviews_product_created_idx').on(t.productId, t.createdAt, t.id),
    index('reviews_product_rating_idx').on(t.productId, t.rating, t.createdAt, t.id),
    index('reviews_product_helpful_idx').on(t.productId, t.helpfulCount, t.createdAt, t.id),
    // The reviews tab by status, and without a filter (with the dashboard's count of reviews
    // written in a range), newest or oldest first. With the id, the tab's tie-breaker, a late
    // page reads only the index (page 500 of a million reviews: 50 ms through the table, 2 ms).
    index('reviews_status_created_idx').on(t.moderationStatus, t.createdAt, t.id),
    index('reviews_created_idx').on(t.createdAt, t.id),
    // The reviews tab's other sorts over every review (ties by date, then id, as the list orders).
    index('reviews_rating_created_idx').on(t.rating, t.createdAt, t.id),
    index('reviews_helpful_created_idx').on(t.helpfulCount, t.createdAt, t.id),
    // The reviews tab's search (ILIKE '%text%') on each text it searches, read as one bitmap.
    index('reviews_content_trgm_idx').using('gin', t.content.op('gin_trgm_ops')),
    index('reviews_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
    index('reviews_customer_name_trgm_idx').using('gin', t.customerName.op('gin_trgm_ops')),
    index('reviews_user_idx').on(t.userId),
    check('reviews_rating_check', sql`${t.rating} >= 1 AND ${t.rating} <= 5`),
  ],
);

/** "Helpful" counts once per shopper: a signed-in user's id or an anonymous visitor's key. */
export const reviewHelpfulVotes = pgTable(
  'review_helpful_votes',
  {
    reviewId: text()
      .notNull()
      .references(() => reviews.id, { onDelete: 'cascade' }),
    voterKey: text().notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.reviewId, t.voterKey] })],
);

/** The review overview of a product, recomputed in the background when its reviews change. */
export const reviewAnalyses = pgTable('review_analyses', {
  productId: text()
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  analysis: jsonb().$type<ReviewAnalysis>().notNull(),
  /** How many public reviews the analysis was computed from. */
  reviewCount: integer().notNull(),
  /** Count and last change of the public reviews it was computed from; a different one means stale. */
  fingerprint: text().notNull(),
  /** Which analyser produced it: the built-in one or an AI model's name. */
  source: text().notNull(),
  computedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/**
 * The public reviews' count, rating sum and star breakdown of each product, kept up to date by a
 * trigger on reviews (migration 0005) in the same transaction as every review write, so ratings
 * are read in one row instead of counted on every request, whoever writes the review.
 */
export const productRatings = pgTable('product_ratings', {
  productId: text()
    .primaryKey()
    .references(() => products.id, { onDelete: 'cascade' }),
  reviewCount: integer().notNull().default(0),
  ratingSum: numeric({ precision: 12, scale: 1, mode: 'number' }).notNull().default(0),
  star1: integer().notNull().default(0),
  star2: integer().notNull().default(0),
  star3: integer().notNull().default(0),
  star4: integer().notNull().default(0),
  star5: integer().notNull().default(0),
});
