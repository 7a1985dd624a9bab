import { type SQL, sql } from 'drizzle-orm';
import {
  boolean,
  check,
  customType,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { adminProductStatuses } from '#common/contracts/admin/products.ts';
import { createdAt, idColumn, updatedAt } from '#server/db/columns.ts';

export const categories = pgTable(
  'categories',
  {
    id: idColumn(),
    name: text().notNull(),
    slug: text().notNull(),
    /** Order in the navigation bar. */
    position: integer().notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('categories_slug_key').on(t.slug), uniqueIndex('categories_name_key').on(sql`lower(${t.name})`)],
);

/** PostgreSQL's full-text document type; read only by the database itself (search). */
const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

export type ProductCoupon = { code: string; value: string };

export const products = pgTable(
  'products',
  {
    id: idColumn(),
    slug: text().notNull(),
    title: text().notNull(),
    description: text().notNull().default(''),
    /** Integer cents. */
    price: integer().notNull(),
    /** Integer cents; null when the product is not on sale. */
    salePrice: integer(),
    features: jsonb().$type<string[]>().notNull().default([]),
    specifications: jsonb().$type<Record<string, string>>().notNull().default({}),
    tags: jsonb().$type<string[]>().notNull().default([]),
    /** active, inactive or draft; archived: deleted from the back office but kept for its orders. */
    status: text({ enum: adminProductStatuses }).notNull().default('active'),
    /** Units available across the product's active variants (kept in step by the catalogue service). */
    stock: integer().notNull().default(0),
    /** Marketplace (AliExpress) product id. */
    aliId: text(),
    /** What the marketplace charges us per unit, integer cents. */
    aliExpressPrice: integer(),
    variantLabel: text().notNull().default('Style'),
    /** Where SKU images sit among the product images; null: after them. */
    skuImagePosition: integer(),
    discountCodes: jsonb().$type<ProductCoupon[]>().notNull().default([]),
    /** Units sold, counted when an order is paid. */
    sales: integer().notNull().default(0),
    /** Title, tags, categories and description in one text, for typo-tolerant and full-text search. */
    searchText: text().notNull().default(''),
    /** searchText as stemmed English words, kept by the database: what search matches and ranks with. */
    searchVector: tsvector()
      .notNull()
      .generatedAlwaysAs((): SQL => sql`to_tsvector('english', ${products.searchText})`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('products_slug_key').on(t.slug),
    index('products_status_created_idx').on(t.status, t.createdAt),
    index('products_status_title_idx').on(t.status, t.title),
    index('products_ali_id_idx').on(t.aliId),
    // The products tab's sorts over every status (issue 13), the id breaking ties; titles by
    // code point, as the users tab sorts names, so both databases give one order.
    index('products_title_sort_idx').on(sql`lower(${t.title}) COLLATE "C"`, t.id),
    index('products_price_id_idx').on(t.price, t.id),
    index('products_stock_id_idx').on(t.stock, t.id),
    index('products_sales_id_idx').on(t.sales, t.id),
    index('products_created_id_idx').on(t.createdAt, t.id),
    index('products_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
    index('products_search_vector_idx').using('gin', t.searchVector),
    check('products_price_check', sql`${t.price} >= 0`),
    check('products_sale_price_check', sql`${t.salePrice} IS NULL OR ${t.salePrice} >= 0`),
  ],
);

export const productCategories = pgTable(
  'product_categories',
  {
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    categoryId: text()
      .notNull()
      .references(() => categories.id, { onDelete: 'cascade' }),
    /** Order of the category on the product (the first is the main one). */
    position: integer().notNull().default(0),
    /**
     * Copies of the product's active-ness and creation time, written by the database's triggers
     * (never by the shop), so that a category's listing, newest first, reads one index: at a
     * million products, finding page 30 through the products' own order cost 4,000 lookups here.
     */
    productActive: boolean().notNull().default(false),
    productCreatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.productId, t.categoryId] }),
    index('product_categories_category_idx').on(t.categoryId),
    index('product_categories_listing_idx')
      .on(t.categoryId, t.productCreatedAt.desc().nullsFirst(), t.productId)
      .where(sql`${t.productActive}`),
  ],
);

/**
 * How many active products the storefront has in all ('all') and in each category (its id): kept
 * by triggers as products and their categories change (migration 0021), so the navigation's
 * counts and a listing's total are one row each, not a count over the catalogue.
 */
export const activeProductCounts = pgTable('active_product_counts', {
  /** 'all', or a category's id. */
  scope: text().primaryKey(),
  products: integer().notNull().default(0),
});

/**
 * Every word of the products' search texts, kept by a trigger as products are written (migration
 * 0023): a typo in a search is matched against these few thousand words (trigram similarity),
 * not against a million texts, and the words found are then looked up in the products' index.
 */
export const searchWords = pgTable('search_words', { word: text().primaryKey() }, (t) => [
  index('search_words_trgm_idx').using('gin', t.word.op('gin_trgm_ops')),
]);

export const imageSources = ['seed', 'uploaded', 'aliexpress'] as const;

export const productImages = pgTable(
  'product_images',
  {
    id: idColumn(),
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    /** Public URL of the largest rendition (renditions are derived from it, see common/images.ts). */
    url: text().notNull(),
    /** Key in object storage; null for images hosted elsewhere. */
    storageKey: text(),
    alt: text().notNull().default(''),
    width: integer(),
    height: integer(),
    position: integer().notNull().default(0),
    source: text({ enum: imageSources }).notNull().default('uploaded'),
    createdAt: createdAt(),
  },
  (t) => [index('product_images_product_idx').on(t.productId, t.position)],
);

export const skuVariants = pgTable(
  'sku_variants',
  {
    id: idColumn(),
    productId: text()
      .notNull()
      .references(() => products.id, { onDelete: 'cascade' }),
    skuId: text().notNull(),
    skuAttr: text().notNull(),
    name: text().notNull(),
    label: text().notNull().default(''),
    /** Integer cents. */
    price: integer().notNull(),
    salePrice: integer(),
    stock: integer().notNull().default(0),
    image: text(),
    images: jsonb().$type<string[]>().notNull().default([]),
    isActive: boolean().notNull().default(true),
    position: integer().notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('sku_variants_product_attr_key').on(t.productId, t.skuAttr),
    index('sku_variants_product_idx').on(t.productId, t.position),
    index('sku_variants_sku_idx').on(t.skuId),
    check('sku_variants_price_check', sql`${t.price} >= 0`),
  ],
);
