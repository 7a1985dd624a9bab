import { createHash, randomBytes } from 'node:crypto';
import type { PGlite } from '@electric-sql/pglite';
import { and, eq, gte, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { copyRows } from '#server/db/copy.ts';
import { paidStatuses } from '#server/features/orders/order-status.ts';
import { orders } from '#server/features/orders/orders.tables.ts';
import { analyticsSalts, conversions, pageViews } from './analytics.tables.ts';
import { createBatchWriter } from './batch-writer.ts';

/** A conversion is reported from /success right after paying: an older order is not a new conversion. */
export const CONVERSION_WINDOW_MS = 24 * 60 * 60 * 1000;

type Visitor = { ip: string; userAgent: string };

/**
 * First-party analytics (spec sections 2 and 7): page views and conversions, as the back office's
 * dashboard reads them (visitors, page views, bounce rate, session duration, popular pages).
 * Page views are written in batches, so recording one costs a request almost nothing.
 */
export function createAnalyticsService({
  db,
  pglite = null,
  log,
  batch = {},
}: {
  db: Db;
  /** The embedded database, when it is one: batches are then copied in (COPY) rather than inserted. */
  pglite?: PGlite | null;
  log: (message: string, error: unknown) => void;
  batch?: { maxRows?: number; intervalMs?: number };
}) {
  const salts = createDailySalts(db);
  const pageViewWriter = createBatchWriter<PageViewRow>({
    write: (rows) => (pglite ? copyRows(pglite, 'page_views', PAGE_VIEW_COLUMNS, rows) : insertPageViews(db, rows)),
    onError: (error, dropped) => log(`${dropped} page views could not be written`, error),
    // A larger batch costs less per row; 500 rows take the embedded database about 3 ms.
    maxRows: 500,
    ...batch,
  });

  /** Resolves once the view waits in the batch; at once (no promise) when the day's salt is known. */
  function recordPageView(view: {
    page: string;
    sessionId: string;
    referrer: string | null;
    cookiesAccepted: boolean;
    /** The signed-in user; kept only with cookies accepted. */
    userId: string | null;
    visitor: Visitor;
  }): undefined | Promise<void> {
    const row: PageViewRow = {
      path: view.page,
      session_id: view.sessionId,
      referrer: view.referrer,
      cookies_accepted: view.cookiesAccepted,
      user_id: view.cookiesAccepted ? view.userId : null,
      visitor_hash: '',
      created_at: isoNow(),
    };
    const hash = salts.hash(view.visitor);
    if (typeof hash === 'string') {
      row.visitor_hash = hash;
      pageViewWriter.add(row);
      return;
    }
    return hash.then((visitorHash) => {
      row.visitor_hash = visitorHash;
      pageViewWriter.add(row);
    });
  }

  /**
   * The conversion of a paid order placed in the last 24 hours, once per order; its value is the
   * order's total and its user the order's (what the browser claims is not trusted).
   */
  async function recordConversion({ reference, sessionId }: { reference: string; sessionId: string }) {
    const [order] = await db
      .select({ id: orders.id, total: orders.total, userId: orders.userId })
      .from(orders)
      .where(
        and(
          eq(orders.id, reference),
          inArray(orders.status, [...paidStatuses]),
          gte(orders.createdAt, new Date(Date.now() - CONVERSION_WINDOW_MS)),
        ),
      );
    if (!order) return false;
    const inserted = await db
      .insert(conversions)
      .values({ sessionId, userId: order.userId, orderId: order.id, orderValue: order.total })
      .onConflictDoNothing()
      .returning({ id: conversions.id });
    return inserted.length > 0;
  }

  return {
    recordPageView,
    recordConversion,
    /** Writes the page views waiting in memory (tests; shutdown). */
    flush: () => pageViewWriter.flush(),
    close: () => pageViewWriter.close(),
  };
}

export type AnalyticsService = ReturnType<typeof createAnalyticsService>;

/**
 * The time now in ISO form, made once per millisecond: formatting a date cost more than anything
 * else a page view does in JavaScript, and many views share a millisecond under load.
 */
function isoNow(): string {
  const now = Date.now();
  if (now !== lastIso.at) lastIso = { at: now, text: new Date(now).toISOString() };
  return lastIso.text;
}
let lastIso = { at: 0, text: '' };

/** The columns a batch of page views writes. */
const PAGE_VIEW_COLUMNS = [
  'path',
  'session_id',
  'referrer',
  'cookies_accepted',
  'user_id',
  'visitor_hash',
  'created_at',
] as const;

/** A page view as a batch writes it: the table's own column names. */
type PageViewRow = {
  path: string;
  session_id: string;
  referrer: string | null;
  cookies_accepted: boolean;
  user_id: string | null;
  visitor_hash: string;
  created_at: string;
};

/**
 * On a PostgreSQL server, one statement for a whole batch, its rows as one JSON parameter:
 * building a statement of 8 parameters per row cost more than the database's own work (the
 * benchmark's profile), and PostgreSQL reads the JSON in one pass.
 */
function insertPageViews(db: Db, rows: PageViewRow[]) {
  return db.execute(sql`
    INSERT INTO ${pageViews} (path, session_id, referrer, cookies_accepted, user_id, visitor_hash, created_at)
    SELECT path, session_id, referrer, cookies_accepted, user_id, visitor_hash, created_at
    FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS r(
      path text, session_id text, referrer text, cookies_accepted boolean, user_id text, visitor_hash text,
      created_at timestamptz
    )`);
}

/** The day's salt: being read, then known. */
type DaySalt = { day: string; salt: Promise<string>; known: string | null };

/**
 * Each UTC day's random salt, shared by every instance through the database and deleted once the
 * day is over: a visitor's hash counts them for a day and then cannot be traced to an address.
 */
function createDailySalts(db: Db) {
  let current: DaySalt | null = null;

  async function saltOf(day: string): Promise<string> {
    await db
      .insert(analyticsSalts)
      .values({ day, salt: randomBytes(32).toString('base64url') })
      .onConflictDoNothing();
    // Yesterday's salt is kept until today's exists (requests straddling midnight); older ones go.
    await db.delete(analyticsSalts).where(lt(analyticsSalts.day, previousDay(day)));
    const [row] = await db
      .select({ salt: analyticsSalts.salt })
      .from(analyticsSalts)
      .where(eq(analyticsSalts.day, day));
    if (!row) throw new Error(`no analytics salt for ${day}`);
    return row.salt;
  }

  // The day's hash of the visitors seen lately, by address: most page views come from a visitor
  // seen a moment before, and a lookup costs less than a hash (bounded, and emptied with the day).
  // Keyed by the address alone, with the user agent compared, as hashing the joined pair cost more.
  const MAX_REMEMBERED = 10_000;
  let remembered = new Map<string, { userAgent: string; hash: string }>();
  let dayEndsAt = 0;

  function hashWith(salt: string, { ip, userAgent }: Visitor): string {
    const seen = remembered.get(ip);
    if (seen !== undefined && seen.userAgent === userAgent) return seen.hash;
    const hash = createHash('sha256').update(`${salt}\n${ip}\n${userAgent}`).digest('hex').slice(0, 32);
    if (remembered.size >= MAX_REMEMBERED) remembered.clear();
    remembered.set(ip, { userAgent, hash });
    return hash;
  }

  return {
    /**
     * The visitor's hash for today: a string once the day's salt is known (every request after the
     * day's first), a promise while it is read. No promise on the hot path: a page view is
     * recorded without waiting for anything.
     */
    hash(visitor: Visitor): string | Promise<string> {
      const now = Date.now();
      if (current === null || now >= dayEndsAt) {
        const day = new Date(now).toISOString().slice(0, 10);
        dayEndsAt = Date.parse(`${day}T00:00:00.000Z`) + 24 * 60 * 60 * 1000;
        remembered = new Map();
        const read = saltOf(day);
        const today: DaySalt = { day, salt: read, known: null };
        current = today;
        read.then(
          (salt) => {
            today.known = salt;
          },
          // A failed read is tried again by the next request.
          () => {
            if (current === today) current = null;
          },
        );
      }
      const { known, salt } = current;
      return known === null ? salt.then((value) => hashWith(value, visitor)) : hashWith(known, visitor);
    },
  };
}

function previousDay(day: string): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() - 1);
  return date.toISOString().slice(0, 10);
}
