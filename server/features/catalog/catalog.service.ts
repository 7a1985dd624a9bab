import { and, asc, desc, eq, inArray, or, type SQL, type Subquery, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { averageRating, summarize } from '#common/catalog-rules.ts';
import type { Category, Product, ProductList, ProductSummary } from '#common/contracts/catalog.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import { shownSalePrice } from '#common/pricing.ts';
import { type Db, executeRows } from '#server/db/client.ts';
import { pageIdsOf } from '#server/db/counted-page.ts';
import type { RunningSales } from '#server/features/marketing/marketing.service.ts';
import { notFound } from '#server/http/errors.ts';
import { activeProductCounts, categories, productCategories, products, searchWords } from './catalog.tables.ts';
import { type ProductWithDetails, productColumns, productDetailColumns } from './product-details.ts';
import { automaticSalesAt, nextSaleChange } from './sale-prices.ts';

/** A product row with its details and its rating, as the storefront reads it. */
const detailedProductColumns = {
  ...productColumns,
  ...productDetailColumns,
  ratings: sql<{ sum: number; count: number } | null>`(SELECT json_build_object(
      'sum', r.rating_sum, 'count', r.review_count)
    FROM product_ratings r WHERE r.product_id = products.id)`,
};
type ProductRow = ProductWithDetails & { ratings: { sum: number; count: number } | null };

/** A search ranks at most this many of its matches (its best sellers): ranking all of a common word's would cost a read of each. */
const SEARCH_CANDIDATES = 500;
/** Known words tried for each word of a search, the closest first. */
const SIMILAR_WORDS = 20;
type PageRequest = { page: number; limit: number };

/** The text that search matches: title, tags and categories weigh in before the description. */
export function composeSearchText(p: { title: string; tags: string[]; categories: string[]; description: string }) {
  return [p.title, p.tags.join(' '), p.categories.join(' '), p.description].join('\n').toLowerCase();
}

/** A product as lists show it (see ProductSummary). */
export function toSummary(product: Product): ProductSummary {
  return {
    id: product.id,
    slug: product.slug,
    title: product.title,
    summary: summarize(product.description),
    price: product.price,
    salePrice: product.salePrice,
    images: product.images,
    features: product.features,
    categories: product.categories,
    variantLabel: product.variantLabel,
    skuVariants: product.skuVariants.map(({ images: _gallery, ...variant }) => variant),
    stock: product.stock,
    status: product.status,
    rating: product.rating,
    createdAt: product.createdAt,
  };
}

/**
 * The storefront's catalogue. Prices carry the sale price a running automatic sale gives (issue
 * 12), computed as the checkout computes it, from the sales the checkout keeps in memory: no
 * query per product.
 */
export function createCatalogService({
  db,
  runningSales,
  searchCandidates = SEARCH_CANDIDATES,
  remember = (_key, load) => load(),
}: {
  db: Db;
  runningSales: RunningSales;
  searchCandidates?: number;
  /** Keeps work that several answers share (PublicCache's remember); without it each computes its own. */
  remember?: <T>(key: string, load: () => Promise<T>) => Promise<T>;
}) {
  const isActive = eq(products.status, 'active');

  /** The storefront's products of the given rows, keeping their order, at their sale prices. */
  async function present(rows: ProductRow[]): Promise<Product[]> {
    if (rows.length === 0) return [];
    const running = await runningSales.get();
    const automatic = automaticSalesAt(running, new Date());
    return rows.map((row) => {
      const categoryIds = row.productCategories.map((category) => category.id);
      // A product's own price is a cart line without a variant; each variant is its own line.
      const salePriceOf = (skuId: string | null, price: number, salePrice: number | null) =>
        automatic.length === 0
          ? salePrice
          : shownSalePrice({ productId: row.id, categoryIds, skuId, price, salePrice }, automatic);
      // With a single active variant, the cart prices that variant (spec 4): so do the cards.
      const activeVariants = row.variants.filter((v) => v.isActive);
      const only = activeVariants.length === 1 ? activeVariants[0] : undefined;
      return {
        id: row.id,
        slug: row.slug,
        title: row.title,
        description: row.description,
        price: only ? only.price : row.price,
        salePrice: only
          ? salePriceOf(only.skuId, only.price, only.salePrice)
          : salePriceOf(null, row.price, row.salePrice),
        images: row.imageUrls,
        features: row.features,
        specifications: row.specifications,
        tags: row.tags,
        categories: row.productCategories.map((category) => category.name),
        variantLabel: row.variantLabel,
        skuVariants: row.variants.map((v) => ({
          skuId: v.skuId,
          skuAttr: v.skuAttr,
          name: v.name,
          label: v.label,
          price: v.price,
          salePrice: salePriceOf(v.skuId, v.price, v.salePrice),
          stock: v.stock,
          image: v.image,
          images: v.images,
          isActive: v.isActive,
        })),
        skuImagePosition: row.skuImagePosition,
        stock: row.stock,
        // The storefront reads active products only; an archived one is gone from it.
        status: row.status === 'archived' ? 'inactive' : row.status,
        aliId: row.aliId,
        rating: row.ratings
          ? { average: averageRating(row.ratings.sum, row.ratings.count), count: row.ratings.count }
          : { average: 0, count: 0 },
        createdAt: row.createdAt.toISOString(),
      };
    });
  }

  /** Active products in all ('all') or in a category (its id), from the rollup the triggers keep. */
  const activeCountOf = async (scope: string) =>
    (
      await db
        .select({ products: activeProductCounts.products })
        .from(activeProductCounts)
        .where(eq(activeProductCounts.scope, scope))
    )[0]?.products ?? 0;

  /**
   * A page of products: its ids first (a subquery of pageIdsOf), then their details, in `orderBy`,
   * the ids' own order. A row's details read for every row the offset skips instead would cost
   * their subqueries 720 times for page 30 of 24 (400 ms at a million products).
   */
  async function page(
    pageIds: Subquery<'page_ids'> & { id: AnyPgColumn },
    { page, limit }: PageRequest,
    orderBy: SQL[],
    total: Promise<number>,
  ): Promise<ProductList> {
    const [rows, matches] = await Promise.all([
      db
        .select(detailedProductColumns)
        .from(products)
        .innerJoin(pageIds, eq(pageIds.id, products.id))
        .orderBy(...orderBy),
      total,
    ]);
    return { products: (await present(rows)).map(toSummary), pagination: paginationOf(page, limit, matches) };
  }

  /** Active products, newest first; optionally of one category given by slug or name. */
  async function listProducts(request: PageRequest & { category?: string | undefined }): Promise<ProductList> {
    const newestFirst = [sql`${products.createdAt} desc`, asc(products.id)];
    const offset = (request.page - 1) * request.limit;
    if (!request.category) {
      const pageIds = pageIdsOf(db, products.id, {
        where: isActive,
        orderBy: newestFirst,
        limit: request.limit,
        offset,
      });
      return page(pageIds, request, newestFirst, activeCountOf('all'));
    }
    const wanted = request.category.toLowerCase();
    const [category] = await db
      .select({ id: categories.id })
      .from(categories)
      .where(or(eq(categories.slug, wanted), sql`lower(${categories.name}) = ${wanted}`))
      .orderBy(sql`${categories.slug} = ${wanted} desc`)
      .limit(1);
    if (!category) return { products: [], pagination: paginationOf(request.page, request.limit, 0) };
    // The page's ids from the category's rows alone, which carry their product's active-ness and
    // creation time (product_categories_listing_idx): the same order as newestFirst.
    const pageIds = pageIdsOf(db, productCategories.productId, {
      // The flag as it is, not compared with a parameter: the partial index's predicate must show.
      where: and(eq(productCategories.categoryId, category.id), sql`${productCategories.productActive}`),
      orderBy: [sql`${productCategories.productCreatedAt} desc`, asc(productCategories.productId)],
      limit: request.limit,
      offset,
    });
    return page(pageIds, request, newestFirst, activeCountOf(category.id));
  }

  /**
   * Typo-tolerant search: every word of the term (stop words aside) must be in the product's
   * text, or a known word close to it (trigram word similarity: a typo's corrections, a prefix's
   * completions). Of the matches, the best-selling `searchCandidates` are ranked by closeness of
   * the words to the title, full-text rank and a nudge for best sellers. The ranking is what
   * costs (at a million products, 7-30 ms for a common word): each page slices it, computed once
   * for all of a term's pages through `remember`.
   */
  async function searchProducts(term: string, request: PageRequest): Promise<ProductList> {
    const words = term
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .filter((word) => word.length > 0)
      .slice(0, 8);
    const ranking = await remember(`search-ranking:${words.join(' ')}`, () => rankingOf(words));
    const { page, limit } = request;
    const pageIds = ranking.slice((page - 1) * limit, page * limit);
    const rows =
      pageIds.length === 0
        ? []
        : await db
            .select(detailedProductColumns)
            .from(products)
            .where(and(isActive, inArray(products.id, pageIds)));
    const positionOf = new Map(pageIds.map((id, position) => [id, position]));
    rows.sort((a, b) => (positionOf.get(a.id) ?? 0) - (positionOf.get(b.id) ?? 0));
    return { products: (await present(rows)).map(toSummary), pagination: paginationOf(page, limit, ranking.length) };
  }

  /** The ids of a search's ranked matches, best first (see searchProducts). */
  async function rankingOf(words: string[]): Promise<string[]> {
    const expanded = words.length === 0 ? [] : await closeWords(words);
    const meaningful = expanded.filter((word) => word.meaningful);
    if (meaningful.length === 0) return [];
    const lexemes = (word: string) => sql`plainto_tsquery('english', ${word})`;
    const query = sql.join(
      meaningful.map((word) => sql`(${sql.join([word.word, ...word.similar].map(lexemes), sql` || `)})`),
      sql` && `,
    );
    // The candidates carry only what ranking reads; a page's products are read whole by id.
    const candidates = db
      .select({ id: products.id, title: products.title, vector: products.searchVector, sales: products.sales })
      .from(products)
      .where(and(isActive, sql`${products.searchVector} @@ (${query})`))
      .orderBy(desc(products.sales), desc(products.id))
      .limit(searchCandidates)
      .as('candidates');
    const relevance = sql<number>`${sql.join(
      meaningful.map((word) => sql`word_similarity(${word.word}, lower(${candidates.title}))`),
      sql` + `,
    )} + ts_rank(${candidates.vector}, ${query}) + ln(1 + ${candidates.sales}) * 0.05`;
    const ranked = await db
      .select({ id: candidates.id })
      .from(candidates)
      .orderBy(desc(relevance), asc(candidates.title), asc(candidates.id));
    return ranked.map((row) => row.id);
  }

  /** Each word with whether it means anything to full-text search (not a stop word) and the known words close to it. */
  async function closeWords(words: string[]) {
    return executeRows<{ word: string; meaningful: boolean; similar: string[] }>(
      db,
      sql`SELECT w.word, numnode(plainto_tsquery('english', w.word)) > 0 AS meaningful,
        array(
          SELECT v.word FROM ${searchWords} v
          WHERE w.word <% v.word AND v.word <> w.word AND numnode(plainto_tsquery('english', v.word)) > 0
          ORDER BY word_similarity(w.word, v.word) DESC, v.word
          LIMIT ${SIMILAR_WORDS}
        ) AS similar
      FROM unnest(ARRAY[${sql.join(
        words.map((word) => sql`${word}`),
        sql`, `,
      )}]::text[]) WITH ORDINALITY AS w(word, n)
      ORDER BY w.n`,
    );
  }

  // A product page's statement, built once: most product pages are read once (a miss of the
  // public cache), and drizzle built the statement's SQL at every read.
  const productByKey = db
    .select(detailedProductColumns)
    .from(products)
    .where(and(isActive, or(eq(products.slug, sql.placeholder('key')), eq(products.id, sql.placeholder('key')))))
    .limit(1)
    .prepare('catalog_product');

  /** An active product by slug or id; 'Product not found' otherwise. */
  async function getProduct(slugOrId: string): Promise<Product> {
    const [row] = await productByKey.execute({ key: slugOrId });
    if (!row) throw notFound('Product not found');
    const [product] = await present([row]);
    return product as Product;
  }

  /** The navigation's categories in their order, with how many active products each has (the rollup). */
  async function listCategories(): Promise<Category[]> {
    return db
      .select({
        name: categories.name,
        slug: categories.slug,
        productCount: sql<number>`coalesce(${activeProductCounts.products}, 0)`,
      })
      .from(categories)
      .leftJoin(activeProductCounts, eq(activeProductCounts.scope, categories.id))
      .orderBy(asc(categories.position), asc(categories.name));
  }

  /**
   * When the catalogue's prices next change by a sale's dates alone (epoch ms), or null: the
   * routes' cached answers must not outlive it.
   */
  async function nextPriceChange(now = new Date()): Promise<number | null> {
    return nextSaleChange(await runningSales.get(), now);
  }

  return { listProducts, searchProducts, getProduct, listCategories, nextPriceChange };
}

export type CatalogService = ReturnType<typeof createCatalogService>;
