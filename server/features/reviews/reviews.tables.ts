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
    index('reviews_product_status_created_idx').on(t.productId, t.moderationStatus, t.createdAt),
    index('reviews_product_status_rating_idx').on(t.productId, t.moderationStatus, t.rating),
    index('reviews_product_status_helpful_idx').on(t.productId, t.moderationStatus, t.helpfulCount),
    index('reviews_status_created_idx').on(t.moderationStatus, t.createdAt),
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
