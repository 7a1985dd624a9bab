import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { orders } from '#server/features/orders/orders.tables.ts';
import { latestPaidOrder } from '#server/features/orders/orders-test-helpers.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { analyticsSalts, conversions, pageViews } from './analytics.tables.ts';

const { app, database } = await buildTestApp();
const { db } = database;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
let counter = 0;
const address = () => `10.80.${Math.floor(++counter / 200)}.${counter % 200}`;
const visitor = (remoteAddress = address(), userAgent = BROWSER) =>
  testClient(app, { remoteAddress, headers: { 'user-agent': userAgent } });
const session = () => `tab${Date.now().toString(36)}${++counter}`;

/** The page views of one analytics session, once written (the test app writes each at once). */
async function viewsOf(sessionId: string, expected: number) {
  await expect
    .poll(async () => (await db.select().from(pageViews).where(eq(pageViews.sessionId, sessionId))).length)
    .toBe(expected);
  // Views of one millisecond tie on their time: these tests visit their pages in path order.
  return db
    .select()
    .from(pageViews)
    .where(eq(pageViews.sessionId, sessionId))
    .orderBy(pageViews.createdAt, pageViews.path);
}

describe('POST /api/analytics/pageview', () => {
  test('records the page, the session and a visitor hash, never the address', async () => {
    const ip = address();
    const sessionId = session();
    const browser = visitor(ip);
    for (const page of ['/', '/product/desktop-fountain']) {
      const response = await browser.post('/api/analytics/pageview', { page, cookiesAccepted: false, sessionId });
      // A beacon: answered with no body.
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
    }
    const rows = await viewsOf(sessionId, 2);
    expect(rows.map((row) => row.path)).toEqual(['/', '/product/desktop-fountain']);
    expect(rows[0]?.visitorHash).toMatch(/^[0-9a-f]{32}$/);
    expect(rows[1]?.visitorHash).toBe(rows[0]?.visitorHash);
    expect(JSON.stringify(rows)).not.toContain(ip);
    // Another address (or browser) is another visitor.
    const other = session();
    await visitor().post('/api/analytics/pageview', { page: '/', cookiesAccepted: false, sessionId: other });
    expect((await viewsOf(other, 1))[0]?.visitorHash).not.toBe(rows[0]?.visitorHash);
    // One salt a day, kept in the database for every instance.
    const salts = await db.select().from(analyticsSalts);
    expect(salts.map((salt) => salt.day)).toContain(new Date().toISOString().slice(0, 10));
  });

  test("keeps the signed-in user's own id, only with cookies accepted; a claimed id is ignored", async () => {
    const browser = visitor();
    const id = `${Date.now().toString(36)}${++counter}`;
    const registered = await browser.post('/api/auth/register', {
      username: `viewer_${id}`,
      email: `viewer.${id}@example.com`,
      password: 'Quiet-Water-42',
    });
    const user = registered.json().user as { id: string };
    const sessionId = session();
    await browser.post('/api/analytics/pageview', { page: '/a', cookiesAccepted: true, sessionId, userId: 'someone' });
    await browser.post('/api/analytics/pageview', { page: '/b', cookiesAccepted: false, sessionId, userId: user.id });
    const anonymous = session();
    await visitor().post('/api/analytics/pageview', {
      page: '/c',
      cookiesAccepted: true,
      sessionId: anonymous,
      userId: user.id,
    });
    const rows = await viewsOf(sessionId, 2);
    expect(rows.map((row) => [row.path, row.userId, row.cookiesAccepted])).toEqual([
      ['/a', user.id, true],
      ['/b', null, false],
    ]);
    expect((await viewsOf(anonymous, 1))[0]?.userId).toBeNull();
  });

  test('bots and clients without a user agent are answered but not counted', async () => {
    const sessionId = session();
    for (const userAgent of ['Googlebot/2.1 (+http://www.google.com/bot.html)', 'curl/8.5.0']) {
      const response = await visitor(address(), userAgent).post('/api/analytics/pageview', {
        page: '/',
        cookiesAccepted: false,
        sessionId,
      });
      expect(response.statusCode).toBe(204);
    }
    const bare = testClient(app, { remoteAddress: address() });
    expect(
      (await bare.post('/api/analytics/pageview', { page: '/', cookiesAccepted: false, sessionId })).statusCode,
    ).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await db.select().from(pageViews).where(eq(pageViews.sessionId, sessionId))).toEqual([]);
  });

  test.each([
    [{ page: 'x'.repeat(10), cookiesAccepted: false }, 'page'],
    [{ page: `/${'x'.repeat(600)}`, cookiesAccepted: false }, 'page'],
    [{ page: '/', cookiesAccepted: 'yes' }, 'cookiesAccepted'],
    [{ page: '/', cookiesAccepted: false, sessionId: 'a b' }, 'sessionId'],
    [{ page: '/\u0000', cookiesAccepted: false }, 'page'],
  ])('refuses %j with a 400 naming %s, and writes nothing', async (body, field) => {
    const before = (await db.select({ n: sql<number>`count(*)::int` }).from(pageViews))[0]?.n;
    const response = await visitor().post('/api/analytics/pageview', { sessionId: session(), ...body });
    expect(response.statusCode).toBe(400);
    expect(JSON.stringify(response.json())).toContain(field);
    expect((await db.select({ n: sql<number>`count(*)::int` }).from(pageViews))[0]?.n).toBe(before);
  });

  test('needs a CSRF token', async () => {
    const response = await visitor().post(
      '/api/analytics/pageview',
      { page: '/', cookiesAccepted: false, sessionId: session() },
      { csrf: false },
    );
    expect(response.statusCode).toBe(403);
  });
});

describe('POST /api/analytics/conversion', () => {
  async function recentOrder() {
    const order = await latestPaidOrder(db);
    // Placed just now, as /success reports it.
    await db.update(orders).set({ createdAt: new Date() }).where(eq(orders.id, order.id));
    await db.delete(conversions).where(eq(conversions.orderId, order.id));
    return order;
  }

  test("records a paid order's conversion once, with the order's own total and user", async () => {
    const order = await recentOrder();
    const sessionId = session();
    const body = { orderValue: 1, userId: 'someone', sessionId, reference: order.id };
    const browser = visitor();
    expect((await browser.post('/api/analytics/conversion', body)).json()).toEqual({ recorded: true });
    expect((await browser.post('/api/analytics/conversion', body)).json()).toEqual({ recorded: false });
    const rows = await db.select().from(conversions).where(eq(conversions.orderId, order.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ sessionId, orderValue: order.total, userId: order.userId });
  });

  test('an unknown, unpaid or old order is not a conversion', async () => {
    const old = await recentOrder();
    await db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 2 * 24 * 3600_000) })
      .where(eq(orders.id, old.id));
    const [cancelled] = await db.select().from(orders).where(eq(orders.status, 'cancelled')).limit(1);
    for (const reference of ['0123456789abcdef', old.id, ...(cancelled ? [cancelled.id] : [])]) {
      const response = await visitor().post('/api/analytics/conversion', {
        orderValue: 100,
        sessionId: session(),
        reference,
      });
      expect(response.json()).toEqual({ recorded: false });
    }
    expect(await db.select().from(conversions).where(eq(conversions.orderId, old.id))).toEqual([]);
  });

  test('refuses bad input with a 400', async () => {
    for (const body of [
      { orderValue: -1, sessionId: session(), reference: '0123456789abcdef' },
      { orderValue: 10, sessionId: session(), reference: 'not-a-reference' },
      { orderValue: 10, reference: '0123456789abcdef' },
    ]) {
      expect((await visitor().post('/api/analytics/conversion', body)).statusCode).toBe(400);
    }
  });
});
