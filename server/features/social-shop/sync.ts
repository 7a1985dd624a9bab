import { and, asc, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { CategoryMapping, SyncResult, SyncRun } from '#common/contracts/admin/social-shop.ts';
import {
  type ChannelCategory,
  type ListingIds,
  type ListingInput,
  type ShopAccess,
  type SocialShop,
  SocialShopError,
} from '#server/adapters/social-shop/social-shop.ts';
import type { ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import type { Db } from '#server/db/client.ts';
import {
  categories,
  productCategories,
  productImages,
  products,
  skuVariants,
} from '#server/features/catalog/catalog.tables.ts';
import { AppError, notFound } from '#server/http/errors.ts';
import { fetchRemoteImage } from '#server/http/remote-fetch.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { type Connection, type Grants, loggable } from './grants.ts';
import {
  descriptionHtml,
  type ListableProduct,
  listingHash,
  listingSkus,
  MAX_LISTING_IMAGES,
  sellerSkuOf,
} from './listing.ts';
import {
  type ListedSku,
  socialShopCategoryMappings,
  socialShopConnections,
  socialShopListings,
  socialShopSyncs,
} from './social-shop.tables.ts';

/** How long a POST waits for its run to finish before answering it still running (the tab then follows it). */
export const SYNC_ANSWER_WAIT_MS = 8_000;
/** A worker's claim on a run, renewed after each product. */
const RUN_LEASE_MS = 2 * 60_000;
/** A queued run that no worker took within this long is given up (its job was lost). */
const QUEUED_RUN_TIMEOUT_MS = 10 * 60_000;

type RunRow = typeof socialShopSyncs.$inferSelect;
type ListingRow = typeof socialShopListings.$inferSelect;
type Kind = RunRow['kind'];

/** Failures that concern the whole shop, not one product: the run stops and says why. */
function isShopWide(error: unknown): boolean {
  if (error instanceof AppError) return true;
  return (
    error instanceof SocialShopError &&
    (error.kind === 'credentials' ||
      error.kind === 'not_approved' ||
      error.kind === 'token_expired' ||
      error.kind === 'rate_limited' ||
      error.kind === 'unavailable')
  );
}

const messageOf = (error: unknown) =>
  error instanceof SocialShopError || error instanceof AppError ? error.message : 'Unexpected error';

/**
 * Product and stock syncs to a ready shop (issue 14). Each is a run: a row with its progress and
 * result, worked by a durable job (one run per shop and kind at a time; a second request gets the
 * running one). A product is listed once: its listing row holds the channel's ids, and a listing
 * created by a run that died before recording it is found again by its seller SKU.
 */
export function createSocialShopSync({
  db,
  socialShop,
  grants,
  storage,
  jobs,
  currency = 'USD',
  now = () => new Date(),
  log = () => {},
}: {
  db: Db;
  socialShop: SocialShop;
  grants: Grants;
  storage: ObjectStorage;
  jobs: Jobs;
  currency?: string;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}) {
  const sendRun = jobs.define<{ syncId: string }>('social-shop.sync', ({ syncId }) => work(syncId), {
    retryLimit: 3,
    retryDelay: 30,
    retryBackoff: true,
  });

  function answer(row: RunRow, shopId: string): SyncRun {
    return {
      syncId: row.id,
      shopId,
      kind: row.kind,
      status: row.status,
      done: row.done,
      total: row.total,
      forceAll: row.forceAll,
      startedAt: row.startedAt.toISOString(),
      finishedAt: row.finishedAt?.toISOString() ?? null,
      result: row.result ?? null,
      error: row.error,
    };
  }

  /** Starts a run (or answers the one running), waiting a little for it to finish. */
  async function start(kind: Kind, shopId: string, forceAll: boolean): Promise<{ run: SyncRun; finished: boolean }> {
    const connection = await grants.readyShop(shopId);
    const at = now();
    // A run whose worker died, or whose job never came, no longer blocks the shop.
    await db
      .update(socialShopSyncs)
      .set({ status: 'failed', error: 'The sync stopped before it finished', finishedAt: at })
      .where(
        and(
          eq(socialShopSyncs.connectionId, connection.id),
          eq(socialShopSyncs.kind, kind),
          or(
            and(eq(socialShopSyncs.status, 'running'), lt(socialShopSyncs.leaseUntil, at)),
            and(
              eq(socialShopSyncs.status, 'queued'),
              lt(socialShopSyncs.startedAt, new Date(at.getTime() - QUEUED_RUN_TIMEOUT_MS)),
            ),
          ),
        ),
      );
    const [created] = await db
      .insert(socialShopSyncs)
      .values({ connectionId: connection.id, kind, forceAll })
      .onConflictDoNothing()
      .returning();
    const row = created ?? (await activeRun(connection.id, kind));
    if (!row) throw new AppError(409, 'sync_busy', 'A sync of this shop has just finished: try again');
    if (created) await sendRun({ syncId: created.id });
    const finished = await waitFor(row.id, SYNC_ANSWER_WAIT_MS);
    return { run: answer(finished, shopId), finished: finished.status === 'finished' || finished.status === 'failed' };
  }

  async function activeRun(connectionId: string, kind: Kind) {
    const [row] = await db
      .select()
      .from(socialShopSyncs)
      .where(
        and(
          eq(socialShopSyncs.connectionId, connectionId),
          eq(socialShopSyncs.kind, kind),
          inArray(socialShopSyncs.status, ['queued', 'running']),
        ),
      );
    return row ?? null;
  }

  async function waitFor(syncId: string, ms: number): Promise<RunRow> {
    const until = Date.now() + ms;
    for (;;) {
      const [row] = await db.select().from(socialShopSyncs).where(eq(socialShopSyncs.id, syncId));
      if (!row) throw notFound('Sync not found');
      if (row.status === 'finished' || row.status === 'failed' || Date.now() >= until) return row;
      await new Promise((resolve) => setTimeout(resolve, 150));
    }
  }

  async function run(syncId: string): Promise<SyncRun> {
    const [found] = await db
      .select({ run: socialShopSyncs, shopId: socialShopConnections.shopId })
      .from(socialShopSyncs)
      .innerJoin(socialShopConnections, eq(socialShopConnections.id, socialShopSyncs.connectionId))
      .where(eq(socialShopSyncs.id, syncId));
    if (!found) throw notFound('Sync not found');
    return answer(found.run, found.shopId);
  }

  /** The newest run of each kind for a shop. */
  async function latest(shopId: string): Promise<{ products: SyncRun | null; inventory: SyncRun | null }> {
    const connection = await grants.readyShop(shopId);
    const newest = async (kind: Kind) => {
      const [row] = await db
        .select()
        .from(socialShopSyncs)
        .where(and(eq(socialShopSyncs.connectionId, connection.id), eq(socialShopSyncs.kind, kind)))
        .orderBy(desc(socialShopSyncs.startedAt))
        .limit(1);
      return row ? answer(row, shopId) : null;
    };
    return { products: await newest('products'), inventory: await newest('inventory') };
  }

  /** The job: claims the run (or takes over one whose worker died), then works it to its end. */
  async function work(syncId: string): Promise<void> {
    const at = now();
    const [claimed] = await db
      .update(socialShopSyncs)
      .set({ status: 'running', leaseUntil: new Date(at.getTime() + RUN_LEASE_MS) })
      .where(
        and(
          eq(socialShopSyncs.id, syncId),
          or(
            eq(socialShopSyncs.status, 'queued'),
            and(eq(socialShopSyncs.status, 'running'), lt(socialShopSyncs.leaseUntil, at)),
          ),
        ),
      )
      .returning();
    if (!claimed) return;
    const [shop] = await db
      .select()
      .from(socialShopConnections)
      .where(eq(socialShopConnections.id, claimed.connectionId));
    try {
      if (!shop) throw notFound('Shop not found');
      const result =
        claimed.kind === 'products' ? await syncProducts(shop, claimed) : await syncInventory(shop, claimed);
      await db
        .update(socialShopSyncs)
        .set({ status: 'finished', result, finishedAt: now(), leaseUntil: null })
        .where(eq(socialShopSyncs.id, syncId));
    } catch (error) {
      log(`a TikTok Shop ${claimed.kind} sync failed`, loggable(error));
      await db
        .update(socialShopSyncs)
        .set({ status: 'failed', error: messageOf(error), finishedAt: now(), leaseUntil: null })
        .where(eq(socialShopSyncs.id, syncId));
    }
  }

  async function progress(syncId: string, done: number, total: number) {
    await db
      .update(socialShopSyncs)
      .set({ done, total, leaseUntil: new Date(now().getTime() + RUN_LEASE_MS) })
      .where(eq(socialShopSyncs.id, syncId));
  }

  /** Our active products with what a listing needs, in a stable order. */
  async function listableProducts(ids?: string[]): Promise<(ListableProduct & { categoryId: string | null })[]> {
    const rows = await db
      .select({
        id: products.id,
        title: products.title,
        description: products.description,
        features: products.features,
        price: products.price,
        salePrice: products.salePrice,
        stock: products.stock,
        categoryId: sql<string | null>`(SELECT pc.category_id FROM ${productCategories} pc
          WHERE pc.product_id = ${products.id} ORDER BY pc.position, pc.category_id LIMIT 1)`,
      })
      .from(products)
      .where(and(eq(products.status, 'active'), ids ? inArray(products.id, ids) : undefined))
      .orderBy(asc(products.createdAt), asc(products.id));
    if (rows.length === 0) return [];
    const variants = await db
      .select({
        productId: skuVariants.productId,
        skuId: skuVariants.skuId,
        name: skuVariants.name,
        price: skuVariants.price,
        salePrice: skuVariants.salePrice,
        stock: skuVariants.stock,
      })
      .from(skuVariants)
      .where(
        and(
          inArray(
            skuVariants.productId,
            rows.map((r) => r.id),
          ),
          eq(skuVariants.isActive, true),
        ),
      )
      .orderBy(asc(skuVariants.position), asc(skuVariants.id));
    return rows.map((row) => ({ ...row, variants: variants.filter((v) => v.productId === row.id) }));
  }

  async function listingsOf(connectionId: string): Promise<Map<string, ListingRow>> {
    const rows = await db.select().from(socialShopListings).where(eq(socialShopListings.connectionId, connectionId));
    return new Map(rows.map((row) => [row.productId, row]));
  }

  async function warehouseOf(shop: Connection): Promise<string> {
    if (shop.warehouseId) return shop.warehouseId;
    const warehouseId = await grants.withShop(shop, (access) => socialShop.defaultWarehouseId(access));
    await db.update(socialShopConnections).set({ warehouseId }).where(eq(socialShopConnections.id, shop.id));
    return warehouseId;
  }

  async function syncProducts(shop: Connection, runRow: RunRow): Promise<SyncResult> {
    assertSellsIn(shop, currency);
    const all = await listableProducts();
    const listings = await listingsOf(shop.id);
    const warehouseId = await warehouseOf(shop);
    const result: SyncResult = { synced: 0, failed: 0, results: [], errors: [], note: '' };
    let unchanged = 0;
    await progress(runRow.id, 0, all.length);
    for (const [index, product] of all.entries()) {
      try {
        const outcome = await syncProduct(shop, product, listings.get(product.id) ?? null, {
          forceAll: runRow.forceAll,
          warehouseId,
        });
        if (outcome === 'unchanged') unchanged++;
        else {
          result.synced++;
          result.results.push({ title: product.title, productId: product.id, tiktokProductId: outcome });
        }
      } catch (error) {
        if (isShopWide(error)) throw error;
        result.failed++;
        result.errors.push({ title: product.title, productId: product.id, error: messageOf(error) });
        await db
          .update(socialShopListings)
          .set({ lastError: messageOf(error) })
          .where(and(eq(socialShopListings.connectionId, shop.id), eq(socialShopListings.productId, product.id)));
      }
      await progress(runRow.id, index + 1, all.length);
    }
    result.note = productsNote(all.length, result, unchanged, shop.shopName);
    return result;
  }

  /** Lists or updates one product; answers the channel's product id, or 'unchanged' when skipped. */
  async function syncProduct(
    shop: Connection,
    product: ListableProduct & { categoryId: string | null },
    listing: ListingRow | null,
    { forceAll, warehouseId }: { forceAll: boolean; warehouseId: string },
  ): Promise<string | 'unchanged'> {
    const images = await db
      .select({ url: productImages.url, storageKey: productImages.storageKey })
      .from(productImages)
      .where(eq(productImages.productId, product.id))
      .orderBy(asc(productImages.position), asc(productImages.id))
      .limit(MAX_LISTING_IMAGES);
    if (images.length === 0) throw new SocialShopError('rejected', 'The product has no picture: add one first');
    const category = await categoryFor(shop, product);
    const content = {
      externalProductId: product.id,
      title: product.title,
      descriptionHtml: descriptionHtml(product.description, product.features),
      categoryId: category.id,
      skus: listingSkus(product, currency),
    };
    const hash = listingHash(
      content,
      images.map((image) => image.url),
    );
    if (listing && listing.contentHash === hash && !forceAll) return 'unchanged';
    const imageUris: Record<string, string> = {};
    for (const image of images) {
      imageUris[image.url] = listing?.imageUris[image.url] ?? (await uploadImage(shop, image));
    }
    const input: ListingInput = { ...content, imageUris: Object.values(imageUris), warehouseId };
    const ids = await sendListing(shop, input, listing);
    const skus: ListedSku[] = input.skus.map((sku) => ({
      sellerSku: sku.sellerSku,
      skuId: product.variants.find((v) => sellerSkuOf(product.id, v.skuId) === sku.sellerSku)?.skuId ?? null,
      channelSkuId: ids.skus.find((s) => s.sellerSku === sku.sellerSku)?.id ?? '',
    }));
    const pushedStock = Object.fromEntries(
      input.skus.map((sku, i) => [skus[i]?.channelSkuId ?? '', sku.quantity] as const),
    );
    const values = {
      externalProductId: ids.productId,
      skus,
      contentHash: hash,
      imageUris,
      pushedStock,
      lastSyncedAt: now(),
      lastError: null,
    };
    await db
      .insert(socialShopListings)
      .values({ connectionId: shop.id, productId: product.id, ...values })
      .onConflictDoUpdate({ target: [socialShopListings.connectionId, socialShopListings.productId], set: values });
    return ids.productId;
  }

  /** Updates the listing; creates it when there is none (or the channel lost it), adopting an earlier run's. */
  async function sendListing(shop: Connection, input: ListingInput, listing: ListingRow | null): Promise<ListingIds> {
    return grants.withShop(shop, async (access) => {
      if (listing) {
        try {
          return await socialShop.updateProduct(access, listing.externalProductId, input);
        } catch (error) {
          if (!(error instanceof SocialShopError && error.kind === 'not_found')) throw error;
        }
      }
      const firstSku = input.skus[0]?.sellerSku;
      const earlier = firstSku ? await socialShop.findProductBySellerSku(access, firstSku) : null;
      if (earlier) return socialShop.updateProduct(access, earlier.productId, input);
      try {
        return await socialShop.createProduct(access, input);
      } catch (error) {
        // A create retried after its answer was lost is refused as a duplicate SKU: adopt the first.
        const created = firstSku ? await socialShop.findProductBySellerSku(access, firstSku) : null;
        if (!created) throw error;
        return socialShop.updateProduct(access, created.productId, input);
      }
    });
  }

  async function uploadImage(shop: Connection, image: { url: string; storageKey: string | null }): Promise<string> {
    const file = image.storageKey
      ? await storage.get(image.storageKey)
      : await fetchRemoteImage(image.url).then((got) =>
          got.ok ? { body: got.bytes, contentType: got.contentType } : null,
        );
    if (!file) throw new SocialShopError('rejected', 'A picture of the product could not be read');
    const fileName = (image.storageKey ?? image.url).split('/').pop() || 'image';
    return grants.withShop(shop, (access) =>
      socialShop.uploadImage(access, { bytes: file.body, fileName, contentType: file.contentType }),
    );
  }

  /**
   * The channel category of a product: its main category's mapping, else the channel's
   * recommendation (stored as the category's mapping, for the owner to keep or change).
   */
  async function categoryFor(
    shop: Connection,
    product: ListableProduct & { categoryId: string | null },
  ): Promise<{ id: string; name: string }> {
    if (product.categoryId) {
      const [mapped] = await db
        .select()
        .from(socialShopCategoryMappings)
        .where(
          and(
            eq(socialShopCategoryMappings.connectionId, shop.id),
            eq(socialShopCategoryMappings.categoryId, product.categoryId),
          ),
        );
      if (mapped) return { id: mapped.channelCategoryId, name: mapped.channelCategoryName };
    }
    const recommended = await grants.withShop(shop, (access) =>
      socialShop.recommendCategory(access, {
        title: product.title,
        descriptionHtml: descriptionHtml(product.description, product.features),
      }),
    );
    if (!recommended) {
      throw new SocialShopError(
        'rejected',
        'TikTok Shop recommends no category for this product: map its category under Category mapping',
      );
    }
    if (product.categoryId) {
      await db
        .insert(socialShopCategoryMappings)
        .values({
          connectionId: shop.id,
          categoryId: product.categoryId,
          channelCategoryId: recommended.id,
          channelCategoryName: recommended.name,
          source: 'recommended',
        })
        .onConflictDoNothing();
    }
    return recommended;
  }

  /** Inventory: the stock of every listed SKU, pushed to the shop's warehouse. */
  async function syncInventory(shop: Connection, runRow: RunRow): Promise<SyncResult> {
    const listings = [...(await listingsOf(shop.id)).values()];
    const result: SyncResult = { synced: 0, failed: 0, results: [], errors: [], note: '' };
    await progress(runRow.id, 0, listings.length);
    const current = new Map((await listableProducts(listings.map((l) => l.productId))).map((p) => [p.id, p]));
    const titles = await titlesOf(listings.map((l) => l.productId));
    const warehouseId = await warehouseOf(shop);
    for (const [index, listing] of listings.entries()) {
      const title = titles.get(listing.productId) ?? 'Product';
      try {
        await pushStock(shop, listing, current.get(listing.productId) ?? null, warehouseId);
        result.synced++;
        result.results.push({ title, productId: listing.productId, tiktokProductId: listing.externalProductId });
      } catch (error) {
        if (isShopWide(error)) throw error;
        result.failed++;
        result.errors.push({ title, productId: listing.productId, error: messageOf(error) });
      }
      await progress(runRow.id, index + 1, listings.length);
    }
    result.note =
      listings.length === 0
        ? 'No product is listed on this shop yet: sync the products first.'
        : `Stock of ${result.synced} of ${listings.length} listed products sent to ${shop.shopName}.`;
    return result;
  }

  async function titlesOf(ids: string[]) {
    if (ids.length === 0) return new Map<string, string>();
    const rows = await db
      .select({ id: products.id, title: products.title })
      .from(products)
      .where(inArray(products.id, ids));
    return new Map(rows.map((r) => [r.id, r.title]));
  }

  /** The quantities of a listing's SKUs now: 0 for a product no longer sold (inactive, or gone). */
  function quantitiesOf(listing: ListingRow, product: ListableProduct | null): Record<string, number> {
    const skus = product ? listingSkus(product, currency) : [];
    return Object.fromEntries(
      listing.skus.map((sku) => [sku.channelSkuId, skus.find((s) => s.sellerSku === sku.sellerSku)?.quantity ?? 0]),
    );
  }

  async function pushStock(
    shop: Connection,
    listing: ListingRow,
    product: ListableProduct | null,
    warehouseId: string,
  ): Promise<void> {
    const quantities = quantitiesOf(listing, product);
    await grants.withShop(shop, (access: ShopAccess) =>
      socialShop.updateInventory(
        access,
        listing.externalProductId,
        Object.entries(quantities).map(([channelSkuId, quantity]) => ({ channelSkuId, quantity })),
        warehouseId,
      ),
    );
    await db
      .update(socialShopListings)
      .set({ pushedStock: quantities })
      .where(and(eq(socialShopListings.connectionId, shop.id), eq(socialShopListings.productId, listing.productId)));
  }

  /**
   * The stock that changed since it was last pushed (an order here or there, an edit), pushed
   * to every shop. Run by a debounced job after orders and product edits, and every few minutes.
   */
  async function pushChangedStock(): Promise<number> {
    let pushed = 0;
    for (const shop of await grants.readyShops()) {
      const listings = [...(await listingsOf(shop.id)).values()];
      if (listings.length === 0) continue;
      const current = new Map((await listableProducts(listings.map((l) => l.productId))).map((p) => [p.id, p]));
      const changed = listings.filter((listing) => {
        const quantities = quantitiesOf(listing, current.get(listing.productId) ?? null);
        return Object.entries(quantities).some(([id, quantity]) => listing.pushedStock[id] !== quantity);
      });
      if (changed.length === 0) continue;
      const warehouseId = await warehouseOf(shop);
      for (const listing of changed) {
        try {
          await pushStock(shop, listing, current.get(listing.productId) ?? null, warehouseId);
          pushed++;
        } catch (error) {
          log(`pushing the stock of product ${listing.productId} to TikTok Shop failed`, loggable(error));
        }
      }
    }
    return pushed;
  }

  /** The mapping of each of our categories for a shop, with the channel's leaf categories to choose from. */
  async function categoryMappings(shopId: string): Promise<{
    mappings: CategoryMapping[];
    channelCategories: { id: string; name: string }[];
  }> {
    const shop = await grants.readyShop(shopId);
    const [ours, mapped, channel] = await Promise.all([
      db.select({ id: categories.id, name: categories.name }).from(categories).orderBy(asc(categories.position)),
      db.select().from(socialShopCategoryMappings).where(eq(socialShopCategoryMappings.connectionId, shop.id)),
      grants.withShop(shop, (access) => socialShop.categories(access)),
    ]);
    return {
      mappings: ours.map((category) =>
        mappingAnswer(
          category,
          mapped.find((m) => m.categoryId === category.id),
        ),
      ),
      channelCategories: channel.filter((c: ChannelCategory) => c.isLeaf).map(({ id, name }) => ({ id, name })),
    };
  }

  /** The owner's choice of channel category for one of our categories (null: back to the recommendation). */
  async function saveCategoryMapping(input: {
    shopId: string;
    categoryId: string;
    channelCategoryId: string | null;
  }): Promise<CategoryMapping> {
    const shop = await grants.readyShop(input.shopId);
    const [category] = await db
      .select({ id: categories.id, name: categories.name })
      .from(categories)
      .where(eq(categories.id, input.categoryId));
    if (!category) throw notFound('Category not found');
    if (input.channelCategoryId === null) {
      await db
        .delete(socialShopCategoryMappings)
        .where(
          and(
            eq(socialShopCategoryMappings.connectionId, shop.id),
            eq(socialShopCategoryMappings.categoryId, category.id),
          ),
        );
      return mappingAnswer(category, undefined);
    }
    const chosen = (await grants.withShop(shop, (access) => socialShop.categories(access))).find(
      (c) => c.id === input.channelCategoryId && c.isLeaf,
    );
    if (!chosen)
      throw new AppError(400, 'invalid_input', 'Choose one of the TikTok Shop categories listed', 'channelCategoryId');
    const values = {
      channelCategoryId: chosen.id,
      channelCategoryName: chosen.name,
      source: 'owner' as const,
      updatedAt: now(),
    };
    const [row] = await db
      .insert(socialShopCategoryMappings)
      .values({ connectionId: shop.id, categoryId: category.id, ...values })
      .onConflictDoUpdate({
        target: [socialShopCategoryMappings.connectionId, socialShopCategoryMappings.categoryId],
        set: values,
      })
      .returning();
    // The products of that category are sent again by the next sync (their listing changed).
    await db
      .update(socialShopListings)
      .set({ contentHash: null })
      .where(
        and(
          eq(socialShopListings.connectionId, shop.id),
          inArray(
            socialShopListings.productId,
            db
              .select({ id: productCategories.productId })
              .from(productCategories)
              .where(eq(productCategories.categoryId, category.id)),
          ),
        ),
      );
    return mappingAnswer(category, row);
  }

  return { start, run, latest, work, pushChangedStock, categoryMappings, saveCategoryMapping };
}

export type SocialShopSync = ReturnType<typeof createSocialShopSync>;

function mappingAnswer(
  category: { id: string; name: string },
  mapped: typeof socialShopCategoryMappings.$inferSelect | undefined,
): CategoryMapping {
  return {
    categoryId: category.id,
    categoryName: category.name,
    channelCategoryId: mapped?.channelCategoryId ?? null,
    channelCategoryName: mapped?.channelCategoryName ?? null,
    source: mapped?.source ?? null,
  };
}

/**
 * The currency each TikTok Shop market lists in. A shop lists in its market's currency, and the
 * shop's prices are in one currency: a shop of another market would refuse every product.
 */
const MARKET_CURRENCIES: Record<string, string> = {
  US: 'USD',
  GB: 'GBP',
  IE: 'EUR',
  DE: 'EUR',
  FR: 'EUR',
  IT: 'EUR',
  ES: 'EUR',
  MX: 'MXN',
  BR: 'BRL',
  JP: 'JPY',
  ID: 'IDR',
  MY: 'MYR',
  PH: 'PHP',
  SG: 'SGD',
  TH: 'THB',
  VN: 'VND',
};

/** Refuses, as a whole, a product sync to a shop whose market lists in another currency than ours. */
function assertSellsIn(shop: Connection, currency: string) {
  const listsIn = MARKET_CURRENCIES[shop.region.toUpperCase()];
  if (listsIn && listsIn !== currency) {
    throw new AppError(
      409,
      'shop_currency',
      `${shop.shopName} (${shop.region}) lists in ${listsIn}, and the shop's prices are in ${currency}: choose a shop that sells in ${currency}`,
    );
  }
}

function productsNote(total: number, result: SyncResult, unchanged: number, shopName: string): string {
  if (total === 0) return 'No active product to sync.';
  const parts = [`${result.synced} of ${total} products sent to ${shopName}.`];
  if (unchanged > 0) {
    parts.push(
      `${unchanged} unchanged since the last sync ${unchanged === 1 ? 'was' : 'were'} skipped: tick Force all to send ${unchanged === 1 ? 'it' : 'them'} again.`,
    );
  }
  if (result.failed > 0) parts.push(`${result.failed} failed: see the errors below.`);
  return parts.join(' ');
}
