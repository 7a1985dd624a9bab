import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import type { SyncResult } from '#common/contracts/admin/social-shop.ts';
import { createdAt, idColumn, updatedAt } from '#server/db/columns.ts';
import { categories, products } from '#server/features/catalog/catalog.tables.ts';

/**
 * One authorisation of the channel (a seller's grant): its tokens, sealed with the settings'
 * secret box (the row's id authenticated with them). It shows as a pending shop until Resolve
 * Shops reads the shops it covers.
 */
export const socialShopGrants = pgTable('social_shop_grants', {
  id: idColumn(),
  channel: text().notNull().default('tiktok-shop'),
  sellerName: text(),
  region: text(),
  accessTokenEncrypted: text().notNull(),
  refreshTokenEncrypted: text().notNull(),
  accessTokenExpiresAt: timestamp({ withTimezone: true }).notNull(),
  refreshTokenExpiresAt: timestamp({ withTimezone: true }).notNull(),
  /** How many shops the grant covers (0 until Resolve Shops). */
  shopsDiscovered: integer().notNull().default(0),
  /** When Resolve Shops read its shops; null: pending. */
  resolvedAt: timestamp({ withTimezone: true }),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** A shop of a grant, ready for the shop-scoped calls (its cipher is stored). */
export const socialShopConnections = pgTable(
  'social_shop_connections',
  {
    id: idColumn(),
    channel: text().notNull().default('tiktok-shop'),
    grantId: text()
      .notNull()
      .references(() => socialShopGrants.id),
    shopId: text().notNull(),
    shopName: text().notNull(),
    shopCipher: text().notNull(),
    region: text().notNull(),
    /** The shop's default warehouse, where its stock is set (read once). */
    warehouseId: text(),
    /** Channel orders updated before this were searched for already. */
    ordersSearchedUntil: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('social_shop_connections_shop_key').on(t.channel, t.shopId)],
);

/** One of our SKUs as listed: its seller SKU and the channel's SKU id. */
export type ListedSku = { sellerSku: string; skuId: string | null; channelSkuId: string };

/** A product listed on a social shop, with the ids the channel gave it. */
export const socialShopListings = pgTable(
  'social_shop_listings',
  {
    connectionId: text()
      .notNull()
      .references(() => socialShopConnections.id, { onDelete: 'cascade' }),
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    externalProductId: text().notNull(),
    skus: jsonb().$type<ListedSku[]>().notNull().default([]),
    /** What was sent last (title, text, category, pictures, SKUs, prices): unchanged products are skipped. */
    contentHash: text(),
    /** Our picture URL → the channel's uri, so a picture is uploaded once. */
    imageUris: jsonb().$type<Record<string, string>>().notNull().default({}),
    /** The stock last pushed, per channel SKU id: only changes are pushed again. */
    pushedStock: jsonb().$type<Record<string, number>>().notNull().default({}),
    lastSyncedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.productId] }),
    index('social_shop_listings_external_idx').on(t.externalProductId),
  ],
);

/** An authorisation under way: the state sent to the channel, bound to the admin's session, single use. */
export const socialShopOauthStates = pgTable('social_shop_oauth_states', {
  /** SHA-256 of the state: the state itself is never stored. */
  stateHash: text().primaryKey(),
  userId: text().notNull(),
  /** SHA-256 of the session token that asked for it. */
  sessionHash: text().notNull(),
  expiresAt: timestamp({ withTimezone: true }).notNull(),
});

/** Which channel category our category's products are listed under, per shop. */
export const socialShopCategoryMappings = pgTable(
  'social_shop_category_mappings',
  {
    connectionId: text()
      .notNull()
      .references(() => socialShopConnections.id, { onDelete: 'cascade' }),
    categoryId: text()
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    channelCategoryId: text().notNull(),
    channelCategoryName: text().notNull(),
    source: text({ enum: ['recommended', 'owner'] }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.connectionId, t.categoryId] })],
);

export const syncKinds = ['products', 'inventory'] as const;
export const syncStatuses = ['queued', 'running', 'finished', 'failed'] as const;

/** A product or stock sync of one shop: a background job, its progress and its result. */
export const socialShopSyncs = pgTable(
  'social_shop_syncs',
  {
    id: idColumn(),
    connectionId: text()
      .notNull()
      .references(() => socialShopConnections.id, { onDelete: 'cascade' }),
    kind: text({ enum: syncKinds }).notNull(),
    status: text({ enum: syncStatuses }).notNull().default('queued'),
    forceAll: boolean().notNull().default(false),
    done: integer().notNull().default(0),
    total: integer().notNull().default(0),
    result: jsonb().$type<SyncResult>(),
    error: text(),
    startedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp({ withTimezone: true }),
    /** A worker's claim on the run; a run whose worker died is taken over after it lapses. */
    leaseUntil: timestamp({ withTimezone: true }),
  },
  (t) => [
    // One run of each kind per shop at a time: a second request gets the running one.
    uniqueIndex('social_shop_syncs_active_key')
      .on(t.connectionId, t.kind)
      .where(sql`${t.status} IN ('queued', 'running')`),
    index('social_shop_syncs_shop_idx').on(t.connectionId, t.kind, t.startedAt),
  ],
);

/** Webhook deliveries seen, by the channel's notification id: a replay is ignored. */
export const socialShopWebhookEvents = pgTable('social_shop_webhook_events', {
  notificationId: text().primaryKey(),
  receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
