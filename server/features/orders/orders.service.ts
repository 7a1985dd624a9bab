import { and, desc, eq, inArray, or } from 'drizzle-orm';
import type { CustomerOrder } from '#common/contracts/orders.ts';
import type { Db } from '#server/db/client.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { paidStatuses } from './order-status.ts';
import { orderItems, orders } from './orders.tables.ts';

export function createOrdersService({ db }: { db: Db }) {
  /** A customer's orders, newest first, with their lines (the account's Order History). */
  async function listForUser(userId: string, limit = 100): Promise<CustomerOrder[]> {
    const rows = await db
      .select()
      .from(orders)
      .where(eq(orders.userId, userId))
      .orderBy(desc(orders.createdAt))
      .limit(limit);
    if (rows.length === 0) return [];
    const lines = await db
      .select()
      .from(orderItems)
      .where(
        inArray(
          orderItems.orderId,
          rows.map((row) => row.id),
        ),
      );
    return rows.map((row) => ({
      id: row.id,
      orderNumber: row.orderNumber,
      createdAt: row.createdAt.toISOString(),
      total: row.total,
      status: row.status,
      items: lines
        .filter((line) => line.orderId === row.id)
        .map((line) => ({
          id: line.id,
          productName: line.productName,
          quantity: line.quantity,
          price: line.unitPrice,
          variantName: line.variantName,
        })),
    }));
  }

  /** Whether the user has a paid order with the product (by slug or id); it marks reviews "verified". */
  async function hasPurchased(userId: string, slugOrId: string): Promise<boolean> {
    const [row] = await db
      .select({ id: orders.id })
      .from(orders)
      .innerJoin(orderItems, eq(orderItems.orderId, orders.id))
      .innerJoin(products, eq(products.id, orderItems.productId))
      .where(
        and(
          eq(orders.userId, userId),
          inArray(orders.status, [...paidStatuses]),
          or(eq(products.slug, slugOrId), eq(products.id, slugOrId)),
        ),
      )
      .limit(1);
    return Boolean(row);
  }

  return { listForUser, hasPurchased };
}

export type OrdersService = ReturnType<typeof createOrdersService>;
