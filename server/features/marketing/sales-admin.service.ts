import { and, asc, count, desc, eq, gte, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AdminSale, SaleInput, SaleTarget } from '#common/contracts/admin/sales.ts';
import { SALE_TARGETS_LIMIT } from '#common/contracts/admin/sales.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import { type DashboardRange, rangeStart } from '#common/dashboard-rules.ts';
import type { Db } from '#server/db/client.ts';
import { containing } from '#server/db/like-pattern.ts';
import type { Actor } from '#server/features/accounts/admin-management.service.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { categories, products, skuVariants } from '#server/features/catalog/catalog.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import { paidStatuses } from '#server/features/orders/order-status.ts';
import { orders } from '#server/features/orders/orders.tables.ts';
import { conflict, invalid, notFound, uniqueViolation } from '#server/http/errors.ts';
import { sales } from './marketing.tables.ts';

type Sale = typeof sales.$inferSelect;
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/**
 * The unique index decides (no check-then-insert): two admins saving the same code at once, one
 * wins and the other gets a 409 naming the code.
 */
function codeTaken(input: SaleInput) {
  return (error: unknown): never => {
    if (uniqueViolation(error)?.constraint === 'sales_coupon_code_key') {
      throw conflict('coupon_code_taken', `Coupon code "${input.couponCode}" is already used by another sale`);
    }
    throw error;
  };
}

/** What the audit log keeps of a sale, before and after a change. */
function auditedFields(sale: Sale) {
  return {
    name: sale.name,
    type: sale.type,
    targetId: sale.targetId,
    discountType: sale.discountType,
    discountValue: sale.discountValue,
    couponCode: sale.couponCode,
    isFlashSale: sale.isFlashSale,
    startDate: sale.startDate.toISOString(),
    endDate: sale.endDate.toISOString(),
    usageLimit: sale.usageLimit,
    minimumPurchase: sale.minimumPurchase,
    active: sale.active,
  };
}

/**
 * The sales tab of the back office (spec 2, 3, 5 and 7; permission uploadProducts): every sale
 * with its usage and the paid orders that used it in the range, and its writes. Each write and
 * its audit row are one transaction; once committed it is a live event, which also makes every
 * instance read its running sales again (app.ts), so the checkout prices with the change at once.
 */
export function createSalesAdminService({ db, events }: { db: Db; events: DomainEvents }) {
  /**
   * The name of each sale's target, read beside the sale. Columns are named in full: Drizzle
   * leaves a one-table query's columns unqualified, which the subqueries would read as their own.
   */
  const targetName = sql<string | null>`CASE "sales"."type"
    WHEN 'category' THEN (SELECT c.name FROM ${categories} c WHERE c.id = "sales"."target_id")
    WHEN 'product' THEN (SELECT p.title FROM ${products} p WHERE p.id = "sales"."target_id")
    WHEN 'sku' THEN (SELECT v.name || ' (' || p.title || ')' FROM ${skuVariants} v
      INNER JOIN ${products} p ON p.id = v.product_id
      WHERE v.sku_id = "sales"."target_id" ORDER BY v.id LIMIT 1)
    END`;

  /**
   * The paid orders in the range that used a sale, and their totals (cents): the order keeps the
   * ids of the sales that priced it, and, from before it kept them, the codes (a code belongs to
   * one sale at a time). One statement per sale with its id and code as values, so that both arms
   * read their GIN index (a correlated subquery read the range's every order for each sale: 78 ms
   * for a page of 10 at 100,000 orders).
   */
  async function usage(sale: Pick<Sale, 'id' | 'couponCode'>, since: Date | null) {
    const [row] = await db
      .select({
        orders: sql<number>`count(*)::int`,
        // A bigint sum read as a number (exact up to 2^53 cents).
        revenue: sql<string>`coalesce(sum(${orders.total}), 0)::text`,
      })
      .from(orders)
      .where(
        and(
          inArray(orders.status, [...paidStatuses]),
          since ? gte(orders.createdAt, since) : undefined,
          or(
            sql`${orders.saleIds} @> ${JSON.stringify([sale.id])}::jsonb`,
            // The code only for orders from before sale_ids were kept: a code that moved to another
            // sale, or was reused after its sale was deleted, must not bring that sale's orders.
            sale.couponCode
              ? sql`(${orders.saleIds} = '[]'::jsonb AND ${orders.discountCodes} @> ${JSON.stringify([sale.couponCode])}::jsonb)`
              : undefined,
          ),
        ),
      );
    return { orders: row?.orders ?? 0, revenue: Number(row?.revenue ?? 0) };
  }

  async function read(
    where: SQL | undefined,
    range: DashboardRange,
    { limit, offset }: { limit: number; offset: number } = { limit: 1, offset: 0 },
    now = new Date(),
  ): Promise<AdminSale[]> {
    const since = rangeStart(range, now);
    const page = await db
      .select({ sale: sales, targetName })
      .from(sales)
      .where(where)
      // Newest start first, ties by id: one order, page after page.
      .orderBy(desc(sales.startDate), asc(sales.id))
      .limit(limit)
      .offset(offset);
    // The figures of the page's sales only.
    const figures = await Promise.all(page.map(({ sale }) => usage(sale, since)));
    return page.map(({ sale, targetName: name }, index) => ({
      id: sale.id,
      _id: sale.id,
      name: sale.name,
      description: sale.description,
      type: sale.type,
      targetId: sale.targetId,
      targetName: name,
      discountType: sale.discountType,
      discountValue: sale.discountValue,
      couponCode: sale.couponCode,
      isFlashSale: sale.isFlashSale,
      startDate: sale.startDate.toISOString(),
      endDate: sale.endDate.toISOString(),
      usageCount: sale.usageCount,
      usageLimit: sale.usageLimit,
      minimumPurchase: sale.minimumPurchase,
      active: sale.active,
      orders: figures[index]?.orders ?? 0,
      revenue: figures[index]?.revenue ?? 0,
      createdAt: sale.createdAt.toISOString(),
    }));
  }

  /** Every sale, newest start first, a page at a time, with its paid orders and revenue in the range. */
  async function list({ dateRange, page, limit }: { dateRange: DashboardRange; page: number; limit: number }) {
    const [rows, [total]] = await Promise.all([
      read(undefined, dateRange, { limit, offset: (page - 1) * limit }),
      db.select({ value: count() }).from(sales),
    ]);
    return { sales: rows, pagination: paginationOf(page, limit, total?.value ?? 0), dateRange };
  }

  async function one(id: string): Promise<AdminSale> {
    const [sale] = await read(eq(sales.id, id), '30d');
    if (!sale) throw notFound(`Sale not found: ${id}`);
    return sale;
  }

  /** A category, product or SKU sale's target must exist (400 naming the field otherwise). */
  async function assertTarget(input: SaleInput) {
    if (input.type === 'global') return;
    const id = input.targetId ?? '';
    const found =
      input.type === 'category'
        ? await db.select({ id: categories.id }).from(categories).where(eq(categories.id, id)).limit(1)
        : input.type === 'product'
          ? await db.select({ id: products.id }).from(products).where(eq(products.id, id)).limit(1)
          : await db.select({ id: skuVariants.id }).from(skuVariants).where(eq(skuVariants.skuId, id)).limit(1);
    if (found.length === 0) throw invalid('targetId', `No ${input.type === 'sku' ? 'SKU' : input.type} ${id}`);
  }

  /** The columns a create or an edit writes (a global sale keeps no target). */
  const columnsOf = (input: SaleInput) => ({
    name: input.name,
    description: input.description,
    type: input.type,
    targetId: input.type === 'global' ? null : input.targetId,
    discountType: input.discountType,
    discountValue: input.discountValue,
    couponCode: input.couponCode,
    isFlashSale: input.isFlashSale,
    startDate: input.startDate,
    endDate: input.endDate,
    usageLimit: input.usageLimit,
    minimumPurchase: input.minimumPurchase,
    active: input.active,
  });

  async function audit(tx: Tx, actor: Actor, action: string, id: string, before: Sale | null, after: Sale | null) {
    await tx.insert(auditLog).values({
      actorUserId: actor.userId,
      action,
      entityType: 'sale',
      entityId: id,
      details: { before: before && auditedFields(before), after: after && auditedFields(after) },
      ip: actor.ip,
    });
  }

  /** Locks the sale for the change (a concurrent edit waits), or 404. */
  async function lock(tx: Tx, id: string) {
    const [sale] = await tx.select().from(sales).where(eq(sales.id, id)).for('update');
    if (!sale) throw notFound(`Sale not found: ${id}`);
    return sale;
  }

  function announce(type: 'sale_created' | 'sale_updated', sale: AdminSale) {
    events.publish({ type, data: { collection: 'sales', id: sale.id, sale } });
  }

  async function create(actor: Actor, input: SaleInput) {
    await assertTarget(input);
    const id = await db
      .transaction(async (tx) => {
        const [created] = await tx.insert(sales).values(columnsOf(input)).returning();
        if (!created) throw new Error('the sale could not be stored');
        await audit(tx, actor, 'sale.created', created.id, null, created);
        return created.id;
      })
      .catch(codeTaken(input));
    const sale = await one(id);
    announce('sale_created', sale);
    return { message: 'Sale created', sale };
  }

  /** The form's fields; whether the sale is on is Activate's and Deactivate's to change, not an edit's. */
  async function update(actor: Actor, id: string, input: SaleInput) {
    await assertTarget(input);
    const { active: _active, ...columns } = columnsOf(input);
    await db
      .transaction(async (tx) => {
        const before = await lock(tx, id);
        const [after] = await tx
          .update(sales)
          .set({ ...columns, updatedAt: new Date() })
          .where(eq(sales.id, id))
          .returning();
        await audit(tx, actor, 'sale.updated', id, before, after ?? null);
      })
      .catch(codeTaken(input));
    const sale = await one(id);
    announce('sale_updated', sale);
    return { message: 'Sale updated', sale };
  }

  /** Spec 4: a sale's active and inactive states, wired for real (design 4). */
  async function setActive(actor: Actor, id: string, active: boolean) {
    await db.transaction(async (tx) => {
      const before = await lock(tx, id);
      const [after] = await tx.update(sales).set({ active, updatedAt: new Date() }).where(eq(sales.id, id)).returning();
      await audit(tx, actor, active ? 'sale.activated' : 'sale.deactivated', id, before, after ?? null);
    });
    const sale = await one(id);
    announce('sale_updated', sale);
    return { message: active ? 'Sale activated' : 'Sale deactivated', sale };
  }

  /** The orders that used the sale keep their codes and totals; the audit row keeps the sale. */
  async function remove(actor: Actor, id: string) {
    await db.transaction(async (tx) => {
      const before = await lock(tx, id);
      await tx.delete(sales).where(eq(sales.id, id));
      await audit(tx, actor, 'sale.deleted', id, before, null);
    });
    events.publish({ type: 'sale_deleted', data: { collection: 'sales', id } });
    return { message: 'Sale deleted' };
  }

  /** Up to 50 categories, products or SKUs whose name matches, for the form's target picker. */
  async function targets(type: 'category' | 'product' | 'sku', search: string | undefined): Promise<SaleTarget[]> {
    const pattern = search ? containing(search) : undefined;
    if (type === 'category') {
      return db
        .select({ id: categories.id, name: categories.name })
        .from(categories)
        .where(pattern ? ilike(categories.name, pattern) : undefined)
        .orderBy(asc(categories.name))
        .limit(SALE_TARGETS_LIMIT);
    }
    if (type === 'product') {
      return db
        .select({ id: products.id, name: products.title })
        .from(products)
        .where(pattern ? ilike(products.title, pattern) : undefined)
        .orderBy(asc(products.title))
        .limit(SALE_TARGETS_LIMIT);
    }
    return db
      .selectDistinctOn([skuVariants.skuId], {
        id: skuVariants.skuId,
        name: sql<string>`${skuVariants.name} || ' (' || ${products.title} || ')'`,
      })
      .from(skuVariants)
      .innerJoin(products, eq(products.id, skuVariants.productId))
      .where(
        pattern
          ? or(ilike(skuVariants.name, pattern), ilike(products.title, pattern), ilike(skuVariants.skuId, pattern))
          : undefined,
      )
      .orderBy(asc(skuVariants.skuId))
      .limit(SALE_TARGETS_LIMIT);
  }

  return { list, create, update, setActive, remove, targets };
}

export type SalesAdminService = ReturnType<typeof createSalesAdminService>;
