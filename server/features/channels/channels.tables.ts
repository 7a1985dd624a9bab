import { index, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, idColumn, updatedAt } from '#server/db/columns.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';

export const shopStatuses = ['pending', 'ready'] as const;

/** An authorised social shop (TikTok Shop). Tokens are stored encrypted. */
export const socialShopConnections = pgTable(
  'social_shop_connections',
  {
    id: idColumn(),
    channel: text().notNull().default('tiktok-shop'),
    shopId: text(),
    shopName: text(),
    shopCipher: text(),
    region: text(),
    status: text({ enum: shopStatuses }).notNull().default('pending'),
    accessTokenEncrypted: text().notNull(),
    refreshTokenEncrypted: text().notNull(),
    accessTokenExpiresAt: timestamp({ withTimezone: true }),
    refreshTokenExpiresAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('social_shop_connections_shop_key').on(t.channel, t.shopId)],
);

/** A product listed on a social shop, with the id the channel gave it. */
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
    lastSyncedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastError: text(),
  },
  (t) => [
    primaryKey({ columns: [t.connectionId, t.productId] }),
    index('social_shop_listings_external_idx').on(t.externalProductId),
  ],
);
