import { type SQL, sql } from 'drizzle-orm';

/** A day as 'YYYY-MM-DD' (UTC). */
export type Day = string;

const DAY_MS = 24 * 60 * 60 * 1000;

export function dayOf(date: Date): Day {
  return date.toISOString().slice(0, 10);
}

export function addDays(day: Day, days: number): Day {
  return dayOf(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS));
}

/** Midnight (UTC) at the start of `day`. */
export function midnightOf(day: Day): Date {
  return new Date(`${day}T00:00:00.000Z`);
}

/** An instant as an SQL timestamptz. */
export function instant(date: Date): SQL {
  return sql`${date.toISOString()}::timestamptz`;
}

/** `created_at` from `from` (inclusive) to `to` (exclusive), each a timestamptz expression; either may be open. */
function timeWindow(from: SQL | null, to: SQL | null): SQL {
  const bounds = [...(from ? [sql`created_at >= ${from}`] : []), ...(to ? [sql`created_at < ${to}`] : [])];
  return bounds.length > 0 ? sql`WHERE ${sql.join(bounds, sql` AND `)}` : sql``;
}

/**
 * Page views of a time window, one row per UTC day: views, distinct visitors, sessions, single-page
 * sessions and the sessions' summed lengths in milliseconds. A session is counted within each day
 * it has views (split at midnight UTC, as the visitor hashes are), so days add up. The one
 * definition used both to roll completed days up and to read the days not rolled up yet, so the
 * two always agree. Columns: day, views, visitors, sessions, single_page_sessions, session_ms.
 */
export function dailyPageViewStats(from: SQL | null, to: SQL | null): SQL {
  const window = timeWindow(from, to);
  return sql`
    SELECT s.day, s.views, v.visitors, s.sessions, s.single_page_sessions, s.session_ms
    FROM (
      SELECT day, sum(views)::int AS views, count(*)::int AS sessions,
             (count(*) FILTER (WHERE views = 1))::int AS single_page_sessions,
             sum(ms)::bigint AS session_ms
      FROM (
        SELECT (created_at AT TIME ZONE 'UTC')::date AS day, session_id, count(*) AS views,
               round(extract(epoch FROM max(created_at) - min(created_at)) * 1000)::bigint AS ms
        FROM page_views ${window}
        GROUP BY 1, 2
      ) AS per_session
      GROUP BY day
    ) AS s
    JOIN (
      SELECT (created_at AT TIME ZONE 'UTC')::date AS day, count(DISTINCT visitor_hash)::int AS visitors
      FROM page_views ${window}
      GROUP BY 1
    ) AS v USING (day)`;
}

/** Page views of a time window per UTC day and path. Columns: day, path, views. */
export function dailyPathViews(from: SQL | null, to: SQL | null): SQL {
  return sql`
    SELECT (created_at AT TIME ZONE 'UTC')::date AS day, path, count(*)::int AS views
    FROM page_views ${timeWindow(from, to)}
    GROUP BY 1, 2`;
}

/** Page views of a time window per path. Columns: path, views. */
export function pathViews(from: SQL | null): SQL {
  return sql`SELECT path, count(*)::int AS views FROM page_views ${timeWindow(from, null)} GROUP BY path`;
}

/** Page views and distinct visitors of a time window per hour (UTC). Columns: bucket (timestamp), views, visitors. */
export function hourlyPageViews(from: SQL | null): SQL {
  return sql`
    SELECT date_trunc('hour', created_at AT TIME ZONE 'UTC') AS bucket, count(*)::int AS views,
           count(DISTINCT visitor_hash)::int AS visitors
    FROM page_views ${timeWindow(from, null)}
    GROUP BY 1`;
}
