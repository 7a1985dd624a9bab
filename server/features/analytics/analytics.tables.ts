import { bigserial, boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from '#server/db/columns.ts';

export const pageViews = pgTable(
  'page_views',
  // No id: a view is never read or changed on its own, and a key would cost each written view a
  // sequence step and a B-tree entry (docs/decisions.md).
  {
    path: text().notNull(),
    /** The browser tab's analytics session id (kept in session storage). */
    sessionId: text().notNull(),
    /** Only recorded when the visitor accepted cookies. */
    userId: text(),
    cookiesAccepted: boolean().notNull().default(false),
    referrer: text(),
    /**
     * The visitor without their address: SHA-256 of the day's random salt, the address and the
     * user agent. Salts are deleted after their day, so a hash cannot be traced back to an address
     * nor linked across days; visitors are counted per day.
     */
    visitorHash: text(),
    createdAt: createdAt(),
  },
  // The table is append-only and read by time range (the dashboard's 24h … 1y, then grouped by
  // page, session or visitor): a BRIN index on the time finds a range's blocks and costs almost
  // nothing to keep up, where each B-tree made every written view dearer (docs/decisions.md).
  (t) => [index('page_views_created_brin').using('brin', t.createdAt).with({ autosummarize: true })],
);

export const conversions = pgTable(
  'conversions',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    sessionId: text().notNull(),
    userId: text(),
    orderId: text(),
    /** Integer cents. */
    orderValue: integer().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('conversions_created_idx').on(t.createdAt),
    index('conversions_session_idx').on(t.sessionId),
    // An order converts once, however often its page reports it.
    uniqueIndex('conversions_order_idx').on(t.orderId),
  ],
);

/** The random salt of each UTC day's visitor hashes; a day's salt is deleted once the day is over. */
export const analyticsSalts = pgTable('analytics_salts', {
  /** YYYY-MM-DD (UTC). */
  day: text().primaryKey(),
  salt: text().notNull(),
  createdAt: createdAt(),
});
