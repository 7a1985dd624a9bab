import { asc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { type DashboardRange, dashboardRanges } from '#common/dashboard-rules.ts';
import { executeRows } from '#server/db/client.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { pageViews } from '#server/features/analytics/analytics.tables.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { paidStatuses } from '#server/features/orders/order-status.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { reviews } from '#server/features/reviews/reviews.tables.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { createDashboardService } from './dashboard.service.ts';
import { pageViewDays, pageViewMonthPaths } from './dashboard.tables.ts';
import { rollUpPageViews } from './page-view-rollup.job.ts';

/**
 * The dashboard's figures on a small data set whose every figure is worked out by hand, at a fixed
 * time (a Wednesday afternoon, UTC): read live, then again once the completed days are rolled up
 * (partly, then wholly), which must answer exactly the same. PGlite by default, PostgreSQL with
 * DATABASE_URL.
 */
const database = await createMigratedTestDatabase();
const { db } = database;
const dashboard = createDashboardService({ db });
afterAll(() => database.close());

const now = new Date('2025-06-18T15:00:00.000Z');
const at = (iso: string) => new Date(iso);

// Orders: cents; revenue is the total without its tax, costs the lines' unit costs × quantities.
const order = (
  orderNumber: string,
  status: (typeof orders.$inferInsert)['status'],
  createdAt: string,
  money: { total: number; tax: number; cost: number },
  lines: { quantity: number; unitCost: number }[],
  channel: 'web' | 'tiktok-shop' = 'web',
) => ({ orderNumber, status, createdAt, money, lines, channel });
const knownOrders = [
  // Today: 5,799 paid, 300 of it tax; two units at 10.00 from the marketplace.
  order('SW-A', 'processing', '2025-06-18T10:00:00Z', { total: 5799, tax: 300, cost: 2000 }, [
    { quantity: 2, unitCost: 1000 },
  ]),
  // Three days ago, after a 10.00 discount: 9,720 paid, 720 tax.
  order('SW-B', 'completed', '2025-06-15T09:00:00Z', { total: 9720, tax: 720, cost: 3500 }, [
    { quantity: 1, unitCost: 500 },
    { quantity: 3, unitCost: 1000 },
  ]),
  // Yesterday evening, from the social shop: paid, but not a conversion of our visitors.
  order(
    'SW-C',
    'shipped',
    '2025-06-17T20:00:00Z',
    { total: 3000, tax: 0, cost: 1200 },
    [{ quantity: 1, unitCost: 1200 }],
    'tiktok-shop',
  ),
  // Awaiting payment and cancelled: listed, never summed.
  order('SW-D', 'pending', '2025-06-18T11:00:00Z', { total: 4400, tax: 0, cost: 1000 }, [
    { quantity: 1, unitCost: 1000 },
  ]),
  order('SW-E', 'cancelled', '2025-06-16T12:00:00Z', { total: 2500, tax: 100, cost: 900 }, [
    { quantity: 1, unitCost: 900 },
  ]),
  // Six weeks ago (in 90d, not 30d) and last year (only in 'all').
  order('SW-F', 'delivered', '2025-05-01T12:00:00Z', { total: 2000, tax: 100, cost: 800 }, [
    { quantity: 1, unitCost: 800 },
  ]),
  order('SW-G', 'completed', '2024-01-10T12:00:00Z', { total: 4000, tax: 0, cost: 1500 }, [
    { quantity: 2, unitCost: 750 },
  ]),
];

// Page views: [path, session, visitor hash (one per visitor and day), time].
const knownViews: [string, string, string, string][] = [
  // 1 April: one session of two pages, a minute apart.
  ['/about', 's8', 'v8', '2025-04-01T12:00:00Z'],
  ['/', 's8', 'v8', '2025-04-01T12:01:00Z'],
  // 16 June: three pages in five minutes; a bounce; a session that crosses midnight.
  ['/', 's1', 'v1', '2025-06-16T10:00:00Z'],
  ['/products', 's1', 'v1', '2025-06-16T10:02:00Z'],
  ['/product/a', 's1', 'v1', '2025-06-16T10:05:00Z'],
  ['/', 's2', 'v2', '2025-06-16T11:00:00Z'],
  ['/products', 's3', 'v3', '2025-06-16T23:58:00Z'],
  // 17 June: the midnight session's second page (the visitor's hash is new with the day); two pages
  // 90 s apart; the first day's visitor back under a new hash, one page.
  ['/product/a', 's3', 'v3-17', '2025-06-17T00:03:00Z'],
  ['/', 's4', 'v4', '2025-06-17T14:00:00Z'],
  ['/cart', 's4', 'v4', '2025-06-17T14:01:30Z'],
  ['/product/a', 's5', 'v1-17', '2025-06-17T18:00:00Z'],
  // Today: one visitor, two tabs: two pages ten minutes apart, and a bounce.
  ['/', 's6', 'v5', '2025-06-18T09:00:00Z'],
  ['/product/b', 's6', 'v5', '2025-06-18T09:10:00Z'],
  ['/product/b', 's7', 'v5', '2025-06-18T14:30:00Z'],
];

let productId = '';

describe('the dashboard on a known data set', () => {
  test('setup: orders, lines, page views, accounts and reviews', async () => {
    const [product] = await db
      .insert(products)
      .values({ slug: 'calm-lamp', title: 'Calm lamp', price: 2500 })
      .returning({ id: products.id });
    productId = product?.id ?? '';
    for (const known of knownOrders) {
      const [row] = await db
        .insert(orders)
        .values({
          orderNumber: known.orderNumber,
          email: `${known.orderNumber.toLowerCase()}@example.com`,
          customerName: `Customer ${known.orderNumber}`,
          status: known.status,
          subtotal: known.money.total - known.money.tax,
          tax: known.money.tax,
          total: known.money.total,
          supplierCost: known.money.cost,
          channel: known.channel,
          createdAt: at(known.createdAt),
        })
        .returning({ id: orders.id });
      await db.insert(orderItems).values(
        known.lines.map((line) => ({
          orderId: row?.id ?? '',
          productId,
          productName: 'Calm lamp',
          quantity: line.quantity,
          unitPrice: 2500,
          unitCost: line.unitCost,
        })),
      );
    }
    await db.insert(pageViews).values(
      knownViews.map(([path, sessionId, visitorHash, createdAt]) => ({
        path,
        sessionId,
        visitorHash,
        createdAt: at(createdAt),
      })),
    );
    await db.insert(users).values([
      { username: 'new_today', email: 'new.today@example.com', createdAt: at('2025-06-18T08:00:00Z') },
      { username: 'new_june', email: 'new.june@example.com', createdAt: at('2025-06-01T08:00:00Z') },
      { username: 'old_hand', email: 'old.hand@example.com', createdAt: at('2024-05-01T08:00:00Z') },
    ]);
    await db.insert(reviews).values([
      {
        productId,
        customerName: 'Ann',
        rating: 5,
        title: 'Calm',
        content: 'Very calm.',
        moderationStatus: 'pending',
        createdAt: at('2025-06-17T12:00:00Z'),
      },
      {
        productId,
        customerName: 'Bo',
        rating: 4,
        title: 'Nice',
        content: 'A nice lamp.',
        createdAt: at('2025-02-01T12:00:00Z'),
      },
    ]);
  });

  test('7d: paid orders only, revenue without tax, costs, visitors per day, sessions split at midnight', async () => {
    const result = await dashboard.read('7d', now);
    expect(result.timestamp).toBe(now.toISOString());
    expect(result.range).toEqual({ from: '2025-06-12T00:00:00.000Z', granularity: 'day' });
    expect(result.stats).toEqual({
      // A, B and C: 5,499 + 9,000 + 3,000 of revenue; 2,000 + 3,500 + 1,200 of costs.
      totalRevenue: 17_499,
      totalAliExpressCosts: 6_700,
      totalProfit: 10_799,
      profitMargin: 62,
      totalOrders: 3,
      // 16 June: v1, v2, v3; 17 June: v3-17, v4, v1-17; today: v5.
      totalVisitors: 7,
      totalPageViews: 12,
      // Web orders A and B for 7 visitors.
      avgConversionRate: 28.57,
      totalUsers: 1,
      totalReviews: 1,
      // s1 5 min, s4 1.5 min, s6 10 min, and five sessions of one page (s3 on each of its days):
      // 16.5 min over 8 sessions.
      totalSessions: 8,
      singlePageSessions: 5,
      bounceRate: 62.5,
      averageSessionDuration: 2.06,
      pageViewsByPage: { '/': 4, '/product/a': 3, '/product/b': 2, '/products': 2, '/cart': 1 },
    });
    expect(Object.keys(result.stats.pageViewsByPage)).toEqual(['/', '/product/a', '/product/b', '/products', '/cart']);
    expect(result.recentOrders.map((o) => o.orderNumber)).toEqual(['SW-D', 'SW-A', 'SW-C', 'SW-E', 'SW-B']);
    expect(result.recentOrders[1]).toMatchObject({
      orderNumber: 'SW-A',
      customerInfo: { name: 'Customer SW-A', email: 'sw-a@example.com' },
      total: 5799,
      status: 'processing',
      createdAt: '2025-06-18T10:00:00.000Z',
      itemCount: 2,
    });
    expect(result.recentOrders.find((o) => o.orderNumber === 'SW-B')?.itemCount).toBe(4);
    const zero = { revenue: 0, costs: 0, profit: 0, orders: 0, pageViews: 0, visitors: 0 };
    expect(result.series).toEqual([
      { date: '2025-06-12T00:00:00.000Z', ...zero },
      { date: '2025-06-13T00:00:00.000Z', ...zero },
      { date: '2025-06-14T00:00:00.000Z', ...zero },
      { date: '2025-06-15T00:00:00.000Z', ...zero, revenue: 9000, costs: 3500, profit: 5500, orders: 1 },
      { date: '2025-06-16T00:00:00.000Z', ...zero, pageViews: 5, visitors: 3 },
      {
        date: '2025-06-17T00:00:00.000Z',
        revenue: 3000,
        costs: 1200,
        profit: 1800,
        orders: 1,
        pageViews: 4,
        visitors: 3,
      },
      {
        date: '2025-06-18T00:00:00.000Z',
        revenue: 5499,
        costs: 2000,
        profit: 3499,
        orders: 1,
        pageViews: 3,
        visitors: 1,
      },
    ]);
  });

  test('24h: the last 24 hours to the minute, by hour', async () => {
    const result = await dashboard.read('24h', now);
    expect(result.range).toEqual({ from: '2025-06-17T15:00:00.000Z', granularity: 'hour' });
    expect(result.stats).toMatchObject({
      totalRevenue: 5499 + 3000,
      totalAliExpressCosts: 3200,
      totalOrders: 2,
      totalPageViews: 4,
      totalVisitors: 2,
      avgConversionRate: 50,
      totalSessions: 3,
      singlePageSessions: 2,
      bounceRate: 66.7,
      averageSessionDuration: 3.33,
      totalUsers: 1,
      totalReviews: 0,
      pageViewsByPage: { '/product/b': 2, '/': 1, '/product/a': 1 },
    });
    expect(result.series).toHaveLength(25);
    expect(result.series[0]?.date).toBe('2025-06-17T15:00:00.000Z');
    expect(result.series.at(-1)?.date).toBe('2025-06-18T15:00:00.000Z');
    const busy = result.series.filter((point) => point.pageViews > 0 || point.orders > 0);
    expect(busy).toEqual([
      { date: '2025-06-17T18:00:00.000Z', revenue: 0, costs: 0, profit: 0, orders: 0, pageViews: 1, visitors: 1 },
      {
        date: '2025-06-17T20:00:00.000Z',
        revenue: 3000,
        costs: 1200,
        profit: 1800,
        orders: 1,
        pageViews: 0,
        visitors: 0,
      },
      { date: '2025-06-18T09:00:00.000Z', revenue: 0, costs: 0, profit: 0, orders: 0, pageViews: 2, visitors: 1 },
      {
        date: '2025-06-18T10:00:00.000Z',
        revenue: 5499,
        costs: 2000,
        profit: 3499,
        orders: 1,
        pageViews: 0,
        visitors: 0,
      },
      { date: '2025-06-18T14:00:00.000Z', revenue: 0, costs: 0, profit: 0, orders: 0, pageViews: 1, visitors: 1 },
    ]);
  });

  test('30d, 90d and 1y take what falls in their whole days', async () => {
    const month = await dashboard.read('30d', now);
    expect(month.stats).toMatchObject({ totalOrders: 3, totalPageViews: 12, totalUsers: 2, totalReviews: 1 });
    expect(month.series).toHaveLength(30);
    const quarter = await dashboard.read('90d', now);
    expect(quarter.stats).toMatchObject({
      totalOrders: 4,
      totalRevenue: 17_499 + 1900,
      totalAliExpressCosts: 6_700 + 800,
      totalPageViews: 14,
      totalVisitors: 8,
      totalUsers: 2,
      totalReviews: 1,
    });
    expect(quarter.series).toHaveLength(90);
    const year = await dashboard.read('1y', now);
    expect(year.range.granularity).toBe('week');
    expect(year.stats).toMatchObject({ totalOrders: 4, totalUsers: 2, totalReviews: 2 });
    expect(year.series[0]?.date).toBe('2024-06-17T00:00:00.000Z');
    expect(year.series).toHaveLength(53);
  });

  test('all: everything, its series by week from the first order on, adding up to the stats', async () => {
    const result = await dashboard.read('all', now);
    expect(result.range).toEqual({ from: null, granularity: 'week' });
    expect(result.stats).toEqual({
      totalRevenue: 17_499 + 1900 + 4000,
      totalAliExpressCosts: 6_700 + 800 + 1500,
      totalProfit: 23_399 - 9000,
      profitMargin: 62,
      totalOrders: 5,
      totalVisitors: 8,
      totalPageViews: 14,
      // Web orders A, B, F and G for 8 visitors.
      avgConversionRate: 50,
      totalUsers: 3,
      totalReviews: 2,
      totalSessions: 9,
      singlePageSessions: 5,
      bounceRate: 55.6,
      averageSessionDuration: 1.94,
      pageViewsByPage: { '/': 5, '/product/a': 3, '/product/b': 2, '/products': 2, '/about': 1 },
    });
    // The week of 10 January 2024 (a Wednesday) to this week.
    expect(result.series[0]?.date).toBe('2024-01-08T00:00:00.000Z');
    expect(result.series.at(-1)?.date).toBe('2025-06-16T00:00:00.000Z');
    const sum = (field: 'revenue' | 'costs' | 'orders' | 'pageViews' | 'visitors') =>
      result.series.reduce((total, point) => total + point[field], 0);
    expect(sum('revenue')).toBe(result.stats.totalRevenue);
    expect(sum('costs')).toBe(result.stats.totalAliExpressCosts);
    expect(sum('orders')).toBe(result.stats.totalOrders);
    expect(sum('pageViews')).toBe(result.stats.totalPageViews);
    expect(sum('visitors')).toBe(result.stats.totalVisitors);
    expect(result.recentOrders).toHaveLength(7);
  });

  test('rolled-up days answer exactly as the live views: partly rolled up, then wholly', async () => {
    const live = await readAll();

    // On 16 June at 05:00, days up to 15 June were complete: 16 June (the midnight session) stays live.
    expect(await rollUpPageViews(db, at('2025-06-16T05:00:00Z'))).toEqual({ days: 76 });
    const days = await db.select().from(pageViewDays).orderBy(asc(pageViewDays.day));
    expect(days[0]).toEqual({
      day: '2025-04-01',
      views: 2,
      visitors: 1,
      sessions: 1,
      singlePageSessions: 0,
      sessionMs: 60_000,
    });
    // Days without views are rows of zeros: the rolled days have no gap.
    expect(days[1]).toEqual({
      day: '2025-04-02',
      views: 0,
      visitors: 0,
      sessions: 0,
      singlePageSessions: 0,
      sessionMs: 0,
    });
    expect(days.at(-1)?.day).toBe('2025-06-15');
    expect(await readAll()).toEqual(live);

    // At 15:00 on 18 June, up to 17 June; a second run finds nothing more to do.
    expect(await rollUpPageViews(db, now)).toEqual({ days: 2 });
    expect(await rollUpPageViews(db, now)).toEqual({ days: 0 });
    const rolled = await db.select().from(pageViewDays).orderBy(asc(pageViewDays.day));
    expect(rolled.slice(-2)).toEqual([
      { day: '2025-06-16', views: 5, visitors: 3, sessions: 3, singlePageSessions: 2, sessionMs: 300_000 },
      { day: '2025-06-17', views: 4, visitors: 3, sessions: 3, singlePageSessions: 2, sessionMs: 90_000 },
    ]);
    // Each month's pages hold its rolled days' views, added once whatever the number of runs.
    const months = await db.select().from(pageViewMonthPaths);
    expect(months.map((row) => `${row.month} ${row.path} ${row.views}`).sort()).toEqual([
      '2025-04-01 / 1',
      '2025-04-01 /about 1',
      '2025-06-01 / 3',
      '2025-06-01 /cart 1',
      '2025-06-01 /product/a 3',
      '2025-06-01 /products 2',
    ]);
    expect(await readAll()).toEqual(live);
  });

  test('a day is rolled up only once it has been over for ten minutes', async () => {
    expect(await rollUpPageViews(db, at('2025-06-19T00:09:00Z'))).toEqual({ days: 0 });
    expect(await rollUpPageViews(db, at('2025-06-19T00:11:00Z'))).toEqual({ days: 1 });
    // Today's views now come from the rollup: the figures as of 15:00 include the whole day's views.
    expect((await dashboard.read('7d', now)).stats.totalPageViews).toBe(12);
  });
});

describe('the day sums of paid orders (order_days, kept by a trigger)', () => {
  test('follow every write to orders: a cancellation, a refund, new amounts, a move, a delete', async () => {
    const revenueOf7d = async () => (await dashboard.read('7d', now)).stats.totalRevenue;
    expect(await revenueOf7d()).toBe(17_499);
    // Cancelled: out of the figures at once.
    await db.update(orders).set({ status: 'cancelled' }).where(eq(orders.orderNumber, 'SW-A'));
    expect(await revenueOf7d()).toBe(17_499 - 5499);
    // A pending order paid, one paid order moving on through fulfilment, another's amounts corrected.
    await db.update(orders).set({ status: 'processing' }).where(eq(orders.orderNumber, 'SW-D'));
    await db
      .update(orders)
      .set({ status: 'delivered', aliTrackingNumber: 'LP001' })
      .where(eq(orders.orderNumber, 'SW-C'));
    await db.update(orders).set({ total: 9000, tax: 500, supplierCost: 3000 }).where(eq(orders.orderNumber, 'SW-B'));
    // Moved to another day and channel, and several rows in one statement.
    await db
      .update(orders)
      .set({ createdAt: at('2025-06-14T08:00:00Z'), channel: 'tiktok-shop' })
      .where(eq(orders.orderNumber, 'SW-F'));
    await db
      .update(orders)
      .set({ status: 'completed' })
      .where(inArray(orders.orderNumber, ['SW-E', 'SW-G']));
    await db.delete(orders).where(eq(orders.orderNumber, 'SW-G'));

    // The kept sums are exactly the orders' own, grouped afresh.
    const kept = await executeRows<Record<string, unknown>>(
      db,
      sql`SELECT day::text, channel, orders::int, revenue::float8, costs::float8 FROM order_days
          WHERE orders <> 0 OR revenue <> 0 OR costs <> 0 ORDER BY 1, 2`,
    );
    const fresh = await executeRows<Record<string, unknown>>(
      db,
      sql`SELECT (created_at AT TIME ZONE 'UTC')::date::text AS day, channel, count(*)::int AS orders,
                 sum(total - tax)::float8 AS revenue, sum(supplier_cost)::float8 AS costs
          FROM orders WHERE status IN (${sql.raw(paidStatuses.map((s) => `'${s}'`).join(', '))})
          GROUP BY 1, 2 ORDER BY 1, 2`,
    );
    expect(kept).toEqual(fresh);
    expect(kept.map((row) => row.day)).toEqual(['2025-06-14', '2025-06-15', '2025-06-16', '2025-06-17', '2025-06-18']);
    // In 7 days: B (8,500), C (3,000), D (4,400), E (2,400) and F (1,900).
    expect(await revenueOf7d()).toBe(8500 + 3000 + 4400 + 2400 + 1900);
  });
});

async function readAll() {
  const answers: Partial<Record<DashboardRange, unknown>> = {};
  for (const range of dashboardRanges) answers[range] = await dashboard.read(range, now);
  return answers;
}
