import { and, eq, ne, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { adminProductStatuses } from '#common/contracts/admin/products.ts';
import { newId } from '#server/db/ids.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { activeProductCounts, categories, productCategories, products } from './catalog.tables.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

/** Active products in all and per category, counted from the products themselves. */
async function recount() {
  const [all] = await db.select({ n: sql<number>`count(*)::int` }).from(products).where(eq(products.status, 'active'));
  const perCategory = await db
    .select({ scope: productCategories.categoryId, n: sql<number>`count(*)::int` })
    .from(productCategories)
    .innerJoin(products, and(eq(products.id, productCategories.productId), eq(products.status, 'active')))
    .groupBy(productCategories.categoryId);
  const counted = new Map(perCategory.map((row) => [row.scope, row.n]));
  if (all?.n) counted.set('all', all.n);
  return counted;
}

/** The rollup, rows at zero left out (a category's row stays once it has been counted). */
async function stored() {
  const rows = await db.select().from(activeProductCounts).where(ne(activeProductCounts.products, 0));
  return new Map(rows.map((row) => [row.scope, row.products]));
}

const status = fc.constantFrom(...adminProductStatuses);
const operation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), status, category: fc.nat() }),
  fc.record({ kind: fc.constant('status' as const), product: fc.nat(), status }),
  // The back office's edit: the status and the whole category list in one transaction.
  fc.record({
    kind: fc.constant('edit' as const),
    product: fc.nat(),
    status,
    categories: fc.uniqueArray(fc.nat({ max: 20 }), { maxLength: 3 }),
  }),
  fc.record({ kind: fc.constant('add category' as const), product: fc.nat(), category: fc.nat() }),
  fc.record({ kind: fc.constant('remove category' as const), product: fc.nat() }),
  fc.record({ kind: fc.constant('move category' as const), product: fc.nat(), category: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), product: fc.nat() }),
);

type Operation = typeof operation extends fc.Arbitrary<infer T> ? T : never;

/** One write of the property test, as the shop's code would make it. */
async function write(op: Operation, productAt: (n: number) => string, categoryAt: (n: number) => string) {
  if (op.kind === 'insert') {
    const id = newId();
    await db.transaction(async (tx) => {
      await tx.insert(products).values({ id, slug: `count-${id}`, title: 'Counted', price: 1000, status: op.status });
      await tx.insert(productCategories).values({ productId: id, categoryId: categoryAt(op.category) });
    });
  } else if (op.kind === 'status') {
    await db
      .update(products)
      .set({ status: op.status })
      .where(eq(products.id, productAt(op.product)));
  } else if (op.kind === 'edit') {
    const id = productAt(op.product);
    await db.transaction(async (tx) => {
      await tx.update(products).set({ status: op.status }).where(eq(products.id, id));
      await tx.delete(productCategories).where(eq(productCategories.productId, id));
      const wanted = [...new Set(op.categories.map(categoryAt))];
      if (wanted.length > 0)
        await tx
          .insert(productCategories)
          .values(wanted.map((categoryId, position) => ({ productId: id, categoryId, position })));
    });
  } else if (op.kind === 'add category') {
    await db
      .insert(productCategories)
      .values({ productId: productAt(op.product), categoryId: categoryAt(op.category) })
      .onConflictDoNothing();
  } else if (op.kind === 'remove category') {
    const id = productAt(op.product);
    const [first] = await db
      .select({ categoryId: productCategories.categoryId })
      .from(productCategories)
      .where(eq(productCategories.productId, id))
      .limit(1);
    if (first)
      await db
        .delete(productCategories)
        .where(and(eq(productCategories.productId, id), eq(productCategories.categoryId, first.categoryId)));
  } else if (op.kind === 'move category') {
    await db
      .update(productCategories)
      .set({ categoryId: categoryAt(op.category) })
      .where(eq(productCategories.productId, productAt(op.product)));
  } else {
    await db.delete(products).where(eq(products.id, productAt(op.product)));
  }
}

describe('active product counts, kept by the products and categories triggers', () => {
  test('the seeded shop: the rollup equals a count of the active products', async () => {
    expect(await stored()).toEqual(await recount());
  });

  test('any mix of writes, several at once: the rollup still equals the count', async () => {
    const categoryIds = (await db.select({ id: categories.id }).from(categories).orderBy(categories.id)).map(
      (c) => c.id,
    );
    const categoryAt = (n: number) => categoryIds[n % categoryIds.length] ?? '';
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          for (const batch of batches) {
            const ids = (await db.select({ id: products.id }).from(products).orderBy(products.id)).map((p) => p.id);
            const productAt = (n: number) => ids[n % ids.length] ?? '';
            // Each batch runs its writes concurrently, as requests would. Two writes may add the
            // same category row, deadlock on it, or add one to a product being deleted: the
            // loser's failure must change nothing.
            const refused = (error: { cause?: { code?: string } }) =>
              expect(['23505', '40P01', '23503']).toContain(error.cause?.code);
            await Promise.all(batch.map((op) => write(op, productAt, categoryAt).catch(refused)));
          }
          expect(await stored()).toEqual(await recount());
        },
      ),
      { numRuns: 30 },
    );
  });

  test('a deleted category takes its row of the rollup to zero, and the others stay right', async () => {
    const [category] = await db
      .select({ id: activeProductCounts.scope })
      .from(activeProductCounts)
      .where(and(ne(activeProductCounts.scope, 'all'), sql`${activeProductCounts.products} > 0`))
      .limit(1);
    if (!category) throw new Error('the seed has categories with active products');
    await db.delete(categories).where(eq(categories.id, category.id));
    expect((await stored()).get(category.id)).toBeUndefined();
    expect(await stored()).toEqual(await recount());
  });
});
