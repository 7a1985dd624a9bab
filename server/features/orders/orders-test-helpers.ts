import { desc, eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { orders } from './orders.tables.ts';

/** The demo shop's most recent paid order (status processing), for tests that need a real one. */
export async function latestPaidOrder(db: Db) {
  const [order] = await db
    .select()
    .from(orders)
    .where(eq(orders.status, 'processing'))
    .orderBy(desc(orders.createdAt))
    .limit(1);
  if (!order) throw new Error('the seed has no paid order');
  return order;
}
