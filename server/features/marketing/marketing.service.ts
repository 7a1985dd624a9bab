import { and, desc, eq, exists, gt, gte, lt, lte, max, sql } from 'drizzle-orm';
import type { BestSeller, FlashSale } from '#common/contracts/marketing.ts';
import { discountedPrice } from '#common/pricing.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { notFound } from '#server/http/errors.ts';
import type { JobRunData, Jobs } from '#server/jobs/job-queue.ts';
import { bestSellers, productUnitsByDay, sales } from './marketing.tables.ts';

const BEST_SELLER_DAYS = 30;

type Sale = typeof sales.$inferSelect;

/** The price a sale gives a product or variant priced `price` (common/pricing.ts: the one place prices are computed). */
export function salePriceOf(sale: Pick<Sale, 'discountType' | 'discountValue'>, price: number): number {
  return discountedPrice({ kind: sale.discountType, value: sale.discountValue }, price);
}

/**
 * The sales that are switched on and not over, for pricing carts: read from memory and refreshed
 * after a short time (as the settings are), so a sale changed on another instance applies within
 * seconds. Dates and usage limits are checked by the caller at the time of pricing; the order
 * itself counts a coupon's use atomically under its limit, so a stale count refuses nothing wrongly.
 */
export function createRunningSales({ db, maxAgeMs = 5000 }: { db: Db; maxAgeMs?: number }) {
  let cached: { rows: Promise<Sale[]>; at: number } | null = null;
  return {
    get(): Promise<Sale[]> {
      if (!cached || Date.now() - cached.at >= maxAgeMs) {
        const rows = db
          .select()
          .from(sales)
          .where(and(eq(sales.active, true), gt(sales.endDate, sql`now()`)))
          .execute();
        cached = { rows, at: Date.now() };
        // A failed read is not kept: the next caller reads again.
        rows.catch(() => {
          cached = null;
        });
      }
      return cached.rows;
    },
    /** After a sale is written on this instance. */
    forget() {
      cached = null;
    },
  };
}

export type RunningSales = ReturnType<typeof createRunningSales>;

/** Best sellers kept counted: as many as the storefront may ask for (listBestSellers' limit). */
const BEST_SELLERS_KEPT = 100;
/** How often the best sellers are counted again: the browser caches the list this long too. */
const BEST_SELLERS_SCHEDULE = '*/5 * * * *';
/** The schedule's interval: a count younger than this is fresh. */
const BEST_SELLERS_INTERVAL_MS = 5 * 60 * 1000;

/** The UTC day (YYYY-MM-DD) that many days before `now`'s. */
function utcDayBefore(now: Date, days: number): string {
  return new Date(now.getTime() - days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
}

/**
 * Counts the best sellers again: products by units sold in paid orders of the last 30 days
 * (today's and the 29 UTC days before it, by each order's day), most first, replacing the kept
 * list in one transaction (readers see the old or the new one). The units come from
 * product_units_by_day, which the database keeps as orders are written; the days that left the
 * window are dropped from it here. The job below runs it every few minutes; the demo seed once,
 * after its orders.
 */
export async function refreshBestSellers(db: Db | Tx, now = new Date()): Promise<number> {
  const firstDay = utcDayBefore(now, BEST_SELLER_DAYS - 1);
  const score = sql<number>`sum(${productUnitsByDay.units})::int`;
  return db.transaction(async (tx) => {
    await tx.delete(productUnitsByDay).where(lt(productUnitsByDay.day, firstDay));
    // Sorted before the products are looked up: the lookups stop at the hundredth active one
    // (a month of a million-product shop sold 66,693 products; looking each up took 200 ms).
    const units = tx
      .select({ productId: productUnitsByDay.productId, score: score.as('score') })
      .from(productUnitsByDay)
      .where(gte(productUnitsByDay.day, firstDay))
      .groupBy(productUnitsByDay.productId)
      .having(sql`${score} > 0`)
      .orderBy(desc(score), productUnitsByDay.productId)
      .as('units');
    const counted = tx
      .select({
        productId: sql<string>`${units.productId}`.as('product_id'),
        score: units.score,
        countedAt: sql<Date>`now()`.as('counted_at'),
      })
      .from(units)
      .where(
        exists(
          tx
            .select({ one: sql`1` })
            .from(products)
            .where(and(eq(products.id, units.productId), eq(products.status, 'active'))),
        ),
      )
      .orderBy(desc(units.score), units.productId)
      .limit(BEST_SELLERS_KEPT);
    await tx.delete(bestSellers);
    const kept = await tx.insert(bestSellers).select(counted).returning({ productId: bestSellers.productId });
    return kept.length;
  });
}

/**
 * Counts the best sellers again unless the kept list was counted within the schedule's interval
 * (a restart's catch-up): the count reads a month of order lines, which at a million orders held
 * a start's first pages back for 15-30 s while it ran.
 */
export async function refreshStaleBestSellers(db: Db, now = new Date()): Promise<number | null> {
  const [last] = await db.select({ countedAt: max(bestSellers.countedAt) }).from(bestSellers);
  if (last?.countedAt && now.getTime() - last.countedAt.getTime() < BEST_SELLERS_INTERVAL_MS) return null;
  return refreshBestSellers(db, now);
}

export function createMarketingService({ db, jobs }: { db: Db; jobs: Jobs }) {
  jobs.schedule({
    name: 'marketing.refresh-best-sellers',
    schedule: BEST_SELLERS_SCHEDULE,
    alsoAtStart: true,
    run: (data: JobRunData | null) => (data?.atStart ? refreshStaleBestSellers(db) : refreshBestSellers(db)),
  });

  /** The active best sellers as last counted, most first. */
  async function bestSellersList(limit: number): Promise<BestSeller[]> {
    return db
      .select({ productId: bestSellers.productId, score: bestSellers.score })
      .from(bestSellers)
      .innerJoin(products, and(eq(products.id, bestSellers.productId), eq(products.status, 'active')))
      .orderBy(desc(bestSellers.score), bestSellers.productId)
      .limit(limit);
  }

  /** The running flash sale of a product (by slug or id), or null when it has none. */
  async function flashSale(slugOrId: string, now = new Date()): Promise<FlashSale | null> {
    const [product] = await db
      .select({ id: products.id, price: products.price })
      .from(products)
      .where(and(eq(products.status, 'active'), sql`(${products.slug} = ${slugOrId} OR ${products.id} = ${slugOrId})`))
      .limit(1);
    if (!product) throw notFound('Product not found');
    const [sale] = await db
      .select()
      .from(sales)
      .where(
        and(
          eq(sales.isFlashSale, true),
          eq(sales.active, true),
          eq(sales.type, 'product'),
          eq(sales.targetId, product.id),
          lte(sales.startDate, now),
          gt(sales.endDate, now),
        ),
      )
      .orderBy(sales.endDate)
      .limit(1);
    if (!sale) return null;
    return {
      isActive: true,
      endTime: sale.endDate.getTime(),
      originalPrice: product.price,
      salePrice: salePriceOf(sale, product.price),
      description: sale.description || sale.name,
    };
  }

  return { bestSellers: bestSellersList, refreshBestSellers: () => refreshBestSellers(db), flashSale };
}

export type MarketingService = ReturnType<typeof createMarketingService>;
