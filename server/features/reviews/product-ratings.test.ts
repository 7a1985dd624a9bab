import { eq, gt, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, describe, expect, test } from 'vitest';
import { ratingBucket } from '#common/catalog-rules.ts';
import { newId } from '#server/db/ids.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { moderationStatuses, productRatings, reviews } from './reviews.tables.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

/** The ratings of every product counted from the reviews themselves. */
async function recount() {
  const rows = await db
    .select({ productId: reviews.productId, rating: reviews.rating })
    .from(reviews)
    .where(eq(reviews.moderationStatus, 'approved'));
  const counted = new Map<string, { reviewCount: number; ratingSum: number; stars: number[] }>();
  for (const row of rows) {
    const entry = counted.get(row.productId) ?? { reviewCount: 0, ratingSum: 0, stars: [0, 0, 0, 0, 0] };
    entry.reviewCount += 1;
    entry.ratingSum = Math.round((entry.ratingSum + row.rating) * 10) / 10;
    entry.stars[ratingBucket(row.rating) - 1] = (entry.stars[ratingBucket(row.rating) - 1] ?? 0) + 1;
    counted.set(row.productId, entry);
  }
  return counted;
}

/** The stored ratings, products without public reviews left out (their row may stay at zero). */
async function stored() {
  const rows = await db.select().from(productRatings);
  return new Map(
    rows
      .filter((row) => row.reviewCount !== 0 || row.ratingSum !== 0 || row.star1 + row.star2 + row.star3 !== 0)
      .map((row) => [
        row.productId,
        {
          reviewCount: row.reviewCount,
          ratingSum: row.ratingSum,
          stars: [row.star1, row.star2, row.star3, row.star4, row.star5],
        },
      ]),
  );
}

async function productIds() {
  return (await db.select({ id: products.id }).from(products).orderBy(products.id)).map((p) => p.id);
}

const rating = fc.integer({ min: 10, max: 50 }).map((tenths) => tenths / 10);
const status = fc.constantFrom(...moderationStatuses);
const operation = fc.oneof(
  fc.record({ kind: fc.constant('insert' as const), product: fc.nat(), rating, status }),
  fc.record({ kind: fc.constant('rate' as const), review: fc.nat(), rating }),
  fc.record({ kind: fc.constant('moderate' as const), review: fc.nat(), status }),
  fc.record({ kind: fc.constant('helpful' as const), review: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), review: fc.nat(), product: fc.nat() }),
  fc.record({ kind: fc.constant('delete' as const), review: fc.nat() }),
);

describe('product ratings, kept by the reviews trigger', () => {
  test('the seeded shop: stored ratings equal a count of the public reviews', async () => {
    expect(await stored()).toEqual(await recount());
  });

  test('any mix of writes, several at once: stored ratings still equal the count', async () => {
    const ids = await productIds();
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.array(operation, { maxLength: 6 }), { minLength: 1, maxLength: 4 }),
        async (batches) => {
          for (const batch of batches) {
            const existing = (await db.select({ id: reviews.id }).from(reviews).orderBy(reviews.id)).map((r) => r.id);
            const pick = (n: number) => existing[n % existing.length] ?? '';
            // Each batch runs its writes concurrently, as requests would.
            await Promise.all(
              batch.map(async (op) => {
                if (op.kind === 'insert') {
                  await db.insert(reviews).values({
                    id: newId(),
                    productId: ids[op.product % ids.length] ?? '',
                    customerName: 'Ratings test',
                    rating: op.rating,
                    title: 'Ratings',
                    content: 'Counted once.',
                    moderationStatus: op.status,
                  });
                } else if (op.kind === 'rate') {
                  await db
                    .update(reviews)
                    .set({ rating: op.rating })
                    .where(eq(reviews.id, pick(op.review)));
                } else if (op.kind === 'moderate') {
                  await db
                    .update(reviews)
                    .set({ moderationStatus: op.status })
                    .where(eq(reviews.id, pick(op.review)));
                } else if (op.kind === 'helpful') {
                  await db
                    .update(reviews)
                    .set({ helpfulCount: sql`${reviews.helpfulCount} + 1` })
                    .where(eq(reviews.id, pick(op.review)));
                } else if (op.kind === 'move') {
                  // Refused when the author reviewed the other product too: a failed write changes nothing.
                  await db
                    .update(reviews)
                    .set({ productId: ids[op.product % ids.length] ?? '' })
                    .where(eq(reviews.id, pick(op.review)))
                    .catch((error: { cause?: { constraint?: string } }) =>
                      expect(error.cause?.constraint).toBe('reviews_product_user_key'),
                    );
                } else {
                  await db.delete(reviews).where(eq(reviews.id, pick(op.review)));
                }
              }),
            );
          }
          expect(await stored()).toEqual(await recount());
        },
      ),
      { numRuns: 40 },
    );
  });

  test('deleting a product with public reviews deletes its ratings, without an error', async () => {
    // A product that has public reviews now: the property test above rewrote some products' reviews.
    const [product] = await db
      .select({ id: productRatings.productId })
      .from(productRatings)
      .where(gt(productRatings.reviewCount, 0))
      .orderBy(productRatings.productId)
      .limit(1);
    if (!product) throw new Error('the seed has reviewed products');
    const [row] = await db.select().from(productRatings).where(eq(productRatings.productId, product.id));
    expect(row?.reviewCount).toBeGreaterThan(0);
    await db.delete(products).where(eq(products.id, product.id));
    expect(await db.select().from(productRatings).where(eq(productRatings.productId, product.id))).toEqual([]);
    expect(await stored()).toEqual(await recount());
  });
});
