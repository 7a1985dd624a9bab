import { sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
import { executeRows } from '#server/db/client.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { createAnalyticsService } from './analytics.service.ts';

/**
 * What the back office's dashboard will read (issue 11): visitors, page views, bounce rate,
 * session duration and popular pages for a time range, computed in SQL from the stored views,
 * with the range found through the index. On PGlite by default, on PostgreSQL with DATABASE_URL.
 */
const database = await createMigratedTestDatabase();
const { db } = database;
const analytics = createAnalyticsService({ db, pglite: database.pglite, log: () => {}, batch: { maxRows: 1000 } });

afterAll(async () => {
  await analytics.close();
  await database.close();
});

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const view = (page: string, sessionId: string, ip: string) =>
  analytics.recordPageView({
    page,
    sessionId,
    referrer: null,
    cookiesAccepted: false,
    userId: null,
    visitor: { ip, userAgent: BROWSER },
  });

test("a range's visitors, page views, bounce rate, session duration and popular pages come from the stored views", async () => {
  // Two visitors: one reads three pages in one session, the other leaves after one (a bounce).
  await view('/', 'dashboard-session-a', '203.0.113.1');
  await view('/products', 'dashboard-session-a', '203.0.113.1');
  await view('/product/desktop-fountain', 'dashboard-session-a', '203.0.113.1');
  await view('/', 'dashboard-session-b', '203.0.113.2');
  await analytics.flush();

  const [totals] = await executeRows<{ views: number; visitors: number }>(
    db,
    sql`SELECT count(*)::int AS views, count(DISTINCT visitor_hash)::int AS visitors
        FROM page_views WHERE created_at >= now() - interval '24 hours'`,
  );
  expect(totals).toEqual({ views: 4, visitors: 2 });

  const [sessions] = await executeRows<{ sessions: number; bounces: number; seconds: number }>(
    db,
    sql`SELECT count(*)::int AS sessions,
               count(*) FILTER (WHERE views = 1)::int AS bounces,
               coalesce(sum(extract(epoch FROM last - first)), 0)::float AS seconds
        FROM (SELECT session_id, count(*) AS views, min(created_at) AS first, max(created_at) AS last
              FROM page_views WHERE created_at >= now() - interval '24 hours' GROUP BY session_id) AS s`,
  );
  expect(sessions?.sessions).toBe(2);
  expect(sessions?.bounces).toBe(1);
  expect(sessions?.seconds).toBeGreaterThanOrEqual(0);

  const popular = await executeRows<{ path: string; views: number }>(
    db,
    sql`SELECT path, count(*)::int AS views FROM page_views
        WHERE created_at >= now() - interval '24 hours' GROUP BY path ORDER BY views DESC, path LIMIT 5`,
  );
  expect(popular).toEqual([
    { path: '/', views: 2 },
    { path: '/product/desktop-fountain', views: 1 },
    { path: '/products', views: 1 },
  ]);
});

test("a recent range of a year's views is read through the time index, not the whole table", async () => {
  // A year of views, oldest first as they arrive: 60,000 rows, one every ~9 minutes.
  await db.execute(sql`
    INSERT INTO page_views (path, session_id, cookies_accepted, visitor_hash, created_at)
    SELECT '/products', 'history-' || (n / 5), false, md5(n::text), now() - interval '365 days' + n * interval '525 seconds'
    FROM generate_series(1, 60000) AS n`);
  // As the embedded maintenance and autovacuum do: the new block ranges summarised, statistics taken.
  await db.execute(sql`VACUUM ANALYZE page_views`);
  const plan = await executeRows<Record<string, string>>(
    db,
    sql`EXPLAIN SELECT count(*) FROM page_views WHERE created_at >= now() - interval '24 hours'`,
  );
  const text = plan.map((row) => Object.values(row).join(' ')).join('\n');
  expect(text).toContain('page_views_created_brin');
  expect(text).not.toMatch(/Seq Scan on page_views/);
});
