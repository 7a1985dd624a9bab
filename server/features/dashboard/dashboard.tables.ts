import { bigint, date, integer, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';

/**
 * Each completed UTC day's page views, rolled up once the day is over (page-view-rollup.job.ts),
 * so the dashboard's long ranges read one row a day instead of every view. Days are written in
 * order and with no gap (a day without views is a row of zeros): every day up to the latest row
 * is rolled up, and views after it are read live. A rolled day never changes: views are stored
 * with the time they arrived.
 */
export const pageViewDays = pgTable('page_view_days', {
  day: date({ mode: 'string' }).primaryKey(),
  views: integer().notNull(),
  /** Distinct visitor hashes of the day (salted per day, so days add up). */
  visitors: integer().notNull(),
  /** Browser sessions seen that day; a session crossing midnight counts on both days. */
  sessions: integer().notNull(),
  /** Sessions with one page view that day (bounces). */
  singlePageSessions: integer().notNull(),
  /** The day's sessions' lengths (first to last view of the day), summed, in milliseconds. */
  sessionMs: bigint({ mode: 'number' }).notNull(),
});

/** Each completed UTC day's views per page (for the popular pages), written with the day's row. */
export const pageViewDayPaths = pgTable(
  'page_view_day_paths',
  {
    day: date({ mode: 'string' }).notNull(),
    path: text().notNull(),
    views: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.path] })],
);

/**
 * Each month's views per page over its rolled-up days, added to as days are rolled up: the
 * popular pages of a long range read a row per month and page instead of one per day and page.
 */
export const pageViewMonthPaths = pgTable(
  'page_view_month_paths',
  {
    /** The month's first day. */
    month: date({ mode: 'string' }).notNull(),
    path: text().notNull(),
    views: integer().notNull(),
  },
  (t) => [primaryKey({ columns: [t.month, t.path] })],
);

/**
 * Paid orders (not pending, not cancelled) per UTC day and channel: count, revenue (total less
 * tax) and marketplace costs, kept by the database as orders are written (the trigger of
 * migration 0011, whoever writes them), so a range's sums read a row per day whatever the number
 * of orders, and an order's cancellation shows at once.
 */
export const orderDays = pgTable(
  'order_days',
  {
    day: date({ mode: 'string' }).notNull(),
    channel: text().notNull(),
    orders: integer().notNull(),
    /** Cents. */
    revenue: bigint({ mode: 'number' }).notNull(),
    /** Cents. */
    costs: bigint({ mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.day, t.channel] })],
);
