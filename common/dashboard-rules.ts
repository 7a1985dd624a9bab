/**
 * The back-office dashboard's rules (spec sections 2, 3 and 9), shared by the server that
 * computes the figures and the screen that shows them: the ranges and where they start, how a
 * range's time series is bucketed, and the derived rates (profit margin, bounce rate,
 * conversion rate, session length). Every day is a UTC day, as the visitor hashes' salts are.
 */

/** Spec 9: the dashboard's ranges, in the selector's order. */
export const dashboardRanges = ['24h', '7d', '30d', '90d', '1y', 'all'] as const;
export type DashboardRange = (typeof dashboardRanges)[number];

/** Spec 4 and 9: the range shown first. */
export const DEFAULT_DASHBOARD_RANGE: DashboardRange = 'all';
/** Spec 9: the auto-refresh intervals offered, in seconds; 30 by default, auto-refresh on. */
export const DASHBOARD_REFRESH_SECONDS = [10, 30, 60, 300] as const;
export const DEFAULT_DASHBOARD_REFRESH_SECONDS = 30;
/** Spec 9: popular pages, top 5 (the size of the dashboard's pageViewsByPage map). */
export const POPULAR_PAGES_LIMIT = 5;
/** The recent orders table's length. */
export const RECENT_ORDERS_LIMIT = 10;

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** The whole-day ranges and their length in days, today included. */
export const rangeDays = { '7d': 7, '30d': 30, '90d': 90, '1y': 365 } as const;

/** Midnight (UTC) of the day `date` falls on. */
export function startOfUtcDay(date: Date): Date {
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
}

/**
 * Where a range starts: 24h is the last 24 hours to the millisecond; 7d, 30d, 90d and 1y are
 * whole UTC days, today and the days before it (so a chart of days has no half day at its start,
 * and the stored daily figures answer it exactly); 'all' has no start (null).
 */
export function rangeStart(range: DashboardRange, now: Date): Date | null {
  if (range === 'all') return null;
  if (range === '24h') return new Date(now.getTime() - DAY_MS);
  return new Date(startOfUtcDay(now).getTime() - (rangeDays[range] - 1) * DAY_MS);
}

/** The length of one point of a range's time series. */
export const seriesGranularities = ['hour', 'day', 'week', 'month'] as const;
export type SeriesGranularity = (typeof seriesGranularities)[number];

/** 'all' is shown by day up to this many days of history, then by week up to two years, then by month. */
const ALL_BY_DAY_MAX_DAYS = 92;
const ALL_BY_WEEK_MAX_DAYS = 731;

/**
 * How a range's series is bucketed: 24h by hour, 7d to 90d by day (at most 90 points), 1y by
 * week (53), and 'all' by what its history needs: days, then weeks, then months, from the first
 * day with data (`firstDay`; null when there is none yet).
 */
export function seriesGranularity(range: DashboardRange, firstDay: Date | null, now: Date): SeriesGranularity {
  if (range === '24h') return 'hour';
  if (range === '1y') return 'week';
  if (range !== 'all') return 'day';
  const days = firstDay ? Math.round((startOfUtcDay(now).getTime() - startOfUtcDay(firstDay).getTime()) / DAY_MS) : 0;
  if (days < ALL_BY_DAY_MAX_DAYS) return 'day';
  if (days < ALL_BY_WEEK_MAX_DAYS) return 'week';
  return 'month';
}

/** The start of the bucket `date` falls in (UTC; weeks start on Monday, as PostgreSQL's date_trunc). */
export function bucketStart(date: Date, granularity: SeriesGranularity): Date {
  switch (granularity) {
    case 'hour':
      return new Date(Math.floor(date.getTime() / HOUR_MS) * HOUR_MS);
    case 'day':
      return startOfUtcDay(date);
    case 'week': {
      const day = startOfUtcDay(date);
      return new Date(day.getTime() - ((day.getUTCDay() + 6) % 7) * DAY_MS);
    }
    case 'month':
      return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1));
  }
}

/** The next bucket's start. */
function nextBucket(start: Date, granularity: SeriesGranularity): Date {
  switch (granularity) {
    case 'hour':
      return new Date(start.getTime() + HOUR_MS);
    case 'day':
      return new Date(start.getTime() + DAY_MS);
    case 'week':
      return new Date(start.getTime() + 7 * DAY_MS);
    case 'month':
      return new Date(Date.UTC(start.getUTCFullYear(), start.getUTCMonth() + 1, 1));
  }
}

/** Every bucket from the one holding `from` to the one holding `to`, oldest first (empty ones too: a chart needs them). */
export function bucketStarts(granularity: SeriesGranularity, from: Date, to: Date): Date[] {
  const starts: Date[] = [];
  for (let start = bucketStart(from, granularity); start <= to; start = nextBucket(start, granularity)) {
    starts.push(start);
  }
  return starts;
}

/** A percentage rounded half away from zero to `decimals` places (so -2.5 % rounds as 2.5 % does). */
function roundPercent(value: number, decimals: number): number {
  const scale = 10 ** decimals;
  return (Math.sign(value) * Math.round(Math.abs(value) * scale)) / scale;
}

/** Spec 9: profit margin, rounded to a whole percent (profit ÷ revenue); 0 with no revenue. Negative at a loss. */
export function profitMargin(revenue: number, profit: number): number {
  return revenue === 0 ? 0 : roundPercent((profit / revenue) * 100, 0);
}

/**
 * Spec 9: bounce rate, derived from the page views of each visit: the share of sessions that
 * viewed one page only, in percent with one decimal; 0 with no sessions.
 */
export function bounceRate(singlePageSessions: number, sessions: number): number {
  return sessions === 0 ? 0 : roundPercent((singlePageSessions / sessions) * 100, 1);
}

/** The share of visitors who placed a paid order, in percent with two decimals; 0 with no visitors. */
export function conversionRate(orders: number, visitors: number): number {
  return visitors === 0 ? 0 : roundPercent((orders / visitors) * 100, 2);
}

/** The mean session length in minutes (two decimals), from the sessions' summed lengths in milliseconds. */
export function averageSessionMinutes(totalMs: number, sessions: number): number {
  return sessions === 0 ? 0 : Math.round((totalMs / sessions / 60_000) * 100) / 100;
}
