import { type SQL, sql } from 'drizzle-orm';
import type { Dashboard, DashboardPoint } from '#common/contracts/admin/dashboard.ts';
import type { OrderStatus } from '#common/contracts/orders.ts';
import {
  averageSessionMinutes,
  bounceRate,
  bucketStarts,
  conversionRate,
  type DashboardRange,
  POPULAR_PAGES_LIMIT,
  profitMargin,
  RECENT_ORDERS_LIMIT,
  rangeStart,
  type SeriesGranularity,
  seriesGranularity,
  startOfUtcDay,
} from '#common/dashboard-rules.ts';
import { type Db, executeRows } from '#server/db/client.ts';
import { paidStatuses } from '#server/features/orders/order-status.ts';
import {
  addDays,
  type Day,
  dailyPageViewStats,
  dayOf,
  hourlyPageViews,
  instant,
  midnightOf,
  pathViews,
} from './page-view-stats.ts';

/** The paid statuses as SQL literals (our own constants), as the order_days trigger has them. */
const paidStatusList = sql.raw(paidStatuses.map((status) => `'${status}'`).join(', '));

/** A bucket's start as the series' key: the ISO form of a UTC timestamp (PostgreSQL's and JavaScript's alike). */
const bucketKey = (column: SQL) => sql`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS".000Z"')`;

type PageViewTotals = {
  views: number;
  visitors: number;
  sessions: number;
  singlePageSessions: number;
  sessionMs: number;
};
type OrderTotals = { orders: number; webOrders: number; revenue: number; costs: number };
/** A bucket's row; the range's total has none (GROUPING SETS). */
type Bucketed<T> = T & { bucket: string | null };

/** The figures of a range as its one statement answers them (the lists as JSON). */
type Figures = {
  pageViews: Bucketed<PageViewTotals>[];
  hourly: { bucket: string; views: number; visitors: number }[];
  popular: { path: string; views: number }[];
  orders: Bucketed<OrderTotals>[];
  users: number;
  reviews: number;
  recentOrders: {
    id: string;
    orderNumber: string;
    name: string;
    email: string;
    total: number;
    status: OrderStatus;
    createdAt: string;
    itemCount: number;
  }[];
};

/** node-postgres answers bigint and numeric as strings, PGlite as numbers: every figure goes through here. */
const num = (value: unknown) => Number(value ?? 0);

/**
 * The back office's dashboard (spec sections 2, 3 and 4): the figures of a range, each an SQL
 * aggregate, none summed in JavaScript, all read by one statement, so in one snapshot: every
 * figure as of the same moment. It reads the rollups through the latest rolled-up day as read
 * just before, so a day rolled up in between is neither missed nor counted twice. Page views of completed days come from the daily rollups (page-view-rollup.job.ts:
 * per day, per day and page, per month and page); the days after the latest rolled day, today at
 * least, are read live from page_views through its time index, with the same SQL that rolls them
 * up. Paid orders come from the day sums the database keeps as orders are written (order_days),
 * the last 24 hours from the orders themselves; new accounts, reviews and the recent orders
 * through their time indexes.
 */
export function createDashboardService({ db }: { db: Db }) {
  /** The dashboard for `range` as of `now`. */
  async function read(range: DashboardRange, now = new Date()): Promise<Dashboard> {
    const from = rangeStart(range, now);
    const bounds = await boundsOf(db, range === 'all');
    const granularity = seriesGranularity(range, bounds.firstDay, now);
    const [figures] = await executeRows<Figures>(db, figuresOf(range, from, bounds.rolledThrough, granularity));
    if (!figures) throw new Error('the dashboard query answered no row');

    const viewTotals = totalsOf(figures.pageViews);
    const orderTotals = totalsOf(figures.orders);
    const viewsBy = new Map<string | null, { views: number; visitors: number }>(
      granularity === 'hour'
        ? figures.hourly.map((row) => [row.bucket, row])
        : figures.pageViews.map((row) => [row.bucket, row]),
    );
    const ordersBy = new Map(figures.orders.map((row) => [row.bucket, row]));
    const series: DashboardPoint[] = bucketStarts(granularity, from ?? bounds.firstDay ?? startOfUtcDay(now), now).map(
      (start) => {
        const key = start.toISOString();
        const views = viewsBy.get(key);
        const sold = ordersBy.get(key);
        const revenue = num(sold?.revenue);
        const costs = num(sold?.costs);
        return {
          date: key,
          revenue,
          costs,
          profit: revenue - costs,
          orders: num(sold?.orders),
          pageViews: num(views?.views),
          visitors: num(views?.visitors),
        };
      },
    );
    const totalProfit = orderTotals.revenue - orderTotals.costs;
    return {
      timestamp: now.toISOString(),
      timeRange: range,
      range: { from: from?.toISOString() ?? null, granularity },
      stats: {
        totalProfit,
        totalRevenue: orderTotals.revenue,
        totalAliExpressCosts: orderTotals.costs,
        totalOrders: orderTotals.orders,
        totalVisitors: viewTotals.visitors,
        totalPageViews: viewTotals.views,
        avgConversionRate: conversionRate(orderTotals.webOrders, viewTotals.visitors),
        totalUsers: num(figures.users),
        totalReviews: num(figures.reviews),
        averageSessionDuration: averageSessionMinutes(viewTotals.sessionMs, viewTotals.sessions),
        pageViewsByPage: Object.fromEntries(figures.popular.map((row) => [row.path, num(row.views)])),
        profitMargin: profitMargin(orderTotals.revenue, totalProfit),
        bounceRate: bounceRate(viewTotals.singlePageSessions, viewTotals.sessions),
        totalSessions: viewTotals.sessions,
        singlePageSessions: viewTotals.singlePageSessions,
      },
      recentOrders: figures.recentOrders.map((order) => ({
        id: order.id,
        orderNumber: order.orderNumber,
        customerInfo: { name: order.name, email: order.email },
        total: num(order.total),
        status: order.status,
        createdAt: order.createdAt,
        itemCount: num(order.itemCount),
      })),
      series,
    };
  }

  return { read };
}

export type DashboardService = ReturnType<typeof createDashboardService>;

/** The range's total row (the one without a bucket), each figure a number; zeros when empty. */
function totalsOf<T extends Record<string, unknown>>(rows: Bucketed<T>[]): { [K in keyof T]: number } {
  const total = rows.find((row) => row.bucket === null) ?? ({} as Bucketed<T>);
  return Object.fromEntries(
    Object.entries(total)
      .filter(([key]) => key !== 'bucket')
      .map(([key, value]) => [key, num(value)]),
  ) as { [K in keyof T]: number };
}

/**
 * The latest rolled-up day (null before the first rollup) and, for 'all' (`withFirstDay`), the
 * first day anything was recorded: the first rolled day (views are rolled up from their first
 * day on) or the first order, whichever is older; before the first rollup, the first view itself
 * (a scan, only until the first rollup has run).
 */
async function boundsOf(db: Db, withFirstDay: boolean): Promise<{ rolledThrough: Day | null; firstDay: Date | null }> {
  const [row] = await executeRows<{ lastRolled: Day | null; firstRolled: Day | null; firstOrder: Day | null }>(
    db,
    sql`SELECT (SELECT max(day) FROM page_view_days)::text AS "lastRolled",
               (SELECT min(day) FROM page_view_days)::text AS "firstRolled",
               (SELECT (min(created_at) AT TIME ZONE 'UTC')::date FROM orders)::text AS "firstOrder"`,
  );
  const rolledThrough = row?.lastRolled ?? null;
  if (!withFirstDay) return { rolledThrough, firstDay: null };
  let firstView = row?.firstRolled ?? null;
  if (firstView === null) {
    const [first] = await executeRows<{ day: Day | null }>(
      db,
      sql`SELECT (min(created_at) AT TIME ZONE 'UTC')::date::text AS day FROM page_views`,
    );
    firstView = first?.day ?? null;
  }
  const days = [firstView, row?.firstOrder ?? null].filter((day): day is Day => day !== null).sort();
  return { rolledThrough, firstDay: days[0] ? midnightOf(days[0]) : null };
}

/** A list as a JSON array (empty when there is no row), ordered as given. */
const jsonList = (rows: SQL, orderBy: SQL) =>
  sql`(SELECT coalesce(json_agg(r ORDER BY ${orderBy}), '[]'::json) FROM (${rows}) AS r)`;

/**
 * The one statement of a range's figures (one snapshot). The whole-day ranges read the days
 * rolled up through `rolledThrough` from their first day (every one for 'all'), and the live
 * views from the day after; the 24 hours read only live views. Bounded by `rolledThrough`, a
 * day rolled up since it was read is not counted twice.
 */
function figuresOf(
  range: DashboardRange,
  from: Date | null,
  rolledThrough: Day | null,
  granularity: SeriesGranularity,
): SQL {
  const rolled: RolledDays | null =
    range === '24h' || rolledThrough === null ? null : { from: from ? dayOf(from) : null, through: rolledThrough };
  const liveFrom = rolled ? later(from, midnightOf(addDays(rolled.through, 1))) : from;
  const since = from ? sql` WHERE created_at >= ${instant(from)}` : sql``;
  const hourly = from
    ? sql`SELECT ${bucketKey(sql`bucket`)} AS bucket, views, visitors FROM (${hourlyPageViews(instant(from))}) AS h`
    : null;
  return sql`
    SELECT ${jsonList(pageViewBuckets(rolled, liveFrom, granularity === 'hour' ? 'day' : granularity), sql`r.bucket`)} AS "pageViews",
           ${granularity === 'hour' && hourly ? jsonList(hourly, sql`r.bucket`) : sql`'[]'::json`} AS hourly,
           ${jsonList(popularPages(rolled, liveFrom), sql`r.views DESC, r.path COLLATE "C"`)} AS popular,
           ${jsonList(orderBuckets(range, from, granularity), sql`r.bucket`)} AS orders,
           (SELECT count(*) FROM users${since})::int AS users,
           (SELECT count(*) FROM reviews${since})::int AS reviews,
           ${jsonList(latestOrders(from), sql`r."createdAt" DESC, r.id DESC`)} AS "recentOrders"`;
}

/** The rolled-up days a range reads: from its first day (null: from the first of all) through the latest. */
type RolledDays = { from: Day | null; through: Day };

/** The later of two instants; null is the earliest of all. */
function later(a: Date | null, b: Date): Date {
  return a && a > b ? a : b;
}

/**
 * Page-view figures per bucket (day, week or month) and for the whole range (the row with no
 * bucket, from GROUPING SETS): the rolled days asked for, then the live days from `liveFrom`
 * (null: every view).
 */
function pageViewBuckets(
  rolled: RolledDays | null,
  liveFrom: Date | null,
  granularity: Exclude<SeriesGranularity, 'hour'>,
): SQL {
  const rolledDays = rolled
    ? sql`SELECT day, views, visitors, sessions, single_page_sessions, session_ms
          FROM page_view_days
          WHERE day <= ${rolled.through}::date${rolled.from ? sql` AND day >= ${rolled.from}::date` : sql``}
          UNION ALL `
    : sql``;
  return sql`
    SELECT ${bucketKey(sql`bucket`)} AS bucket, sum(views)::float8 AS views, sum(visitors)::float8 AS visitors,
           sum(sessions)::float8 AS sessions, sum(single_page_sessions)::float8 AS "singlePageSessions",
           sum(session_ms)::float8 AS "sessionMs"
    FROM (
      SELECT date_trunc(${granularity}, day::timestamp) AS bucket, views, visitors, sessions,
             single_page_sessions, session_ms
      FROM (${rolledDays}${dailyPageViewStats(liveFrom ? instant(liveFrom) : null, null)}) AS days
    ) AS d
    GROUP BY GROUPING SETS ((bucket), ())`;
}

/**
 * The most viewed pages of the range, top POPULAR_PAGES_LIMIT, ties by path in byte order (the
 * same on every database whatever its collation): the rolled days' pages by month for the whole
 * months of the range that are rolled up, by day for its other rolled days, then the live views.
 */
function popularPages(rolled: RolledDays | null, liveFrom: Date | null): SQL {
  let rolledPages = sql``;
  if (rolled) {
    // Whole months: from the first that starts in the range to the last whose days are all rolled up.
    const monthsFrom = rolled.from ? firstMonthFrom(rolled.from) : null;
    const monthsUntil = monthStart(addDays(rolled.through, 1));
    rolledPages = sql`
      SELECT path, views FROM page_view_month_paths
      WHERE month < ${monthsUntil}::date${monthsFrom ? sql` AND month >= ${monthsFrom}::date` : sql``}
      UNION ALL
      SELECT path, views FROM page_view_day_paths
      WHERE day <= ${rolled.through}::date${rolled.from ? sql` AND day >= ${rolled.from}::date` : sql``}
        AND (day >= ${monthsUntil}::date${monthsFrom ? sql` OR day < ${monthsFrom}::date` : sql``})
      UNION ALL `;
  }
  return sql`
    SELECT path, sum(views)::float8 AS views
    FROM (${rolledPages}${pathViews(liveFrom ? instant(liveFrom) : null)}) AS pages
    GROUP BY path
    ORDER BY views DESC, path COLLATE "C"
    LIMIT ${POPULAR_PAGES_LIMIT}`;
}

/**
 * Paid orders per bucket and for the whole range (the row with no bucket): count, web-shop orders
 * (for the conversion rate), revenue (the total without its sales tax) and marketplace costs.
 * The whole-day ranges read the days' sums the database keeps (order_days, a row per day and
 * channel); the last 24 hours, by hour, read the orders themselves through their status and
 * time index.
 */
function orderBuckets(range: DashboardRange, from: Date | null, granularity: SeriesGranularity): SQL {
  const perPeriod =
    range === '24h'
      ? sql`SELECT date_trunc('hour', created_at AT TIME ZONE 'UTC') AS period, channel, 1 AS orders,
                   total - tax AS revenue, supplier_cost AS costs
            FROM orders
            WHERE status IN (${paidStatusList})${from ? sql` AND created_at >= ${instant(from)}` : sql``}`
      : sql`SELECT day::timestamp AS period, channel, orders, revenue, costs
            FROM order_days${from ? sql` WHERE day >= ${dayOf(from)}::date` : sql``}`;
  return sql`
    SELECT ${bucketKey(sql`bucket`)} AS bucket, coalesce(sum(orders), 0)::int AS orders,
           coalesce(sum(orders) FILTER (WHERE channel = 'web'), 0)::int AS "webOrders",
           coalesce(sum(revenue), 0)::float8 AS revenue, coalesce(sum(costs), 0)::float8 AS costs
    FROM (SELECT date_trunc(${granularity}, period) AS bucket, channel, orders, revenue, costs
          FROM (${perPeriod}) AS p) AS o
    GROUP BY GROUPING SETS ((bucket), ())`;
}

/** The range's latest orders, newest first, with their number of units. */
function latestOrders(from: Date | null): SQL {
  return sql`
    SELECT o.id, o.order_number AS "orderNumber", o.customer_name AS name, o.email, o.total, o.status,
           to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
           (SELECT coalesce(sum(i.quantity), 0) FROM order_items AS i WHERE i.order_id = o.id)::int AS "itemCount"
    FROM orders AS o
    ${from ? sql`WHERE o.created_at >= ${instant(from)}` : sql``}
    ORDER BY o.created_at DESC, o.id DESC
    LIMIT ${RECENT_ORDERS_LIMIT}`;
}

/** The first day of `day`'s month. */
function monthStart(day: Day): Day {
  return `${day.slice(0, 7)}-01`;
}

/** The first day of the first month that starts on or after `day`. */
function firstMonthFrom(day: Day): Day {
  if (day.endsWith('-01')) return day;
  const date = midnightOf(day);
  return dayOf(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)));
}
