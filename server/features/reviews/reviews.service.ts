import { and, asc, count, desc, eq, gte, inArray, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { RatingSummary, Review, ReviewAnalysis } from '#common/contracts/reviews.ts';
import type { Db } from '#server/db/client.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { notFound } from '#server/http/errors.ts';
import { analyseReviews } from './review-analysis.ts';
import { reviewAnalyses, reviews } from './reviews.tables.ts';

type ReviewRow = typeof reviews.$inferSelect;

/** Raise when the built-in analysis changes, so stored overviews are computed again. */
const ANALYSIS_VERSION = 1;

export type ReviewQuery = {
  page: number;
  limit: number;
  sortBy: 'createdAt' | 'rating' | 'helpful' | 'helpfulCount';
  order: 'asc' | 'desc';
  minRating?: number | undefined;
  maxRating?: number | undefined;
  ratings?: number[] | undefined;
  priorityReviewId?: string | undefined;
};

const isPublic = eq(reviews.moderationStatus, 'approved');
/** The whole star a rating counts in (common/catalog-rules.ts ratingBucket, in SQL). */
const star = sql<number>`least(5, greatest(1, round(${reviews.rating})))::int`;

export function createReviewsService({ db }: { db: Db }) {
  /** An active product's id and slug by slug or id; 'Product not found' otherwise. */
  async function findProduct(slugOrId: string) {
    const [product] = await db
      .select({ id: products.id, slug: products.slug })
      .from(products)
      .where(and(eq(products.status, 'active'), or(eq(products.slug, slugOrId), eq(products.id, slugOrId))))
      .limit(1);
    if (!product) throw notFound('Product not found');
    return product;
  }

  function toReview(row: ReviewRow, productSlug: string, viewerId: string | null): Review {
    return {
      id: row.id,
      productId: productSlug,
      rating: row.rating,
      title: row.title,
      content: row.content,
      verified: row.verified,
      helpful: row.helpfulCount,
      createdAt: row.createdAt.toISOString(),
      customerName: row.customerName,
      isOwn: viewerId !== null && row.userId === viewerId,
      status: row.moderationStatus,
    };
  }

  /**
   * A product's reviews as a visitor sees them: the public ones, plus the viewer's own reviews
   * that are not public yet. Filtered, sorted and paginated; a pinned review comes first.
   */
  async function listForProduct(slugOrId: string, query: ReviewQuery, viewerId: string | null) {
    const product = await findProduct(slugOrId);
    const visible = viewerId ? or(isPublic, eq(reviews.userId, viewerId)) : isPublic;
    const filters: (SQL | undefined)[] = [eq(reviews.productId, product.id), visible];
    if (query.minRating !== undefined) filters.push(gte(reviews.rating, query.minRating));
    if (query.maxRating !== undefined) filters.push(lte(reviews.rating, query.maxRating));
    if (query.ratings?.length) filters.push(inArray(star, query.ratings));
    const where = and(...filters);

    const pinned = query.priorityReviewId
      ? (
          await db
            .select()
            .from(reviews)
            .where(and(where, eq(reviews.id, query.priorityReviewId)))
        )[0]
      : undefined;
    const rest = pinned ? and(where, ne(reviews.id, pinned.id)) : where;

    const column =
      query.sortBy === 'rating'
        ? reviews.rating
        : query.sortBy === 'createdAt'
          ? reviews.createdAt
          : reviews.helpfulCount;
    const direction = query.order === 'asc' ? asc : desc;
    // The pinned review takes the first place of page 1; the others shift by one.
    const shift = pinned ? 1 : 0;
    const offset = Math.max(0, (query.page - 1) * query.limit - shift);
    const take = query.page === 1 ? query.limit - shift : query.limit;
    const [rows, [totalRow]] = await Promise.all([
      take > 0
        ? db
            .select()
            .from(reviews)
            .where(rest)
            .orderBy(direction(column), desc(reviews.createdAt), asc(reviews.id))
            .limit(take)
            .offset(offset)
        : Promise.resolve([]),
      db.select({ total: count() }).from(reviews).where(rest),
    ]);
    const total = (totalRow?.total ?? 0) + shift;
    const list = [...(pinned && query.page === 1 ? [pinned] : []), ...rows];
    return {
      reviews: list.map((row) => toReview(row, product.slug, viewerId)),
      pagination: { page: query.page, pages: Math.max(1, Math.ceil(total / query.limit)), total, limit: query.limit },
    };
  }

  /** Average, count and star breakdown of a product's public reviews. */
  async function ratingSummary(slugOrId: string): Promise<RatingSummary> {
    const product = await findProduct(slugOrId);
    const rows = await db
      .select({ star, n: count(), sum: sql<string>`sum(${reviews.rating})` })
      .from(reviews)
      .where(and(eq(reviews.productId, product.id), isPublic))
      .groupBy(star);
    const ratingBreakdown = { 1: 0, 2: 0, 3: 0, 4: 0, 5: 0 };
    let total = 0;
    let sum = 0;
    for (const row of rows) {
      ratingBreakdown[row.star as 1 | 2 | 3 | 4 | 5] = row.n;
      total += row.n;
      sum += Number(row.sum);
    }
    return { averageRating: total ? Math.round((sum / total) * 100) / 100 : 0, totalReviews: total, ratingBreakdown };
  }

  /**
   * The review overview of a product. Kept in review_analyses with a fingerprint of the public
   * reviews (count and last change), and computed again when they change.
   */
  async function analysis(slugOrId: string): Promise<ReviewAnalysis> {
    const product = await findProduct(slugOrId);
    const publicOfProduct = and(eq(reviews.productId, product.id), isPublic);
    const [state] = await db
      .select({ n: count(), changed: sql<string | null>`max(${reviews.updatedAt})::text` })
      .from(reviews)
      .where(publicOfProduct);
    const fingerprint = `v${ANALYSIS_VERSION}:${state?.n ?? 0}:${state?.changed ?? ''}`;
    const [stored] = await db.select().from(reviewAnalyses).where(eq(reviewAnalyses.productId, product.id));
    if (stored?.fingerprint === fingerprint) return stored.analysis;

    const rows = await db
      .select({ rating: reviews.rating, title: reviews.title, content: reviews.content })
      .from(reviews)
      .where(publicOfProduct);
    const result = analyseReviews(rows);
    const values = {
      analysis: result,
      reviewCount: rows.length,
      fingerprint,
      source: 'built-in',
      computedAt: new Date(),
    };
    await db
      .insert(reviewAnalyses)
      .values({ productId: product.id, ...values })
      .onConflictDoUpdate({ target: reviewAnalyses.productId, set: values });
    return result;
  }

  /** Everything a user has written, newest first, whatever its moderation status (My Reviews). */
  async function listForUser(userId: string) {
    const rows = await db
      .select({ review: reviews, slug: products.slug, title: products.title })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(eq(reviews.userId, userId))
      .orderBy(desc(reviews.createdAt))
      .limit(200);
    return rows.map((row) => ({ ...toReview(row.review, row.slug, userId), productTitle: row.title }));
  }

  return { listForProduct, listForUser, ratingSummary, analysis };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
