import { count } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { Dashboard } from '#common/contracts/admin/dashboard.ts';
import { startOfUtcDay } from '#common/dashboard-rules.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { pageViews } from '#server/features/analytics/analytics.tables.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { rollUpPageViews } from './page-view-rollup.job.ts';

/**
 * GET /api/admin/dashboard through the whole app, on a shop with nothing but the test's own data
 * (placed at noon of past days, so no range edge or midnight is near it whenever the test runs).
 */
const { app, database } = await buildTestApp({ database: await createMigratedTestDatabase() });
const { db } = database;

const HOUR = 60 * 60 * 1000;
const today = startOfUtcDay(new Date());
const daysAgo = (days: number, hours = 12) => new Date(today.getTime() - days * 24 * HOUR + hours * HOUR);

describe('GET /api/admin/dashboard', () => {
  test('every admin may read it: 401 for visitors, 403 for shoppers, 200 for an admin without permissions', async () => {
    const visitor = testClient(app, { remoteAddress: '10.76.0.1' });
    expect((await visitor.get('/api/admin/dashboard')).statusCode).toBe(401);
    const { browser: shopper } = await signedInAs(app, db, 'user');
    const refused = await shopper.get('/api/admin/dashboard?timeRange=7d');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'Admin access required', code: 'forbidden' });
    const { browser: admin } = await signedInAs(app, db, 'admin', {});
    const response = await admin.get('/api/admin/dashboard');
    expect(response.statusCode).toBe(200);
    expect(response.json().timeRange).toBe('all');
  });

  test.each(['timeRange=2d', 'timeRange=ALL', 'timeRange=', 'timeRange=7d&timeRange=30d'])(
    'a range that is not the spec’s (%s) is refused with 400 naming timeRange',
    async (query) => {
      const { browser } = await signedInAs(app, db, 'admin');
      const response = await browser.get(`/api/admin/dashboard?${query}`);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_input', field: 'timeRange' });
    },
  );

  test('the figures of a known shop, the same once its days are rolled up', async () => {
    const { browser } = await signedInAs(app, db, 'admin', { manageUsers: true });
    const placed = async (
      orderNumber: string,
      status: 'processing' | 'completed' | 'pending' | 'cancelled',
      createdAt: Date,
      { total, tax, quantity, unitCost }: { total: number; tax: number; quantity: number; unitCost: number },
    ) => {
      const [row] = await db
        .insert(orders)
        .values({
          orderNumber,
          email: `${orderNumber.toLowerCase()}@example.com`,
          customerName: `Customer ${orderNumber}`,
          status,
          subtotal: total - tax,
          tax,
          total,
          supplierCost: quantity * unitCost,
          createdAt,
        })
        .returning({ id: orders.id });
      await db
        .insert(orderItems)
        .values({ orderId: row?.id ?? '', productName: 'Calm lamp', quantity, unitPrice: 1000, unitCost });
    };
    await placed('SW-1', 'completed', daysAgo(3), { total: 5400, tax: 400, quantity: 2, unitCost: 1500 });
    await placed('SW-2', 'processing', daysAgo(1), { total: 2100, tax: 100, quantity: 1, unitCost: 800 });
    await placed('SW-3', 'cancelled', daysAgo(2), { total: 9900, tax: 0, quantity: 3, unitCost: 2000 });
    await placed('SW-4', 'pending', daysAgo(1, 13), { total: 3000, tax: 0, quantity: 1, unitCost: 1000 });
    await placed('SW-5', 'completed', daysAgo(40), { total: 1000, tax: 0, quantity: 1, unitCost: 300 });
    const view = (path: string, sessionId: string, visitorHash: string, createdAt: Date) => ({
      path,
      sessionId,
      visitorHash,
      createdAt,
    });
    await db
      .insert(pageViews)
      .values([
        view('/', 'a', 'visitor-a', daysAgo(3)),
        view('/products', 'a', 'visitor-a', new Date(daysAgo(3).getTime() + 4 * 60_000)),
        view('/', 'b', 'visitor-b', daysAgo(2)),
        view('/cart', 'c', 'visitor-c', daysAgo(40)),
      ]);
    const [accounts] = await db.select({ n: count() }).from(users);

    const read = async (range: string) => {
      const response = await browser.get(`/api/admin/dashboard?timeRange=${range}`);
      expect(response.statusCode).toBe(200);
      return Dashboard.parse(response.json());
    };
    const week = await read('7d');
    expect(week.stats).toEqual({
      totalRevenue: 5000 + 2000,
      totalAliExpressCosts: 3000 + 800,
      totalProfit: 3200,
      profitMargin: 46,
      totalOrders: 2,
      totalVisitors: 2,
      totalPageViews: 3,
      avgConversionRate: 100,
      totalUsers: accounts?.n,
      totalReviews: 0,
      totalSessions: 2,
      singlePageSessions: 1,
      bounceRate: 50,
      averageSessionDuration: 2,
      pageViewsByPage: { '/': 2, '/products': 1 },
    });
    expect(week.recentOrders.map((order) => [order.orderNumber, order.status, order.itemCount])).toEqual([
      ['SW-4', 'pending', 1],
      ['SW-2', 'processing', 1],
      ['SW-3', 'cancelled', 3],
      ['SW-1', 'completed', 2],
    ]);
    expect(week.series).toHaveLength(7);
    expect(week.series[3]).toEqual({
      date: daysAgo(3, 0).toISOString(),
      revenue: 5000,
      costs: 3000,
      profit: 2000,
      orders: 1,
      pageViews: 2,
      visitors: 1,
    });

    const all = await read('all');
    expect(all.stats).toMatchObject({
      totalRevenue: 8000,
      totalAliExpressCosts: 4100,
      totalOrders: 3,
      totalPageViews: 4,
      totalVisitors: 3,
      totalSessions: 3,
      pageViewsByPage: { '/': 2, '/cart': 1, '/products': 1 },
    });
    expect(all.range).toEqual({ from: null, granularity: 'day' });
    expect(all.series).toHaveLength(41);
    expect((await read('24h')).range.granularity).toBe('hour');

    // The completed days rolled up, as the background job does: the same answers.
    await rollUpPageViews(db);
    const { timestamp: _before, ...weekLive } = week;
    const { timestamp: _after, ...weekRolled } = await read('7d');
    expect(weekRolled).toEqual(weekLive);
    const { timestamp: _allBefore, ...allLive } = all;
    const { timestamp: _allAfter, ...allRolled } = await read('all');
    expect(allRolled).toEqual(allLive);
  });
});
