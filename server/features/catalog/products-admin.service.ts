import { and, asc, count, desc, eq, ilike, inArray, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AdminProduct, ProductInput, ProductPatch, SkuVariantInput } from '#common/contracts/admin/products.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import { IMAGE_WIDTHS } from '#common/images.ts';
import {
  applyProductPrice,
  DEFAULT_VARIANT_LABEL,
  dropBlank,
  normaliseCategories,
  productStock,
  slugify,
} from '#common/product-rules.ts';
import type { ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import type { Db } from '#server/db/client.ts';
import {
  countedPage,
  firstPageOf,
  type PageStatementShape,
  pageIdsPlaceholderOf,
  sortKeys,
} from '#server/db/counted-page.ts';
import { newId } from '#server/db/ids.ts';
import { containing } from '#server/db/like-pattern.ts';
import { countRows, rowCountsSum } from '#server/db/row-counts.ts';
import { statementPerShape } from '#server/db/statement-shapes.ts';
import type { Actor } from '#server/features/accounts/admin-management.service.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import { orderItems } from '#server/features/orders/orders.tables.ts';
import { conflict, notFound, uniqueViolation } from '#server/http/errors.ts';
import { loadEachTime, type Remember } from '#server/http/remembered-values.ts';
import { composeSearchText } from './catalog.service.ts';
import { categories, productCategories, productImages, products, skuVariants } from './catalog.tables.ts';
import { type ProductWithDetails, productColumns, productDetailColumns } from './product-details.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Reader = Db | Tx;
const detailedColumns = { ...productColumns, ...productDetailColumns };
type ListQuery = {
  page: number;
  limit: number;
  search?: string | undefined;
  categoryFilter?: string | undefined;
  sortBy: 'title' | 'price' | 'stock' | 'sales' | 'createdAt';
  sortOrder: 'asc' | 'desc';
};
/** What a page's statement is built for; the filters' values, the limit and the offset are its values. */
type PageShape = Pick<ListQuery, 'sortBy' | 'sortOrder'> & PageStatementShape & { inCategory: boolean };

const slugTaken = (slug: string) => conflict('slug_taken', `The URL slug "${slug}" is already used by another product`);

/** What the audit log keeps of a product, before and after a change (prices in cents). */
function auditedFields(product: AdminProduct) {
  return {
    title: product.title,
    slug: product.slug,
    price: product.price,
    salePrice: product.salePrice,
    status: product.status,
    stock: product.stock,
    aliId: product.aliId,
    categories: product.categories,
    images: product.images.length,
    skuVariants: product.skuVariants.map((v) => ({ skuAttr: v.skuAttr, price: v.price, isActive: v.isActive })),
  };
}

/**
 * The products tab of the back office (spec 2, 3, 5 and 7; permission uploadProducts): every
 * product in every status, and its writes. A write and its audit row are one transaction; once
 * committed it is a live event, which also drops the public cache on every instance (app.ts). The
 * search index is the product's searchText column, written with the product. Stored images that
 * a write leaves unused are removed from storage afterwards.
 */
export function createProductsAdminService({
  db,
  events,
  storage,
  log = () => {},
  remember = loadEachTime,
}: {
  db: Db;
  events: DomainEvents;
  storage: ObjectStorage;
  log?: (message: string, error?: unknown) => void;
  /** Keeps a searched page's ids for the readers after it (countedPage's `remembered`); without it each searches. */
  remember?: Remember;
}) {
  /** The back office's products of the given rows (read with their details), keeping their order. */
  function present(rows: ProductWithDetails[]): AdminProduct[] {
    return rows.map((row) => {
      const ownVariants = row.variants;
      return {
        id: row.id,
        title: row.title,
        slug: row.slug,
        description: row.description,
        sku: ownVariants[0]?.skuId ?? '',
        images: row.imageUrls,
        price: row.price,
        salePrice: row.salePrice,
        categories: row.productCategories.map((category) => category.name),
        tags: row.tags,
        features: row.features,
        status: row.status,
        stock: row.stock,
        skuVariants: ownVariants.map((v) => ({
          skuId: v.skuId,
          skuAttr: v.skuAttr,
          name: v.name,
          label: v.label,
          price: v.price,
          salePrice: v.salePrice,
          stock: v.stock,
          image: v.image,
          images: v.images,
          isActive: v.isActive,
        })),
        aliId: row.aliId,
        aliExpressPrice: row.aliExpressPrice,
        variantLabel: row.variantLabel,
        skuImagePosition: row.skuImagePosition,
        sales: row.sales,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      };
    });
  }

  /** How many products there are: the row_counts rollup (triggers), not a count of every product. */
  const countAllProducts = () => countRows(db, ['products']);

  const sortColumns = {
    title: sql`lower(${products.title}) COLLATE "C"`,
    price: products.price,
    stock: products.stock,
    sales: products.sales,
    createdAt: products.createdAt,
  } as const;

  /**
   * The products the filters select (each value given, or a placeholder for it): the title
   * through its trigram index or a marketplace id exactly, through its own; a category's
   * products through the category's index.
   */
  function whereOf({
    pattern,
    aliId,
    categoryId,
  }: {
    pattern: string | Placeholder | undefined;
    aliId: string | Placeholder | undefined;
    categoryId: string | Placeholder | undefined;
  }): SQL | undefined {
    return and(
      pattern === undefined || aliId === undefined
        ? undefined
        : or(ilike(products.title, pattern), eq(products.aliId, aliId)),
      categoryId === undefined
        ? undefined
        : inArray(
            products.id,
            db
              .select({ id: productCategories.productId })
              .from(productCategories)
              .where(eq(productCategories.categoryId, categoryId)),
          ),
    );
  }

  /** A page of products, its ids read first: the details' subqueries then run for its rows alone. */
  const pageStatement = statementPerShape(
    'admin_products',
    ({ sortBy, sortOrder, searched, inCategory, mode, firstPage }: PageShape, name) => {
      const keys = [sortColumns[sortBy], products.id];
      const direction = sortOrder === 'asc' ? asc : desc;
      const pageIds = pageIdsPlaceholderOf(db, products.id, {
        where: whereOf({
          pattern: searched ? sql.placeholder('pattern') : undefined,
          aliId: searched ? sql.placeholder('aliId') : undefined,
          categoryId: inCategory ? sql.placeholder('categoryId') : undefined,
        }),
        keys,
        direction,
        mode,
        firstPage,
        total: rowCountsSum(),
      });
      return db
        .select({ ...detailedColumns, matches: pageIds.matches })
        .from(products)
        .innerJoin(pageIds, eq(pageIds.id, products.id))
        .orderBy(...sortKeys(keys, direction))
        .prepare(name);
    },
  );

  /** Spec 7: every product (archived too), searched by title or marketplace id, filtered by category and sorted, 10 a page. */
  async function list(query: ListQuery) {
    const search = query.search || undefined;
    let categoryId: string | undefined;
    if (query.categoryFilter) {
      // The category first (by name, any case), then its products through the category's index.
      const [category] = await db
        .select({ id: categories.id })
        .from(categories)
        .where(sql`lower(${categories.name}) = lower(${query.categoryFilter})`)
        .limit(1);
      if (!category) return { products: [], pagination: paginationOf(query.page, query.limit, 0) };
      categoryId = category.id;
    }
    const values = { pattern: search && containing(search), aliId: search, categoryId };
    const offset = (query.page - 1) * query.limit;
    const { rows, total, capped } = await countedPage({
      db,
      where: whereOf(values),
      table: products,
      offset,
      searched: search !== undefined,
      limit: query.limit,
      /*
       * Unsearched, the matches are counted a cheaper way than counting what the filters select:
       * every product (kept between reads), or a category alone (its rows in product_categories,
       * one per product, through the category's index instead of a semi-join over every product).
       */
      countMatches: search
        ? undefined
        : categoryId === undefined
          ? countAllProducts
          : () => countInCategory(categoryId),
      totalInPage: true,
      remembered: { remember, key: `admin-products:${JSON.stringify(query)}` },
      page: (_filter, mode, window, ids) =>
        pageStatement({
          sortBy: query.sortBy,
          sortOrder: query.sortOrder,
          searched: search !== undefined,
          inCategory: categoryId !== undefined,
          mode,
          firstPage: firstPageOf(offset, query.limit, search === undefined && categoryId === undefined),
        }).execute({ ...values, limit: query.limit, offset, window, ids, scopes: ['products'] }),
    });
    return { products: present(rows), pagination: paginationOf(query.page, query.limit, total, capped) };
  }

  /** How many products a category holds: its rows in product_categories, one per product. */
  async function countInCategory(categoryId: string): Promise<number> {
    const [row] = await db
      .select({ value: count() })
      .from(productCategories)
      .where(eq(productCategories.categoryId, categoryId));
    return row?.value ?? 0;
  }

  async function read(reader: Reader, id: string): Promise<AdminProduct | null> {
    const [row] = await reader.select(detailedColumns).from(products).where(eq(products.id, id)).limit(1);
    return row ? (present([row])[0] ?? null) : null;
  }

  async function get(id: string): Promise<AdminProduct> {
    const product = await read(db, id);
    if (!product) throw notFound(`Product not found: ${id}`);
    return product;
  }

  /** Spec 7: the categories to pick from, in the navigation's order, with how many products each has. */
  async function listCategories() {
    return db
      .select({
        id: categories.id,
        name: categories.name,
        slug: categories.slug,
        productCount: sql<number>`(SELECT count(*)::int FROM ${productCategories} pc WHERE pc.category_id = ${categories.id})`,
      })
      .from(categories)
      .orderBy(asc(categories.position), asc(categories.name));
  }

  /**
   * The ids of the named categories, creating the new ones (spec 2: add a new one by name). The
   * unique indexes decide: two admins adding the same name at once get the same category.
   */
  async function categoryIds(tx: Tx, names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const lowered = names.map((name) => name.toLowerCase());
    const find = () =>
      tx
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(inArray(sql`lower(${categories.name})`, lowered));
    let found = await find();
    const missing = names.filter((name) => !found.some((c) => c.name.toLowerCase() === name.toLowerCase()));
    if (missing.length > 0) {
      const [last] = await tx
        .select({ position: sql<number>`coalesce(max(${categories.position}), -1)::int` })
        .from(categories);
      let position = (last?.position ?? -1) + 1;
      for (const name of missing) {
        // A slug another name already has (e.g. 'Desk & Office' after 'Desk Office') gets the id's start.
        const base = slugify(name);
        const [clash] = await tx
          .select({ id: categories.id })
          .from(categories)
          .where(eq(categories.slug, base))
          .limit(1);
        const id = newId();
        await tx
          .insert(categories)
          .values({ id, name, slug: clash ? `${base}-${id.slice(0, 6)}` : base, position: position++ })
          .onConflictDoNothing();
      }
      found = await find();
    }
    return names.map((name) => {
      const category = found.find((c) => c.name.toLowerCase() === name.toLowerCase());
      if (!category) throw new Error(`category ${name} could not be stored`);
      return category.id;
    });
  }

  /** The first free slug for a title: the title's, else with -2, -3, … */
  async function freeSlug(tx: Tx, title: string, exceptId: string | null): Promise<string> {
    const base = slugify(title);
    const taken = new Set(
      (
        await tx
          .select({ slug: products.slug })
          .from(products)
          .where(
            and(
              or(eq(products.slug, base), sql`${products.slug} LIKE ${`${base.replace(/[\\%_]/g, '\\$&')}-%`}`),
              exceptId ? sql`${products.id} <> ${exceptId}` : undefined,
            ),
          )
      ).map((row) => row.slug),
    );
    if (!taken.has(base)) return base;
    for (let n = 2; ; n++) if (!taken.has(`${base}-${n}`)) return `${base}-${n}`;
  }

  /** Writes the product's variants, images and categories as given, replacing what was there. */
  async function writeChildren(
    tx: Tx,
    productId: string,
    parts: { variants?: SkuVariantInput[]; images?: string[]; categoryIds?: string[] },
  ) {
    if (parts.variants) {
      await tx.delete(skuVariants).where(eq(skuVariants.productId, productId));
      if (parts.variants.length > 0) {
        await tx.insert(skuVariants).values(
          parts.variants.map((variant, position) => ({
            productId,
            // A variant added by hand has no marketplace SKU id: its attribute string names it.
            skuId: variant.skuId || variant.skuAttr,
            skuAttr: variant.skuAttr,
            name: variant.name,
            label: variant.label,
            price: variant.price,
            salePrice: variant.salePrice,
            stock: variant.stock,
            image: variant.image,
            images: variant.images,
            isActive: variant.isActive,
            position,
          })),
        );
      }
    }
    if (parts.images) {
      const kept = await tx.select().from(productImages).where(eq(productImages.productId, productId));
      await tx.delete(productImages).where(eq(productImages.productId, productId));
      if (parts.images.length > 0) {
        await tx.insert(productImages).values(
          parts.images.map((url, position) => {
            const known = kept.find((image) => image.url === url);
            return {
              productId,
              url,
              storageKey: known?.storageKey ?? storageKeyOf(url),
              alt: known?.alt ?? '',
              width: known?.width ?? null,
              height: known?.height ?? null,
              position,
              source: known?.source ?? ('uploaded' as const),
            };
          }),
        );
      }
    }
    if (parts.categoryIds) {
      await tx.delete(productCategories).where(eq(productCategories.productId, productId));
      if (parts.categoryIds.length > 0) {
        await tx
          .insert(productCategories)
          .values(parts.categoryIds.map((categoryId, position) => ({ productId, categoryId, position })));
      }
    }
  }

  /** The storage key behind one of this shop's stored image URLs, or null for any other URL. */
  function storageKeyOf(url: string): string | null {
    const base = storage.publicUrl('');
    if (!url.startsWith(base)) return null;
    const key = url.slice(base.length);
    return /^(products|drafts)\/[a-z0-9._/-]+\.webp$/i.test(key) && !key.includes('..') ? key : null;
  }

  /**
   * After a write: the stored images the product no longer shows, and that no product or variant
   * uses, are removed with their renditions. Best effort: a failure leaves a file behind, logged.
   */
  async function removeUnused(urls: string[]) {
    const candidates = [...new Set(urls)].filter((url) => storageKeyOf(url) !== null);
    if (candidates.length === 0) return;
    try {
      const asArray = sql`array[${sql.join(
        candidates.map((url) => sql`${url}`),
        sql`, `,
      )}]::text[]`;
      const [asImages, asVariantImages] = await Promise.all([
        db.select({ url: productImages.url }).from(productImages).where(inArray(productImages.url, candidates)),
        db
          .select({ image: skuVariants.image, images: skuVariants.images })
          .from(skuVariants)
          .where(or(inArray(skuVariants.image, candidates), sql`${skuVariants.images} ?| ${asArray}`)),
      ]);
      const used = new Set([
        ...asImages.map((row) => row.url),
        ...asVariantImages.flatMap((row) => [row.image ?? '', ...row.images]),
      ]);
      for (const url of candidates) {
        if (used.has(url)) continue;
        const key = storageKeyOf(url) as string;
        const renditions = IMAGE_WIDTHS.map((width) => key.replace(/\.webp$/, `-${width}w.webp`));
        await Promise.all([key, ...renditions].map((k) => storage.delete(k)));
      }
    } catch (error) {
      log('unused product images could not be removed', error);
    }
  }

  function imageUrlsOf(product: AdminProduct | null): string[] {
    if (!product) return [];
    return [
      ...product.images,
      ...product.skuVariants.flatMap((variant) => [...(variant.image ? [variant.image] : []), ...variant.images]),
    ];
  }

  async function audit(
    tx: Tx,
    actor: Actor,
    action: string,
    id: string,
    before: AdminProduct | null,
    after: AdminProduct | null,
  ) {
    await tx.insert(auditLog).values({
      actorUserId: actor.userId,
      action,
      entityType: 'product',
      entityId: id,
      details: { before: before && auditedFields(before), after: after && auditedFields(after) },
      ip: actor.ip,
    });
  }

  /** Runs a write, trying again when a generated slug was taken in the meantime (the unique index decides). */
  async function withSlugRetry<T>(write: () => Promise<T>, explicitSlug: string | null): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await write();
      } catch (error) {
        if (uniqueViolation(error)?.constraint !== 'products_slug_key') throw error;
        if (explicitSlug) throw slugTaken(explicitSlug);
        if (attempt >= 5) throw conflict('slug_taken', 'A free URL slug could not be found: give one');
      }
    }
  }

  /** The fields of a product derived from its input: normalised lists, prices carried to the SKUs, stock, search text. */
  function derive(input: ProductInput, names: string[], priceChanged: boolean) {
    const variants = applyProductPrice(input, input.skuVariants, priceChanged);
    const tags = dropBlank(input.tags);
    return {
      variants,
      columns: {
        title: input.title,
        description: input.description,
        price: input.price,
        salePrice: input.salePrice,
        features: dropBlank(input.features),
        tags,
        status: input.status,
        stock: productStock(variants, input.stock),
        aliId: input.aliId,
        aliExpressPrice: input.aliExpressPrice,
        variantLabel: input.variantLabel || DEFAULT_VARIANT_LABEL,
        skuImagePosition: input.skuImagePosition,
        searchText: composeSearchText({ title: input.title, tags, categories: names, description: input.description }),
      },
    };
  }

  async function create(actor: Actor, input: ProductInput) {
    const names = normaliseCategories(input.categories);
    const id = await withSlugRetry(
      () =>
        db.transaction(async (tx) => {
          const slug = input.slug || (await freeSlug(tx, input.title, null));
          const { variants, columns } = derive(input, names, false);
          const [created] = await tx
            .insert(products)
            .values({ ...columns, slug })
            .returning({ id: products.id });
          if (!created) throw new Error('the product could not be stored');
          await writeChildren(tx, created.id, {
            variants,
            images: input.images,
            categoryIds: await categoryIds(tx, names),
          });
          await audit(tx, actor, 'product.created', created.id, null, await read(tx, created.id));
          return created.id;
        }),
      input.slug || null,
    );
    const product = await get(id);
    events.publish({ type: 'product_created', data: { collection: 'products', id, product } });
    return { message: 'Product created successfully', product };
  }

  async function update(actor: Actor, id: string, patch: ProductPatch) {
    const { before, after } = await withSlugRetry(
      () =>
        db.transaction(async (tx) => {
          // Locks the product for the change: a concurrent edit or delete waits.
          const [locked] = await tx.select({ id: products.id }).from(products).where(eq(products.id, id)).for('update');
          if (!locked) throw notFound(`Product not found: ${id}`);
          const current = (await read(tx, id)) as AdminProduct;
          const merged: ProductInput = {
            title: patch.title ?? current.title,
            slug: '',
            description: patch.description ?? current.description,
            price: patch.price ?? current.price,
            salePrice: patch.salePrice !== undefined ? patch.salePrice : current.salePrice,
            // An archived product stays archived unless the edit sets a status.
            status: patch.status ?? (current.status === 'archived' ? 'inactive' : current.status),
            categories: patch.categories ?? current.categories,
            tags: patch.tags ?? current.tags,
            features: patch.features ?? current.features,
            images: patch.images ?? current.images,
            skuVariants: patch.skuVariants ?? current.skuVariants,
            aliId: patch.aliId ?? current.aliId ?? '',
            aliExpressPrice: patch.aliExpressPrice !== undefined ? patch.aliExpressPrice : current.aliExpressPrice,
            variantLabel: patch.variantLabel ?? current.variantLabel,
            skuImagePosition: patch.skuImagePosition !== undefined ? patch.skuImagePosition : current.skuImagePosition,
            stock: patch.stock ?? current.stock,
          };
          const names = normaliseCategories(merged.categories);
          const priceChanged = patch.price !== undefined && patch.price !== current.price;
          const { variants, columns } = derive(merged, names, priceChanged);
          const slug = patch.slug ? patch.slug : current.slug;
          await tx
            .update(products)
            .set({
              ...columns,
              status: patch.status ?? current.status,
              slug,
              updatedAt: new Date(),
            })
            .where(eq(products.id, id));
          await writeChildren(tx, id, {
            // Read after the lock, so a checkout's stock change in between is kept.
            variants,
            ...(patch.images ? { images: patch.images } : {}),
            ...(patch.categories ? { categoryIds: await categoryIds(tx, names) } : {}),
          });
          const written = await read(tx, id);
          await audit(tx, actor, 'product.updated', id, current, written);
          return { before: current, after: written as AdminProduct };
        }),
      patch.slug || null,
    );
    events.publish({ type: 'product_updated', data: { collection: 'products', id, product: after } });
    const kept = new Set(imageUrlsOf(after));
    await removeUnused(imageUrlsOf(before).filter((url) => !kept.has(url)));
    return { message: 'Product updated successfully', product: after };
  }

  /**
   * Spec 5: delete cannot be undone. A product that was ordered is archived instead: its order
   * lines keep pointing at it, and it leaves the storefront as a deleted one does.
   */
  async function remove(actor: Actor, id: string) {
    const { archived, before } = await db.transaction(async (tx) => {
      const [locked] = await tx.select({ id: products.id }).from(products).where(eq(products.id, id)).for('update');
      if (!locked) throw notFound(`Product not found: ${id}`);
      const current = (await read(tx, id)) as AdminProduct;
      const [ordered] = await tx.select({ one: sql`1` }).from(orderItems).where(eq(orderItems.productId, id)).limit(1);
      if (ordered) {
        await tx.update(products).set({ status: 'archived', updatedAt: new Date() }).where(eq(products.id, id));
        await audit(tx, actor, 'product.archived', id, current, { ...current, status: 'archived' });
        return { archived: true, before: current };
      }
      await tx.delete(products).where(eq(products.id, id));
      await audit(tx, actor, 'product.deleted', id, current, null);
      return { archived: false, before: current };
    });
    events.publish({ type: 'product_deleted', data: { collection: 'products', id, archived } });
    if (!archived) await removeUnused(imageUrlsOf(before));
    return {
      message: archived
        ? 'Product archived: it has orders, which keep it in their history'
        : 'Product deleted successfully',
      archived,
    };
  }

  return { list, get, listCategories, create, update, remove };
}

export type ProductsAdminService = ReturnType<typeof createProductsAdminService>;
