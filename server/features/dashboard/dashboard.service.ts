import { type SQL, sql } from 'drizzle-orm';
import type { Dashboard, DashboardOrder, DashboardPoint } from '#common/contracts/admin/dashboard.ts';
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
  midnightOf,
  pathViews,
} from './page-view-stats.ts';

/** The paid statuses as SQL literals: the partial index on paid orders is chosen only for this very predicate. */
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
/** The rolled-up days a range reads: from its first day (null: all of them), or none (null). */
type RolledDays = { from: Day | null } | null;
type OrderTotals = { orders: number; webOrders: number; revenue: number; costs: number };

/** node-postgres answers bigint and numeric as strings, PGlite as numbers: every figure goes through here. */
const num = (value: unknown) => Number(value ?? 0);

/**
 * The back office's dashboard (spec sections 2, 3 and 4): the figures of a range, each computed by
 * SQL aggregates. Page views of completed days come from the daily rollups
 * (page-view-rollup.job.ts); the days after the latest rolled day, today at least, are read live
 * from page_views through its time index, with the same SQL that rolls them up. Orders, users and
 * reviews are aggregated live through their indexes (orders can still change status).
 */
export function createDashboardService({ db }: { db: Db }) {
  /** The dashboard for `range` as of `now`. */
  async function read(range: DashboardRange, now = new Date()): Promise<Dashboard> {
    const from = rangeStart(range, now);
    const [bounds] = await executeRows<{ lastRolled: Day | null; firstRolled: Day | null; firstOrder: Day | null }>(
      db,
      sql`SELECT (SELECT max(day) FROM page_view_days)::text AS "lastRolled",
                 (SELECT min(day) FROM page_view_days)::text AS "firstRolled",
                 (SELECT (min(created_at) AT TIME ZONE 'UTC')::date FROM orders)::text AS "firstOrder"`,
    );
    const lastRolled = bounds?.lastRolled ?? null;
    // The 24 hours are read live. The whole-day ranges read the rolled days from their first day
    // (every rolled day for 'all'), then live from the day after the latest rolled day.
    const rolled: RolledDays = range === '24h' || lastRolled === null ? null : { from: from ? dayOf(from) : null };
    const liveFrom = rolled && lastRolled ? latest(from, midnightOf(addDays(lastRolled, 1))) : from;

    const firstDay =
      range === 'all' ? await firstDayWithData(bounds?.firstRolled ?? null, bounds?.firstOrder ?? null) : null;
    const granularity = seriesGranularity(range, firstDay, now);
    const seriesFrom = from ?? firstDay ?? startOfUtcDay(now);

    const [pageViews, hourly, popular, orders, counts, recentOrders] = await Promise.all([
      pageViewBuckets(rolled, liveFrom, granularity === 'hour' ? 'day' : granularity),
      granularity === 'hour'
        ? executeRows<{ bucket: string; views: number; visitors: number }>(
            db,
            sql`SELECT ${bucketKey(sql`bucket`)} AS bucket, views, visitors FROM (${hourlyPageViews(from)}) AS h`,
          )
        : Promise.resolve([]),
      popularPages(rolled, liveFrom),
      orderBuckets(from, granularity),
      newAccountsAndReviews(from),
      latestOrders(from),
    ]);

    const series: DashboardPoint[] = bucketStarts(granularity, seriesFrom, now).map((start) => {
      const key = start.toISOString();
      const views = granularity === 'hour' ? hourly.find((row) => row.bucket === key) : pageViews.buckets.get(key);
      const sold = orders.buckets.get(key);
      const revenue = sold?.revenue ?? 0;
      const costs = sold?.costs ?? 0;
      return {
        date: key,
        revenue,
        costs,
        profit: revenue - costs,
        orders: sold?.orders ?? 0,
        pageViews: num(views?.views),
        visitors: num(views?.visitors),
      };
    });

    const { total: viewTotals } = pageViews;
    const { total: orderTotals } = orders;
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
        totalUsers: counts.users,
        totalReviews: counts.reviews,
        averageSessionDuration: averageSessionMinutes(viewTotals.sessionMs, viewTotals.sessions),
        pageViewsByPage: Object.fromEntries(popular.map((row) => [row.path, num(row.views)])),
        profitMargin: profitMargin(orderTotals.revenue, totalProfit),
        bounceRate: bounceRate(viewTotals.singlePageSessions, viewTotals.sessions),
        totalSessions: viewTotals.sessions,
        singlePageSessions: viewTotals.singlePageSessions,
      },
      recentOrders,
      series,
    };
  }

  /**
   * The first day anything was recorded, for the series of 'all': the first rolled day (views
   * are rolled up from their first day on) or the first order, whichever is older; before the
   * first rollup, the first view itself (a scan, only until the first rollup has run).
   */
  async function firstDayWithData(firstRolled: Day | null, firstOrder: Day | null): Promise<Date | null> {
    let firstView = firstRolled;
    if (firstView === null) {
      const [row] = await executeRows<{ day: Day | null }>(
        db,
        sql`SELECT (min(created_at) AT TIME ZONE 'UTC')::date::text AS day FROM page_views`,
      );
      firstView = row?.day ?? null;
    }
    const days = [firstView, firstOrder].filter((day): day is Day => day !== null).sort();
    return days[0] ? midnightOf(days[0]) : null;
  }

  /**
   * Page-view figures per bucket (day, week or month) and for the whole range (the row with no
   * bucket, from GROUPING SETS): the rolled days asked for, then the live days from `liveFrom`
   * (null: from the first view).
   */
  async function pageViewBuckets(
    rolled: RolledDays,
    liveFrom: Date | null,
    granularity: Exclude<SeriesGranularity, 'hour'>,
  ): Promise<{ total: PageViewTotals; buckets: Map<string, PageViewTotals> }> {
    const rolledDays = rolled
      ? sql`SELECT day, views, visitors, sessions, single_page_sessions, session_ms
            FROM page_view_days ${rolled.from ? sql`WHERE day >= ${rolled.from}::date` : sql``}
            UNION ALL `
      : sql``;
    const rows = await executeRows<{
      bucket: string | null;
      views: unknown;
      visitors: unknown;
      sessions: unknown;
      singlePageSessions: unknown;
      sessionMs: unknown;
    }>(
      db,
      sql`SELECT ${bucketKey(sql`bucket`)} AS bucket, sum(views)::float8 AS views, sum(visitors)::float8 AS visitors,
                 sum(sessions)::float8 AS sessions, sum(single_page_sessions)::float8 AS "singlePageSessions",
                 sum(session_ms)::float8 AS "sessionMs"
          FROM (
            SELECT date_trunc(${granularity}, day::timestamp) AS bucket, views, visitors, sessions,
                   single_page_sessions, session_ms
            FROM (${rolledDays}${dailyPageViewStats(liveFrom, null)}) AS days
          ) AS d
          GROUP BY GROUPING SETS ((bucket), ())`,
    );
    const toTotals = (row: (typeof rows)[number] | undefined): PageViewTotals => ({
      views: num(row?.views),
      visitors: num(row?.visitors),
      sessions: num(row?.sessions),
      singlePageSessions: num(row?.singlePageSessions),
      sessionMs: num(row?.sessionMs),
    });
    return {
      total: toTotals(rows.find((row) => row.bucket === null)),
      buckets: new Map(rows.filter((row) => row.bucket !== null).map((row) => [row.bucket as string, toTotals(row)])),
    };
  }

  /** The most viewed pages of the range: rolled days' pages, then the live views', top POPULAR_PAGES_LIMIT. */
  async function popularPages(rolled: RolledDays, liveFrom: Date | null) {
    const rolledPages = rolled
      ? sql`SELECT path, views FROM page_view_day_paths ${rolled.from ? sql`WHERE day >= ${rolled.from}::date` : sql``}
            UNION ALL `
      : sql``;
    // Ties by path in byte order, the same on every database whatever its collation.
    return executeRows<{ path: string; views: unknown }>(
      db,
      sql`SELECT path, sum(views)::float8 AS views
          FROM (${rolledPages}${pathViews(liveFrom)}) AS pages
          GROUP BY path
          ORDER BY views DESC, path COLLATE "C"
          LIMIT ${POPULAR_PAGES_LIMIT}`,
    );
  }

  /**
   * Paid orders per bucket and for the whole range: count, web-shop orders (for the conversion
   * rate), revenue (the total without its sales tax) and marketplace costs. One pass over the
   * partial index of paid orders, which holds every column read.
   */
  async function orderBuckets(
    from: Date | null,
    granularity: SeriesGranularity,
  ): Promise<{ total: OrderTotals; buckets: Map<string, OrderTotals> }> {
    const rows = await executeRows<{
      bucket: string | null;
      orders: unknown;
      webOrders: unknown;
      revenue: unknown;
      costs: unknown;
    }>(
      db,
      sql`SELECT ${bucketKey(sql`bucket`)} AS bucket, count(*)::int AS orders,
                 (count(*) FILTER (WHERE channel = 'web'))::int AS "webOrders",
                 coalesce(sum(total - tax), 0)::float8 AS revenue, coalesce(sum(supplier_cost), 0)::float8 AS costs
          FROM (
            SELECT date_trunc(${granularity}, created_at AT TIME ZONE 'UTC') AS bucket, total, tax, supplier_cost, channel
            FROM orders
            WHERE status IN (${paidStatusList})${from ? sql` AND created_at >= ${from.toISOString()}::timestamptz` : sql``}
          ) AS o
          GROUP BY GROUPING SETS ((bucket), ())`,
    );
    const toTotals = (row: (typeof rows)[number] | undefined): OrderTotals => ({
      orders: num(row?.orders),
      webOrders: num(row?.webOrders),
      revenue: num(row?.revenue),
      costs: num(row?.costs),
    });
    return {
      total: toTotals(rows.find((row) => row.bucket === null)),
      buckets: new Map(rows.filter((row) => row.bucket !== null).map((row) => [row.bucket as string, toTotals(row)])),
    };
  }

  /** Accounts created and reviews written in the range (all of them for 'all'). */
  async function newAccountsAndReviews(from: Date | null): Promise<{ users: number; reviews: number }> {
    const since = from ? sql` WHERE created_at >= ${from.toISOString()}::timestamptz` : sql``;
    const [row] = await executeRows<{ users: unknown; reviews: unknown }>(
      db,
      sql`SELECT (SELECT count(*) FROM users${since})::int AS users, (SELECT count(*) FROM reviews${since})::int AS reviews`,
    );
    return { users: num(row?.users), reviews: num(row?.reviews) };
  }

  /** The range's latest orders, newest first, with their number of units. */
  async function latestOrders(from: Date | null): Promise<DashboardOrder[]> {
    const rows = await executeRows<{
      id: string;
      orderNumber: string;
      name: string;
      email: string;
      total: number;
      status: OrderStatus;
      createdAt: string;
      itemCount: unknown;
    }>(
      db,
      sql`SELECT o.id, o.order_number AS "orderNumber", o.customer_name AS name, o.email, o.total, o.status,
                 to_char(o.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
                 (SELECT coalesce(sum(i.quantity), 0) FROM order_items AS i WHERE i.order_id = o.id)::int AS "itemCount"
          FROM orders AS o
          ${from ? sql`WHERE o.created_at >= ${from.toISOString()}::timestamptz` : sql``}
          ORDER BY o.created_at DESC, o.id DESC
          LIMIT ${RECENT_ORDERS_LIMIT}`,
    );
    return rows.map((row) => ({
      id: row.id,
      orderNumber: row.orderNumber,
      customerInfo: { name: row.name, email: row.email },
      total: num(row.total),
      status: row.status,
      createdAt: row.createdAt,
      itemCount: num(row.itemCount),
    }));
  }

  return { read };
}

export type DashboardService = ReturnType<typeof createDashboardService>;

/** The later of two instants; null is the earliest of all. */
function latest(a: Date | null, b: Date): Date {
  return a && a > b ? a : b;
}
