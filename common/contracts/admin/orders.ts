import * as z from 'zod/mini';
import { OrderStatus } from '../orders.ts';
import { Pagination } from '../pagination.ts';
import { AdminListQuery } from './users.ts';

/** Spec 9: the orders tab's sortable columns and status filter. */
export const adminOrderSortFields = ['createdAt', 'total', 'status'] as const;
export const adminOrderStatusFilters = ['pending', 'completed', 'cancelled', 'shipped'] as const;

/** The filters and order shared by the list and the export (the export holds what the list shows). */
export const AdminOrderFilters = z.object({
  search: AdminListQuery.shape.search,
  statusFilter: z.optional(z.enum(adminOrderStatusFilters)),
  sortBy: z._default(z.enum(adminOrderSortFields), 'createdAt'),
  sortOrder: AdminListQuery.shape.sortOrder,
});
export type AdminOrderFilters = z.output<typeof AdminOrderFilters>;

/**
 * What the detail modal shows of an order's fulfilment. There is no status history table: the
 * order is written when its payment is captured (created = paid, for every paid order), and the
 * last change is when its current status was set.
 */
export const AdminOrderTimelineEntry = z.object({
  event: z.enum(['created', 'paid', 'status']),
  status: z.nullable(OrderStatus),
  at: z.string(),
});

/** An order as the orders tab lists it (spec 3, Order): amounts in integer cents. */
export const AdminOrder = z.object({
  id: z.string(),
  orderNumber: z.string(),
  customerInfo: z.object({ name: z.string(), email: z.string() }),
  items: z.array(z.object({ productName: z.string(), quantity: z.int(), price: z.int() })),
  /** Before codes; the discount the codes took off is `discount`, and they are `discountCodes`. */
  subtotal: z.int(),
  discount: z.int(),
  discountCodes: z.array(z.string()),
  shipping: z.int(),
  tax: z.int(),
  /** The card processing fee, when the shop charges one. */
  processingFee: z.int(),
  total: z.int(),
  status: OrderStatus,
  createdAt: z.string(),
  paymentMethod: z.string(),
  shippingAddress: z.nullable(
    z.object({ street: z.string(), city: z.string(), state: z.string(), zipCode: z.string(), country: z.string() }),
  ),
  aliOrderId: z.nullable(z.string()),
  aliTrackingNumber: z.nullable(z.string()),
  user: z.nullable(z.object({ username: z.string() })),
  /** The card that paid: brand and last four digits only (null for orders without a card payment). */
  payment: z.nullable(z.object({ brand: z.nullable(z.string()), last4: z.nullable(z.string()) })),
  /**
   * The dropship fulfilment (issue 13): where the supplier order stands, and what went wrong last
   * (a failure a person must look at is state 'failed'); null for orders never handed over.
   */
  fulfilment: z.nullable(
    z.object({
      state: z.enum(['queued', 'placing', 'retry', 'placed', 'failed', 'done']),
      attempts: z.int(),
      supplierStatus: z.nullable(z.string()),
      lastError: z.nullable(z.string()),
      updatedAt: z.string(),
    }),
  ),
  timeline: z.array(AdminOrderTimelineEntry),
});
export type AdminOrder = z.infer<typeof AdminOrder>;

export const listAdminOrders = {
  method: 'GET',
  path: '/api/admin/orders',
  query: z.extend(AdminOrderFilters, {
    page: AdminListQuery.shape.page,
    limit: AdminListQuery.shape.limit,
  }),
  response: z.object({ orders: z.array(AdminOrder), pagination: Pagination }),
} as const;

/** The export's formats: orders.xlsx by default, orders.csv with `format=csv` (the tab's CSV action). */
export const orderExportFormats = ['xlsx', 'csv'] as const;

export const exportAdminOrders = {
  method: 'GET',
  path: '/api/admin/orders/export',
  query: z.extend(AdminOrderFilters, { format: z._default(z.enum(orderExportFormats), 'xlsx') }),
} as const;
