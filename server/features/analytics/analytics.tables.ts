import { bigserial, boolean, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt } from '#server/db/columns.ts';

export const pageViews = pgTable(
  'page_views',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    path: text().notNull(),
    /** The browser tab's analytics session id (kept in session storage). */
    sessionId: text().notNull(),
    /** Only recorded when the visitor accepted cookies. */
    userId: text(),
    cookiesAccepted: boolean().notNull().default(false),
    referrer: text(),
    createdAt: createdAt(),
  },
  (t) => [
    index('page_views_created_idx').on(t.createdAt),
    index('page_views_path_created_idx').on(t.path, t.createdAt),
    index('page_views_session_idx').on(t.sessionId, t.createdAt),
  ],
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
  (t) => [index('conversions_created_idx').on(t.createdAt), index('conversions_session_idx').on(t.sessionId)],
);
