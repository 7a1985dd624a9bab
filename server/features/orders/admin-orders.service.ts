import { and, asc, desc, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import type { AdminOrder, AdminOrderFilters } from '#common/contracts/admin/orders.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import type { Db } from '#server/db/client.ts';
import {
  countedPage,
  firstPageOf,
  type PageStatementShape,
  pageIdsPlaceholderOf,
  sortKeys,
} from '#server/db/counted-page.ts';
import { containing } from '#server/db/like-pattern.ts';
import { countRows, rowCountsSum } from '#server/db/row-counts.ts';
import { statementPerShape } from '#server/db/statement-shapes.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { loadEachTime, type Remember } from '#server/http/remembered-values.ts';
import { paidStatuses } from './order-status.ts';
import { orderItems, orderSearchText, orders } from './orders.tables.ts';

/**
 * The orders the filters select: the search on the indexed expression (its LIKE pattern given,
 * or a placeholder for it), the status on its index.
 */
function whereOf({
  pattern,
  statusFilter,
}: {
  pattern: string | Placeholder | undefined;
  statusFilter: AdminOrderFilters['statusFilter'];
}): SQL | undefined {
  return and(
    pattern === undefined ? undefined : sql`${orderSearchText(orders)} LIKE ${pattern}`,
    statusFilter ? eq(orders.status, statusFilter) : undefined,
  );
}

/** The LIKE pattern of a search: lower case, its text matched anywhere. */
const patternOf = (search: string | undefined) => (search ? containing(search.toLowerCase()) : undefined);

/**
 * The columns of the order, in sort order, ending with the id so that ties keep one order. Every
 * column goes the same way, so a row comparison continues the order (the export's keyset).
 */
function sortColumns(sortBy: AdminOrderFilters['sortBy']) {
  return {
    createdAt: [orders.createdAt, orders.id],
    total: [orders.total, orders.id],
    status: [orders.status, orders.createdAt, orders.id],
  }[sortBy];
}

const orderColumns = {
  id: orders.id,
  orderNumber: orders.orderNumber,
  customerName: orders.customerName,
  email: orders.email,
  subtotal: orders.subtotal,
  discount: orders.discount,
  discountCodes: orders.discountCodes,
  shipping: orders.shipping,
  tax: orders.tax,
  fee: orders.fee,
  total: orders.total,
  status: orders.status,
  createdAt: orders.createdAt,
  updatedAt: orders.updatedAt,
  paymentMethod: orders.paymentMethod,
  shippingAddress: orders.shippingAddress,
  aliOrderId: orders.aliOrderId,
  aliTrackingNumber: orders.aliTrackingNumber,
  username: users.username,
};

/**
 * An order row's lines, card and supplier order, each gathered by the row's own subquery as
 * JSON: one statement reads a page of orders whole (it was four). The supplier order's time comes
 * as epoch milliseconds, as a Date has it.
 */
const orderDetailColumns = {
  lines: sql<OrderLine[]>`coalesce((SELECT json_agg(json_build_object(
      'productName', oi.product_name, 'quantity', oi.quantity, 'unitPrice', oi.unit_price) ORDER BY oi.id)
    FROM order_items oi WHERE oi.order_id = orders.id), '[]'::json)`,
  card: sql<{ brand: string | null; last4: string | null } | null>`(SELECT json_build_object(
      'brand', p.card_brand, 'last4', p.card_last4)
    FROM payments p WHERE p.order_id = orders.id)`,
  fulfilment: sql<
    (Omit<NonNullable<AdminOrder['fulfilment']>, 'updatedAt'> & { updatedAtMs: number }) | null
  >`(SELECT json_build_object('state', f.state, 'attempts', f.attempts, 'supplierStatus', f.supplier_status,
      'lastError', f.last_error, 'updatedAtMs', floor(extract(epoch from f.updated_at) * 1000))
    FROM fulfilments f WHERE f.order_id = orders.id)`,
};

export type AdminOrderRow = Awaited<ReturnType<typeof selectOrders<Record<never, never>>>>[number];

/** What a page's statement is built for; the search's pattern, the limit and the offset are its values. */
type PageShape = Pick<AdminOrderFilters, 'sortBy' | 'sortOrder' | 'statusFilter'> & PageStatementShape;

/** Orders with their details, for the page's ids to be joined to (`innerJoin(pageIds, …)`). */
function selectOrders<Extra extends SelectedFields = Record<never, never>>(db: Db, extra?: Extra) {
  return db
    .select({ ...orderColumns, ...orderDetailColumns, ...(extra as Extra) })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .$dynamic();
}

/** The rows after `cursor` in the filters' order: `(keys) > (cursor's keys)`, or `<` going down. */
function after(filters: AdminOrderFilters, cursor: string[]): SQL {
  const [total, status, createdAt, id] = cursor;
  const values = {
    createdAt: sql`${createdAt}::timestamptz, ${id}`,
    total: sql`${Number(total)}::integer, ${id}`,
    status: sql`${status}, ${createdAt}::timestamptz, ${id}`,
  }[filters.sortBy];
  const keys = sql.join(sortColumns(filters.sortBy), sql`, `);
  return filters.sortOrder === 'asc' ? sql`(${keys}) > (${values})` : sql`(${keys}) < (${values})`;
}

type OrderLine = { productName: string; quantity: number; unitPrice: number };

/** An order as the export writes it: one row per line, the order's fields on each. */
export type ExportOrder = Pick<
  AdminOrderRow,
  | 'id'
  | 'orderNumber'
  | 'customerName'
  | 'email'
  | 'subtotal'
  | 'shipping'
  | 'tax'
  | 'total'
  | 'status'
  | 'createdAt'
  | 'paymentMethod'
  | 'shippingAddress'
  | 'aliOrderId'
  | 'aliTrackingNumber'
  | 'username'
  | 'discount'
  | 'fee'
  | 'discountCodes'
>;
export type ExportLine = OrderLine;
export type ExportBatch = { order: ExportOrder; lines: ExportLine[]; cursor: string[] }[];

type ExportRowJson = [
  id: string,
  orderNumber: string,
  customerName: string,
  email: string,
  subtotal: number,
  shipping: number,
  tax: number,
  total: number,
  status: AdminOrderRow['status'],
  createdAtMs: number,
  paymentMethod: string,
  shippingAddress: AdminOrderRow['shippingAddress'],
  aliOrderId: string | null,
  aliTrackingNumber: string | null,
  username: string | null,
  createdAtText: string,
  lines: [productName: string, quantity: number, unitPrice: number][],
  discount: number,
  fee: number,
  discountCodes: string[],
];

/**
 * The export's order with its lines as one JSON array a row: the driver reads one field instead
 * of 17 and the lines come in the same statement (a field costs PGlite a copy and Drizzle a
 * mapping: the 100,000-order read went from 4.3 s to 1.7 s of CPU). The date comes as epoch
 * milliseconds (a Date, as the list's), and as text to the microsecond for the keyset.
 */
const exportRow = sql<ExportRowJson>`json_build_array(
  ${orders.id}, ${orders.orderNumber}, ${orders.customerName}, ${orders.email},
  ${orders.subtotal}, ${orders.shipping}, ${orders.tax}, ${orders.total}, ${orders.status},
  floor(extract(epoch from ${orders.createdAt}) * 1000), ${orders.paymentMethod}, ${orders.shippingAddress},
  ${orders.aliOrderId}, ${orders.aliTrackingNumber}, ${users.username}, ${orders.createdAt}::text,
  (SELECT coalesce(json_agg(json_build_array(${orderItems.productName}, ${orderItems.quantity}, ${orderItems.unitPrice}) ORDER BY ${orderItems.id}), '[]')
    FROM ${orderItems} WHERE ${orderItems.orderId} = ${orders.id}),
  ${orders.discount}, ${orders.fee}, ${orders.discountCodes})`;

function exportOrderOf(row: ExportRowJson): ExportBatch[number] {
  const [id, orderNumber, customerName, email, subtotal, shipping, tax, total, status, createdAtMs] = row;
  const [
    paymentMethod,
    shippingAddress,
    aliOrderId,
    aliTrackingNumber,
    username,
    createdAtText,
    lines,
    discount,
    fee,
    discountCodes,
  ] = row.slice(10) as [
    ExportRowJson[10],
    ExportRowJson[11],
    ExportRowJson[12],
    ExportRowJson[13],
    ExportRowJson[14],
    ExportRowJson[15],
    ExportRowJson[16],
    ExportRowJson[17],
    ExportRowJson[18],
    ExportRowJson[19],
  ];
  return {
    order: {
      id,
      orderNumber,
      customerName,
      email,
      subtotal,
      shipping,
      tax,
      total,
      status,
      createdAt: new Date(createdAtMs),
      paymentMethod,
      shippingAddress,
      aliOrderId,
      aliTrackingNumber,
      username,
      discount,
      fee,
      discountCodes,
    },
    lines: lines.map(([productName, quantity, unitPrice]) => ({ productName, quantity, unitPrice })),
    // The keys `after` continues from, in its order.
    cursor: [String(total), status, createdAtText, id],
  };
}

/** The orders tab of the back office (spec 2, 3 and 7): orders searched, filtered, sorted and exported. */
export function createAdminOrdersService({
  db,
  remember = loadEachTime,
}: {
  db: Db;
  /** Keeps a searched page's ids for the readers after it (countedPage's `remembered`); without it each searches. */
  remember?: Remember;
}) {
  /** A page of orders, its ids read first (its details are then read for its rows alone). */
  const pageStatement = statementPerShape(
    'admin_orders',
    ({ sortBy, sortOrder, statusFilter, searched, mode, firstPage }: PageShape, name) => {
      const keys = sortColumns(sortBy);
      const direction = sortOrder === 'asc' ? asc : desc;
      const pageIds = pageIdsPlaceholderOf(db, orders.id, {
        where: whereOf({ pattern: searched ? sql.placeholder('pattern') : undefined, statusFilter }),
        keys,
        direction,
        mode,
        firstPage,
        total: rowCountsSum(),
      });
      return selectOrders(db, { matches: pageIds.matches })
        .innerJoin(pageIds, eq(pageIds.id, orders.id))
        .orderBy(...sortKeys(keys, direction))
        .prepare(name);
    },
  );

  async function list(query: AdminOrderFilters & { page: number; limit: number }) {
    const offset = (query.page - 1) * query.limit;
    const pattern = patternOf(query.search);
    const scopes = [query.statusFilter ? `orders:${query.statusFilter}` : 'orders'];
    const { rows, total, capped } = await countedPage({
      db,
      where: whereOf({ pattern, statusFilter: query.statusFilter }),
      table: orders,
      offset,
      searched: pattern !== undefined,
      limit: query.limit,
      // Unsearched, the rollup has the count: of every order (with the page), or of one status.
      ...(pattern ? {} : { countMatches: () => countRows(db, scopes), totalInPage: true }),
      remembered: { remember, key: `admin-orders:${JSON.stringify(query)}` },
      page: (_filter, mode, window, ids) =>
        pageStatement({
          sortBy: query.sortBy,
          sortOrder: query.sortOrder,
          statusFilter: query.statusFilter,
          searched: pattern !== undefined,
          mode,
          firstPage: firstPageOf(offset, query.limit, pattern === undefined),
        }).execute({ pattern, limit: query.limit, offset, window, ids, scopes }),
    });
    return {
      orders: rows.map(toAdminOrder),
      pagination: paginationOf(query.page, query.limit, total, capped),
    };
  }

  /**
   * Every order the filters select, in the list's order, `batchSize` at a time with their lines:
   * each batch is read after the last row of the one before (keyset), so memory stays flat
   * whatever the number of orders, and an order written meanwhile never shifts the pages.
   */
  async function* batches(filters: AdminOrderFilters, batchSize = 500): AsyncGenerator<ExportBatch> {
    let cursor: string[] | undefined;
    const direction = filters.sortOrder === 'asc' ? asc : desc;
    for (;;) {
      const where = whereOf({ pattern: patternOf(filters.search), statusFilter: filters.statusFilter });
      const rows = await db
        .select({ row: exportRow })
        .from(orders)
        .leftJoin(users, eq(users.id, orders.userId))
        .where(cursor ? and(where, after(filters, cursor)) : where)
        .orderBy(...sortColumns(filters.sortBy).map((column) => direction(column)))
        .limit(batchSize);
      if (rows.length === 0) return;
      const batch = rows.map(({ row }) => exportOrderOf(row));
      yield batch;
      if (rows.length < batchSize) return;
      cursor = batch[batch.length - 1]?.cursor;
    }
  }

  return { list, batches };
}

/** What the detail modal shows of the fulfilment (no history table: see AdminOrderTimelineEntry). */
function timelineOf(row: AdminOrderRow): AdminOrder['timeline'] {
  const created = row.createdAt.toISOString();
  const paid = (paidStatuses as readonly string[]).includes(row.status);
  const timeline: AdminOrder['timeline'] = [{ event: 'created', status: null, at: created }];
  if (paid) timeline.push({ event: 'paid', status: null, at: created });
  if (row.status !== 'pending' && row.status !== 'processing') {
    timeline.push({ event: 'status', status: row.status, at: row.updatedAt.toISOString() });
  }
  return timeline;
}

function toAdminOrder(row: AdminOrderRow): AdminOrder {
  const address = row.shippingAddress;
  return {
    id: row.id,
    orderNumber: row.orderNumber,
    customerInfo: { name: row.customerName, email: row.email },
    items: row.lines.map((line) => ({ productName: line.productName, quantity: line.quantity, price: line.unitPrice })),
    subtotal: row.subtotal,
    discount: row.discount,
    discountCodes: row.discountCodes,
    shipping: row.shipping,
    tax: row.tax,
    processingFee: row.fee,
    total: row.total,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    paymentMethod: row.paymentMethod,
    shippingAddress: address
      ? {
          street: address.street,
          city: address.city,
          state: address.state,
          zipCode: address.zipCode,
          country: address.country,
        }
      : null,
    aliOrderId: row.aliOrderId,
    aliTrackingNumber: row.aliTrackingNumber,
    user: row.username === null ? null : { username: row.username },
    payment: row.card,
    fulfilment: row.fulfilment && { ...row.fulfilment, updatedAt: new Date(row.fulfilment.updatedAtMs).toISOString() },
    timeline: timelineOf(row),
  };
}

export type AdminOrdersService = ReturnType<typeof createAdminOrdersService>;
