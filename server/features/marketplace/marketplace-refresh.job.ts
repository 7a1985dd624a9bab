import { and, asc, eq, gt, isNotNull } from 'drizzle-orm';
import { productStock } from '#common/product-rules.ts';
import { type Marketplace, MarketplaceError } from '#server/adapters/marketplace/marketplace.ts';
import type { Db } from '#server/db/client.ts';
import { products, skuVariants } from '#server/features/catalog/catalog.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';

/*
 * Spec 7: GET /api/aliexpress/refresh is fired once when the storefront starts. Here it refreshes
 * what the marketplace decides for the shop's active products: their cost (aliExpressPrice) and
 * their stock, and their variants' stock by skuAttr. A request only starts it, at most once an
 * hour per instance; the work is a durable job that takes a few products at a time, each batch
 * handing the rest to the next one, so no run holds a worker long and a restart resumes it.
 */

/** At most one refresh started per instance in this long. */
export const REFRESH_INTERVAL_MS = 60 * 60 * 1000;
/** Products asked of the marketplace per job. */
export const REFRESH_BATCH_SIZE = 5;

export const REFRESH_JOB = 'marketplace.refresh-prices-and-stock';

type Log = { warn(message: string, error?: unknown): void };

export function createMarketplaceRefresh({
  db,
  marketplace,
  events,
  jobs,
  log,
  intervalMs = REFRESH_INTERVAL_MS,
  batchSize = REFRESH_BATCH_SIZE,
  now = Date.now,
}: {
  db: Db;
  marketplace: Marketplace;
  events: Pick<DomainEvents, 'publish'>;
  jobs: Pick<Jobs, 'define'>;
  log: Log;
  intervalMs?: number;
  batchSize?: number;
  now?: () => number;
}) {
  let lastStarted: number | null = null;

  /** One product against the marketplace; true when something changed. */
  async function refreshProduct(product: { id: string; aliId: string }): Promise<boolean> {
    const found = await marketplace.getProduct(product.aliId);
    const stockByAttr = new Map(found.variants.map((variant) => [variant.skuAttr, variant.stock]));
    const change = await db.transaction(async (tx) => {
      const [current] = await tx
        .select({ aliExpressPrice: products.aliExpressPrice, stock: products.stock })
        .from(products)
        .where(eq(products.id, product.id))
        .for('update');
      if (!current) return null;
      const variants = await tx
        .select({
          id: skuVariants.id,
          skuAttr: skuVariants.skuAttr,
          stock: skuVariants.stock,
          isActive: skuVariants.isActive,
        })
        .from(skuVariants)
        .where(eq(skuVariants.productId, product.id));
      let variantsChanged = false;
      for (const variant of variants) {
        const stock = stockByAttr.get(variant.skuAttr);
        if (stock === undefined || stock === variant.stock) continue;
        await tx.update(skuVariants).set({ stock, updatedAt: new Date() }).where(eq(skuVariants.id, variant.id));
        variant.stock = stock;
        variantsChanged = true;
      }
      const stock = productStock(variants, found.stock);
      if (!variantsChanged && stock === current.stock && found.cost === current.aliExpressPrice) return null;
      await tx
        .update(products)
        .set({ aliExpressPrice: found.cost, stock, updatedAt: new Date() })
        .where(eq(products.id, product.id));
      return { aliExpressPrice: found.cost, stock };
    });
    if (!change) return false;
    events.publish({ type: 'product_updated', data: { collection: 'products', id: product.id, ...change } });
    return true;
  }

  const refreshBatch = jobs.define<{ after: string }>(
    REFRESH_JOB,
    async ({ after }) => {
      const batch = await db
        .select({ id: products.id, aliId: products.aliId })
        .from(products)
        .where(and(eq(products.status, 'active'), isNotNull(products.aliId), gt(products.id, after)))
        .orderBy(asc(products.id))
        .limit(batchSize);
      let changed = 0;
      for (const product of batch) {
        if (!product.aliId) continue;
        try {
          if (await refreshProduct({ id: product.id, aliId: product.aliId })) changed += 1;
        } catch (error) {
          // The marketplace is down, throttling or refusing the credentials: the rest waits for the next refresh.
          if (error instanceof MarketplaceError && (error.transient || error.code === 'auth')) {
            log.warn(`Marketplace refresh stopped at product ${product.id}: ${error.message}`);
            return { changed, stopped: true };
          }
          // One product gone from the marketplace (or unreadable) does not stop the others.
          log.warn(`Marketplace refresh skipped product ${product.id}`, error);
        }
      }
      const last = batch.at(-1);
      if (batch.length === batchSize && last) await refreshBatch({ after: last.id });
      return { changed, stopped: false };
    },
    { retryLimit: 2, retryDelay: 60, retryBackoff: true },
  );

  return {
    /**
     * Starts a refresh unless one started on this instance within the interval. Never waits for
     * the queue (which may not be attached yet): the request answers at once.
     */
    request(): { started: boolean } {
      const at = now();
      if (lastStarted !== null && at - lastStarted < intervalMs) return { started: false };
      lastStarted = at;
      refreshBatch({ after: '' }).catch((error: unknown) => {
        log.warn('The marketplace refresh could not be queued', error);
      });
      return { started: true };
    },
  };
}

export type MarketplaceRefresh = ReturnType<typeof createMarketplaceRefresh>;
