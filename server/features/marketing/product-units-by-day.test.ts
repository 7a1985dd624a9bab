import { and, desc, eq, gte, inArray, isNotNull, like, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { orderStatuses } from '#common/contracts/orders.ts';
import { newId } from '#server/db/ids.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { paidStatuses } from '#server/features/orders/order-status.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { refreshBestSellers } from './marketing.service.ts';
import { bestSellers, productUnitsByDay } from './marketing.tables.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

const DAY_MS = 24 * 60 * 60 * 1000;
/** The best sellers' window: today and the 29 UTC days before it. */
const firstDay = () => new Date(Date.now() - 29 * DAY_MS).toISOString().slice(0, 10);
const orderDay = sql<string>`((${orders.createdAt} AT TIME ZONE 'UTC')::date)::text`;

/** Units per day and product in the window, summed from the paid orders' lines themselves. */
async function recount() {
  const rows = await db
    .select({ day: orderDay, productId: orderItems.productId, units: sql<number>`sum(${orderItems.quantity})::int` })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(
      and(
        inArray(orders.status, [...paidStatuses]),
        isNotNull(orderItems.productId),
        sql`${orderDay} >= ${firstDay()}`,
      ),
    )
    .groupBy(orderDay, orderItems.productId);
  return new Map(rows.filter((row) => row.units !== 0).map((row) => [`${row.day} ${row.productId}`, row.units]));
}

/** The rollup's changes in the window, added up per day and product (sums of zero left out). */
async function stored() {
  const rows = await db
    .select({
      day: productUnitsByDay.day,
      productId: productUnitsByDay.productId,
      units: sql<number>`sum(${productUnitsByDay.units})::int`,
    })
    .from(productUnitsByDay)
    .where(gte(productUnitsByDay.day, firstDay()))
    .groupBy(productUnitsByDay.day, productUnitsByDay.productId);
  return new Map(rows.filter((row) => row.units !== 0).map((row) => [`${row.day} ${row.productId}`, row.units]));
}

const operation = fc.oneof(
  fc.record({ kind: fc.constant('order status' as const), order: fc.nat(), status: fc.constantFrom(...orderStatuses) }),
  // Two orders in one transaction, beside the others: nothing may deadlock.
  fc.record({
    kind: fc.constant('two orders' as const),
    first: fc.nat(),
    second: fc.nat(),
    status: fc.constantFrom(...orderStatuses),
  }),
  fc.record({ kind: fc.constant('order day' as const), order: fc.nat(), daysAgo: fc.integer({ min: 0, max: 40 }) }),
  fc.record({
    kind: fc.constant('new order' as const),
    status: fc.constantFrom(...orderStatuses),
    product: fc.nat(),
    quantity: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ kind: fc.constant('delete order' as const), order: fc.nat() }),
  fc.record({
    kind: fc.constant('line' as const),
    order: fc.nat(),
    product: fc.nat(),
    quantity: fc.integer({ min: 1, max: 5 }),
  }),
  fc.record({ kind: fc.constant('line quantity' as const), line: fc.nat(), quantity: fc.integer({ min: 1, max: 9 }) }),
  fc.record({ kind: fc.constant('delete line' as const), line: fc.nat() }),
  fc.record({ kind: fc.constant('product' as const) }),
  // A product deleted: its lines keep their order and lose their product (ON DELETE SET NULL).
  fc.record({ kind: fc.constant('delete product' as const), product: fc.nat() }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

type Ids = { orders: string[]; testOrders: string[]; lines: string[]; products: string[]; testProducts: string[] };

async function currentIds(): Promise<Ids> {
  const ids = async (query: Promise<{ id: string }[]>) => (await query).map((row) => row.id);
  return {
    orders: await ids(db.select({ id: orders.id }).from(orders).orderBy(orders.id)),
    testOrders: await ids(
      db.select({ id: orders.id }).from(orders).where(like(orders.orderNumber, 'UNITS-%')).orderBy(orders.id),
    ),
    lines: await ids(db.select({ id: orderItems.id }).from(orderItems).orderBy(orderItems.id)),
    products: await ids(db.select({ id: products.id }).from(products).orderBy(products.id)),
    testProducts: await ids(
      db.select({ id: products.id }).from(products).where(like(products.slug, 'units-%')).orderBy(products.id),
    ),
  };
}

async function write(op: Operation, ids: Ids) {
  const at = (list: string[], n: number) => list[n % list.length] ?? '';
  if (op.kind === 'order status') {
    await db
      .update(orders)
      .set({ status: op.status })
      .where(eq(orders.id, at(ids.orders, op.order)));
  } else if (op.kind === 'two orders') {
    // In id order, as the lines' trigger locks orders (migration 0032): no two writers cross.
    const [first, second] = [
      { id: at(ids.orders, op.first), status: op.status },
      { id: at(ids.orders, op.second), status: 'processing' as const },
    ].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    await db.transaction(async (tx) => {
      for (const order of [first, second]) {
        if (order) await tx.update(orders).set({ status: order.status }).where(eq(orders.id, order.id));
      }
    });
  } else if (op.kind === 'order day') {
    await db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - op.daysAgo * DAY_MS) })
      .where(eq(orders.id, at(ids.orders, op.order)));
  } else if (op.kind === 'new order') {
    const number = `UNITS-${newId()}`;
    await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(orders)
        .values({
          orderNumber: number,
          email: 'units@example.com',
          customerName: 'Units',
          status: op.status,
          subtotal: 1000 * op.quantity,
          total: 1000 * op.quantity,
        })
        .returning({ id: orders.id });
      await tx.insert(orderItems).values({
        orderId: row?.id ?? '',
        productId: at(ids.products, op.product),
        productName: 'Counted',
        quantity: op.quantity,
        unitPrice: 1000,
      });
    });
  } else if (op.kind === 'delete order') {
    if (ids.testOrders.length > 0) await db.delete(orders).where(eq(orders.id, at(ids.testOrders, op.order)));
  } else if (op.kind === 'line') {
    await db.insert(orderItems).values({
      orderId: at(ids.orders, op.order),
      productId: at(ids.products, op.product),
      productName: 'Counted',
      quantity: op.quantity,
      unitPrice: 1000,
    });
  } else if (op.kind === 'line quantity') {
    await db
      .update(orderItems)
      .set({ quantity: op.quantity })
      .where(eq(orderItems.id, at(ids.lines, op.line)));
  } else if (op.kind === 'delete line') {
    await db.delete(orderItems).where(eq(orderItems.id, at(ids.lines, op.line)));
  } else if (op.kind === 'product') {
    const id = newId();
    await db.insert(products).values({ id, slug: `units-${id}`, title: 'Counted', price: 1000 });
  } else if (ids.testProducts.length > 0) {
    await db.delete(products).where(eq(products.id, at(ids.testProducts, op.product)));
  }
}

/**
 * A write that names a row another write of its batch deleted (a line of a deleted product or
 * order) is refused whole by its foreign key: that is an outcome, not a failure.
 */
function refusedForAGoneRow(error: unknown) {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  if (code !== '23503' && cause?.code !== '23503') throw error;
}

describe('units sold per day, kept by the order tables’ triggers', () => {
  test('the seeded shop: the rollup equals the paid orders’ lines of the window', async () => {
    expect((await recount()).size).toBeGreaterThan(0);
    expect(await stored()).toEqual(await recount());
  });

  test('any mix of writes, several at once: the rollup still equals the lines, and nothing deadlocks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          for (const batch of batches) {
            const ids = await currentIds();
            await Promise.all(batch.map((op) => write(op, ids).catch(refusedForAGoneRow)));
          }
          expect(await stored()).toEqual(await recount());
        },
      ),
      { numRuns: 30 },
    );
  });

  test('a line written while its order becomes paid or unpaid counts once (the lines wait for the order, or it for them)', async () => {
    const [product] = await db
      .insert(products)
      .values({ id: newId(), slug: `units-${newId()}`, title: 'Raced', price: 1000 })
      .returning({ id: products.id });
    const productId = product?.id ?? '';
    const [order] = await db
      .insert(orders)
      .values({
        orderNumber: `UNITS-${newId()}`,
        email: 'units@example.com',
        customerName: 'Units',
        status: 'pending',
        subtotal: 2000,
        total: 2000,
      })
      .returning({ id: orders.id });
    const orderId = order?.id ?? '';
    const unitsOf = async () => (await stored()).get(`${new Date().toISOString().slice(0, 10)} ${productId}`) ?? 0;
    /** Writes `lines` in a transaction that stays open until `change` (another transaction) has begun. */
    async function whileLinesOpen(
      lines: (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => Promise<unknown>,
      change: () => Promise<unknown>,
    ) {
      let begun: Promise<unknown> = Promise.resolve();
      await db.transaction(async (tx) => {
        await lines(tx);
        // Drizzle's queries run when awaited: Promise.resolve starts this one now.
        begun = Promise.resolve(change());
        // Long enough for the change to reach the order's row on PostgreSQL (one connection on PGlite: it queues).
        await new Promise((resolve) => setTimeout(resolve, 200));
      });
      await begun;
    }
    // A line inserted into a pending order while the order is paid.
    await whileLinesOpen(
      (tx) => tx.insert(orderItems).values({ orderId, productId, productName: 'Raced', quantity: 2, unitPrice: 1000 }),
      () => db.update(orders).set({ status: 'processing' }).where(eq(orders.id, orderId)),
    );
    expect(await unitsOf()).toBe(2);
    // The line deleted while the order is cancelled: counted out once.
    await whileLinesOpen(
      (tx) => tx.delete(orderItems).where(eq(orderItems.orderId, orderId)),
      () => db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, orderId)),
    );
    expect(await unitsOf()).toBe(0);
    expect(await stored()).toEqual(await recount());
  });

  test('a count drops the days that left the window and keeps the 100 best active products', async () => {
    const [old] = await db
      .select({ id: orders.id })
      .from(orders)
      .where(inArray(orders.status, [...paidStatuses]))
      .limit(1);
    if (!old) throw new Error('the seed has paid orders');
    // An order moved 40 days back takes its units to a day the window has left.
    await db
      .update(orders)
      .set({ createdAt: new Date(Date.now() - 40 * DAY_MS) })
      .where(eq(orders.id, old.id));
    expect(await db.$count(productUnitsByDay, sql`${productUnitsByDay.day} < ${firstDay()}`)).toBeGreaterThan(0);

    await refreshBestSellers(db);
    expect(await db.$count(productUnitsByDay, sql`${productUnitsByDay.day} < ${firstDay()}`)).toBe(0);
    // The window is intact, and the kept list is its best active products, ties by id.
    expect(await stored()).toEqual(await recount());
    const totals = new Map<string, number>();
    for (const [key, units] of await recount()) {
      const productId = key.split(' ')[1] ?? '';
      totals.set(productId, (totals.get(productId) ?? 0) + units);
    }
    const active = new Set(
      (await db.select({ id: products.id }).from(products).where(eq(products.status, 'active'))).map((row) => row.id),
    );
    const expected = [...totals]
      .filter(([productId, units]) => units > 0 && active.has(productId))
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
      .slice(0, 100)
      .map(([productId, score]) => ({ productId, score }));
    const kept = await db
      .select({ productId: bestSellers.productId, score: bestSellers.score })
      .from(bestSellers)
      .orderBy(desc(bestSellers.score), bestSellers.productId);
    expect(kept).toEqual(expected);
  });
});
