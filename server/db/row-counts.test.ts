import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { orderStatuses } from '#common/contracts/orders.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { orders } from '#server/features/orders/orders.tables.ts';
import { moderationStatuses, reviews } from '#server/features/reviews/reviews.tables.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { newId } from './ids.ts';
import { countRows, rowCounts } from './row-counts.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

/** Every scope counted from the tables themselves. */
async function recount() {
  const counted = new Map<string, number>();
  const add = (rows: { scope: string; n: number }[]) => {
    for (const row of rows) if (row.n > 0) counted.set(row.scope, row.n);
  };
  const all = (table: typeof orders | typeof reviews | typeof users | typeof products, name: string) =>
    db.select({ scope: sql<string>`${name}`, n: sql<number>`count(*)::int` }).from(table);
  add(await all(orders, 'orders'));
  add(await all(reviews, 'reviews'));
  add(await all(users, 'users'));
  add(await all(products, 'products'));
  add(
    await db
      .select({ scope: sql<string>`'orders:' || ${orders.status}`, n: sql<number>`count(*)::int` })
      .from(orders)
      .groupBy(orders.status),
  );
  add(
    await db
      .select({ scope: sql<string>`'reviews:' || ${reviews.moderationStatus}`, n: sql<number>`count(*)::int` })
      .from(reviews)
      .groupBy(reviews.moderationStatus),
  );
  return counted;
}

/** The rollup, each scope's shards added up, scopes at zero left out. */
async function stored() {
  const rows = await db
    .select({ scope: rowCounts.scope, n: sql<number>`sum(${rowCounts.rows})::int` })
    .from(rowCounts)
    .groupBy(rowCounts.scope);
  return new Map(rows.filter((row) => row.n !== 0).map((row) => [row.scope, row.n]));
}

const operation = fc.oneof(
  fc.record({ kind: fc.constant('order status' as const), order: fc.nat(), status: fc.constantFrom(...orderStatuses) }),
  // Two orders in one transaction, in either order: concurrent ones must not deadlock on the counts.
  fc.record({
    kind: fc.constant('two orders' as const),
    first: fc.nat(),
    second: fc.nat(),
    status: fc.constantFrom(...orderStatuses),
  }),
  fc.record({
    kind: fc.constant('moderate' as const),
    review: fc.nat(),
    status: fc.constantFrom(...moderationStatuses),
  }),
  fc.record({
    kind: fc.constant('review' as const),
    product: fc.nat(),
    status: fc.constantFrom(...moderationStatuses),
  }),
  fc.record({ kind: fc.constant('delete review' as const), review: fc.nat() }),
  fc.record({ kind: fc.constant('user' as const) }),
  fc.record({ kind: fc.constant('delete user' as const), user: fc.nat() }),
  fc.record({ kind: fc.constant('product' as const) }),
);
type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

const idsOf = async (table: typeof orders | typeof reviews | typeof users | typeof products) =>
  (await db.select({ id: table.id }).from(table).orderBy(table.id)).map((row) => row.id);

async function write(op: Operation, ids: Record<'orders' | 'reviews' | 'users' | 'products', string[]>) {
  const at = (list: string[], n: number) => list[n % list.length] ?? '';
  if (op.kind === 'order status') {
    await db
      .update(orders)
      .set({ status: op.status })
      .where(eq(orders.id, at(ids.orders, op.order)));
  } else if (op.kind === 'two orders') {
    await db.transaction(async (tx) => {
      await tx
        .update(orders)
        .set({ status: op.status })
        .where(eq(orders.id, at(ids.orders, op.first)));
      await tx
        .update(orders)
        .set({ status: 'pending' })
        .where(eq(orders.id, at(ids.orders, op.second)));
    });
  } else if (op.kind === 'moderate') {
    await db
      .update(reviews)
      .set({ moderationStatus: op.status })
      .where(eq(reviews.id, at(ids.reviews, op.review)));
  } else if (op.kind === 'review') {
    await db.insert(reviews).values({
      id: newId(),
      productId: at(ids.products, op.product),
      customerName: 'Counted',
      rating: 4,
      title: 'Counted',
      content: 'Counted once.',
      moderationStatus: op.status,
    });
  } else if (op.kind === 'delete review') {
    await db.delete(reviews).where(eq(reviews.id, at(ids.reviews, op.review)));
  } else if (op.kind === 'user') {
    const id = newId();
    await db.insert(users).values({ id, username: `counted-${id}`, email: `${id}@example.com` });
  } else if (op.kind === 'delete user') {
    // Users with orders or reviews are kept by their references: only the counted ones go.
    await db.delete(users).where(sql`${users.id} = ${at(ids.users, op.user)} AND ${users.username} LIKE 'counted-%'`);
  } else {
    const id = newId();
    await db.insert(products).values({ id, slug: `counted-${id}`, title: 'Counted', price: 1000 });
  }
}

describe("row counts, kept by the tables' triggers", () => {
  test('the seeded shop: the rollup equals a count of the rows', async () => {
    expect(await stored()).toEqual(await recount());
    expect(await countRows(db, ['reviews:rejected', 'reviews:flagged'])).toBe(
      ((await recount()).get('reviews:rejected') ?? 0) + ((await recount()).get('reviews:flagged') ?? 0),
    );
  });

  test('any mix of writes, several at once: the rollup still equals the count, and nothing deadlocks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { maxLength: 8 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          for (const batch of batches) {
            const ids = {
              orders: await idsOf(orders),
              reviews: await idsOf(reviews),
              users: await idsOf(users),
              products: await idsOf(products),
            };
            await Promise.all(batch.map((op) => write(op, ids)));
          }
          expect(await stored()).toEqual(await recount());
        },
      ),
      { numRuns: 30 },
    );
  });
});
