import { and, asc, count, desc, eq, gt, gte, inArray, lt, lte, ne, not, or, type SQL, sql } from 'drizzle-orm';
import { averageRating } from '#common/catalog-rules.ts';
import type { SessionUser } from '#common/contracts/accounts.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import type { RatingSummary, Review, ReviewAnalysis } from '#common/contracts/reviews.ts';
import { clampRating, reviewProblem } from '#common/review-rules.ts';
import type { AiProvider } from '#server/adapters/ai/ai-provider.ts';
import type { Db } from '#server/db/client.ts';
import { statementPerShape } from '#server/db/statement-shapes.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import { describeUniqueIndex, forbidden, invalid, notFound } from '#server/http/errors.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { moderate, reviewOverviewTask } from './review-ai-tasks.ts';
import { productRatings, reviewAnalyses, reviewHelpfulVotes, reviews } from './reviews.tables.ts';

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

// One review per user and product: a second one (or two racing) gets this answer.
describeUniqueIndex('reviews_product_user_key', 'review_exists', 'You have already reviewed this product');

export const REVIEW_PUBLISHED = 'Thank you for your review!';
export const REVIEW_AWAITS_CHECK = 'Thank you! Your review will appear once it has been checked.';

/** What a shopper writes (the contract's body, before the shared rules). */
export type ReviewInput = { rating: number; title: string; content: string; verified: boolean };
/** The whole star a rating counts in (common/catalog-rules.ts ratingBucket, in SQL). */
const star = sql<number>`least(5, greatest(1, round(${reviews.rating})))::int`;
/** The star of a rating from 1 to 5, as `star` rounds it (halves up). */
const starOf = (rating: number) => Math.round(rating);

/**
 * A page's order: by the sort's column, ties by date, then id, all in the same direction, so that
 * ascending is the exact reverse of descending and each order is one index read backwards or forwards.
 */
function orderOf({ sortBy, order }: Pick<ReviewQuery, 'sortBy' | 'order'>) {
  const column =
    sortBy === 'rating' ? reviews.rating : sortBy === 'createdAt' ? reviews.createdAt : reviews.helpfulCount;
  const direction = order === 'asc' ? asc : desc;
  const keys = column === reviews.createdAt ? [column, reviews.id] : [column, reviews.createdAt, reviews.id];
  return keys.map((key) => direction(key));
}

export function createReviewsService({
  db,
  ai,
  settings,
  events,
  jobs,
  hasPurchased,
}: {
  db: Db;
  ai: AiProvider;
  settings: SettingsService;
  events: DomainEvents;
  jobs: Jobs;
  /** The purchased check (orders): only a buyer's review may be marked verified. */
  hasPurchased: (userId: string, productId: string) => Promise<boolean>;
}) {
  // The statements of a page of reviews, built once: drizzle builds a statement's SQL anew at every
  // run, and a page read once (most products' pages are) paid that for all three of its statements.
  const productByKey = db
    .select({ id: products.id, slug: products.slug })
    .from(products)
    .where(
      and(
        eq(products.status, 'active'),
        or(eq(products.slug, sql.placeholder('key')), eq(products.id, sql.placeholder('key'))),
      ),
    )
    .limit(1)
    .prepare('review_product');
  const ratingsOf = db
    .select()
    .from(productRatings)
    .where(eq(productRatings.productId, sql.placeholder('productId')))
    .prepare('review_ratings');
  /** A page of a product's reviews without filters or pin: by sort, and whether a viewer's own review is in. */
  const pageStatement = statementPerShape(
    'review_page',
    (
      { sortBy, order, viewer }: { sortBy: ReviewQuery['sortBy']; order: ReviewQuery['order']; viewer: boolean },
      name,
    ) =>
      db
        .select()
        .from(reviews)
        .where(
          and(
            eq(reviews.productId, sql.placeholder('productId')),
            viewer ? or(isPublic, eq(reviews.userId, sql.placeholder('viewerId'))) : isPublic,
          ),
        )
        .orderBy(...orderOf({ sortBy, order }))
        .limit(sql.placeholder('limit'))
        .offset(sql.placeholder('offset'))
        .prepare(name),
  );

  /** An active product's id and slug by slug or id; 'Product not found' otherwise. */
  async function findProduct(slugOrId: string) {
    const [product] = await productByKey.execute({ key: slugOrId });
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
   * A product's reviews as a visitor sees them: the public ones, plus the viewer's own review
   * when it is not public yet. Filtered, sorted and paginated; a pinned review comes first.
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

    // The pinned review takes the first place of page 1; the others shift by one.
    const shift = pinned ? 1 : 0;
    const offset = Math.max(0, (query.page - 1) * query.limit - shift);
    const take = query.page === 1 ? query.limit - shift : query.limit;
    const filtered = pinned || query.minRating !== undefined || query.maxRating !== undefined || query.ratings?.length;
    const readPage = () =>
      filtered
        ? db
            .select()
            .from(reviews)
            .where(rest)
            .orderBy(...orderOf(query))
            .limit(take)
            .offset(offset)
        : pageStatement({ sortBy: query.sortBy, order: query.order, viewer: viewerId !== null }).execute({
            productId: product.id,
            viewerId,
            limit: take,
            offset,
          });
    const [rows, total] = await Promise.all([
      take > 0 ? readPage() : Promise.resolve([]),
      countMatching(product.id, query, viewerId, where),
    ]);
    const list = [...(pinned && query.page === 1 ? [pinned] : []), ...rows];
    return {
      reviews: list.map((row) => toReview(row, product.slug, viewerId)),
      pagination: paginationOf(query.page, query.limit, total),
    };
  }

  /** The stored ratings of a product's public reviews (kept by a trigger on every review write). */
  async function storedRatings(productId: string) {
    const [row] = await ratingsOf.execute({ productId });
    const breakdown = {
      1: row?.star1 ?? 0,
      2: row?.star2 ?? 0,
      3: row?.star3 ?? 0,
      4: row?.star4 ?? 0,
      5: row?.star5 ?? 0,
    };
    return { count: row?.reviewCount ?? 0, sum: row?.ratingSum ?? 0, breakdown };
  }

  /**
   * How many reviews a list query matches. The public ones by star come from the stored ratings;
   * the viewer adds at most their own review when it is not public yet. Only stars and a rating
   * range together count rows.
   */
  async function countMatching(productId: string, query: ReviewQuery, viewerId: string | null, where: SQL | undefined) {
    const ranged = query.minRating !== undefined || query.maxRating !== undefined;
    if (ranged && query.ratings?.length) {
      const [row] = await db.select({ n: count() }).from(reviews).where(where);
      return row?.n ?? 0;
    }
    const min = query.minRating ?? 1;
    const max = query.maxRating ?? 5;
    if (min > max) return 0;
    const filter = ranged
      ? and(gte(reviews.rating, min), lte(reviews.rating, max))
      : query.ratings?.length
        ? inArray(star, query.ratings)
        : undefined;
    const [ratings, [own], [outside]] = await Promise.all([
      storedRatings(productId),
      viewerId
        ? db
            .select({ n: count() })
            .from(reviews)
            .where(and(eq(reviews.productId, productId), eq(reviews.userId, viewerId), not(isPublic), filter))
        : Promise.resolve([]),
      ranged ? countNearRange(productId, min, max) : Promise.resolve([]),
    ]);
    const stars = ranged
      ? [1, 2, 3, 4, 5].filter((s) => s >= starOf(min) && s <= starOf(max))
      : query.ratings?.length
        ? query.ratings
        : [1, 2, 3, 4, 5];
    const publicCount = stars.reduce(
      (sum, s) => sum + (ratings.breakdown[s as keyof typeof ratings.breakdown] ?? 0),
      0,
    );
    return publicCount - (outside?.n ?? 0) + (own?.n ?? 0);
  }

  /**
   * A rating range is counted by the stars of its bounds (the home page's 4 and up): a star holds
   * the ratings that round to it (3.5 up to 4.5 for 4), so the stars of min..max hold the public
   * ratings from star(min) − 0.5 up to star(max) + 0.5, and those outside the range are counted
   * here and taken off. Only fractional ratings lie there (none when every rating is whole), where
   * counting the range read every matching review: the most reviewed product's 39,481 of 4 stars
   * and up at a million products, 0.8 s from a cold cache on the home page's first render.
   */
  function countNearRange(productId: string, min: number, max: number) {
    return db
      .select({ n: count() })
      .from(reviews)
      .where(
        and(
          eq(reviews.productId, productId),
          isPublic,
          or(
            and(gte(reviews.rating, starOf(min) - 0.5), lt(reviews.rating, min)),
            and(gt(reviews.rating, max), lt(reviews.rating, starOf(max) + 0.5)),
          ),
        ),
      );
  }

  /** Average, count and star breakdown of a product's public reviews. */
  async function ratingSummary(slugOrId: string): Promise<RatingSummary> {
    const product = await findProduct(slugOrId);
    const { count: totalReviews, sum, breakdown } = await storedRatings(product.id);
    return { averageRating: averageRating(sum, totalReviews), totalReviews, ratingBreakdown: breakdown };
  }

  /** The public reviews' count and last change: a different one means a stored overview is stale. */
  async function overviewFingerprint(productId: string) {
    const [state] = await db
      .select({ n: count(), changed: sql<string | null>`max(${reviews.updatedAt})::text` })
      .from(reviews)
      .where(and(eq(reviews.productId, productId), isPublic));
    return `v${ANALYSIS_VERSION}:${ai.name}:${state?.n ?? 0}:${state?.changed ?? ''}`;
  }

  async function publicTexts(productId: string) {
    return db
      .select({ rating: reviews.rating, title: reviews.title, content: reviews.content })
      .from(reviews)
      .where(and(eq(reviews.productId, productId), isPublic));
  }

  // The overview is computed in the background (a model may take seconds): on every change of a
  // product's public reviews, and when a read finds it stale.
  const refreshOverview = jobs.define<{ productId: string }>('reviews.refresh-overview', async ({ productId }) => {
    const [product] = await db
      .select({ id: products.id, title: products.title })
      .from(products)
      .where(eq(products.id, productId));
    if (!product) return;
    const fingerprint = await overviewFingerprint(product.id);
    const [stored] = await db.select().from(reviewAnalyses).where(eq(reviewAnalyses.productId, product.id));
    if (stored?.fingerprint === fingerprint) return;
    const texts = await publicTexts(product.id);
    const analysis = await ai.run(reviewOverviewTask, { productTitle: product.title, reviews: texts });
    const values = { analysis, reviewCount: texts.length, fingerprint, source: ai.name, computedAt: new Date() };
    await db
      .insert(reviewAnalyses)
      .values({ productId: product.id, ...values })
      .onConflictDoUpdate({ target: reviewAnalyses.productId, set: values });
    events.publish({ type: 'product_rating_updated', data: { collection: 'products', id: product.id } });
  });

  /**
   * The review overview of a product: the stored one. A stale or missing one is refreshed in the
   * background; meanwhile the stale one is served, or, when there is none yet, the built-in
   * analysis (local and quick: no model is ever called in the request path).
   */
  async function analysis(slugOrId: string): Promise<ReviewAnalysis> {
    const product = await findProduct(slugOrId);
    const [stored] = await db.select().from(reviewAnalyses).where(eq(reviewAnalyses.productId, product.id));
    if (stored && stored.fingerprint === (await overviewFingerprint(product.id))) return stored.analysis;
    await refreshOverview({ productId: product.id });
    if (stored) return stored.analysis;
    return reviewOverviewTask.builtIn({ productTitle: '', reviews: await publicTexts(product.id) });
  }

  /** Whether the user has a review of the product (by slug or id), whatever its status. */
  async function hasReviewed(slugOrId: string, userId: string) {
    const [row] = await db
      .select({ id: reviews.id })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(and(eq(reviews.userId, userId), or(eq(products.slug, slugOrId), eq(products.id, slugOrId))))
      .limit(1);
    return row !== undefined;
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
    return rows.map((row) => {
      const held = row.review.moderationStatus === 'flagged' ? row.review.aiModerationResult?.reasons : undefined;
      return {
        ...toReview(row.review, row.slug, userId),
        productTitle: row.title,
        ...(held?.length ? { moderationReasons: held } : {}),
      };
    });
  }

  /** A review with its product's slug; 'Review not found' otherwise. */
  async function reviewOf(id: string) {
    const [row] = await db
      .select({ review: reviews, slug: products.slug })
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .where(eq(reviews.id, id));
    if (!row) throw notFound('Review not found');
    return row;
  }

  /** The shared rules on the trimmed texts; the rating as stored. */
  function checked(input: ReviewInput) {
    const draft = { rating: input.rating, title: input.title.trim(), content: input.content.trim() };
    const problem = reviewProblem(draft);
    if (problem) throw invalid(problem.field, problem.message);
    return { ...draft, rating: clampRating(draft.rating) };
  }

  async function assertMayVerify(user: SessionUser, productId: string, verified: boolean) {
    if (verified && !(await hasPurchased(user.id, productId))) {
      throw forbidden(
        'Only shoppers who bought this product can mark their review as a verified purchase',
        'not_purchased',
      );
    }
  }

  /**
   * The moderation of a new or edited review: with autoApproveReviews on it is public at once
   * unless the moderator flags it; with it off every review waits as pending.
   */
  async function moderated(draft: { title: string; content: string }) {
    const result = await moderate(ai, draft);
    const { autoApproveReviews } = await settings.get();
    const status = result.flagged ? 'flagged' : autoApproveReviews ? 'approved' : 'pending';
    return { moderationStatus: status, aiModerationResult: result } as const;
  }

  function changed(type: 'review_created' | 'review_updated' | 'review_deleted', id: string, productId: string) {
    events.publish({ type, data: { collection: 'reviews', id, productId } });
  }

  /** Posts the signed-in user's review of a product: one per user and product. */
  async function create(user: SessionUser, input: ReviewInput & { productId: string }) {
    const draft = checked(input);
    const product = await findProduct(input.productId);
    await assertMayVerify(user, product.id, input.verified);
    const moderation = await moderated(draft);
    const [row] = await db
      .insert(reviews)
      .values({
        productId: product.id,
        userId: user.id,
        // The author's name is the account's, whatever the request says.
        customerName: user.username,
        ...draft,
        verified: input.verified,
        ...moderation,
      })
      .returning();
    if (!row) throw new Error('the review could not be stored');
    changed('review_created', row.id, product.id);
    if (row.moderationStatus === 'approved') await refreshOverview({ productId: product.id });
    return {
      message: row.moderationStatus === 'approved' ? REVIEW_PUBLISHED : REVIEW_AWAITS_CHECK,
      review: toReview(row, product.slug, user.id),
    };
  }

  async function ownReview(user: SessionUser, id: string, action: string) {
    const found = await reviewOf(id);
    if (found.review.userId !== user.id) throw forbidden(`You can only ${action} your own reviews`, 'not_your_review');
    return found;
  }

  /** The author edits a review; the edit is moderated again. */
  async function update(user: SessionUser, id: string, input: ReviewInput) {
    const found = await ownReview(user, id, 'change');
    const draft = checked(input);
    await assertMayVerify(user, found.review.productId, input.verified);
    const moderation = await moderated(draft);
    const [row] = await db
      .update(reviews)
      .set({ ...draft, verified: input.verified, ...moderation, denialReason: null, updatedAt: new Date() })
      .where(eq(reviews.id, id))
      .returning();
    if (!row) throw notFound('Review not found');
    changed('review_updated', id, found.review.productId);
    await refreshOverview({ productId: found.review.productId });
    return { message: 'Review updated', review: toReview(row, found.slug, user.id) };
  }

  async function remove(user: SessionUser, id: string) {
    const found = await ownReview(user, id, 'delete');
    await db.delete(reviews).where(eq(reviews.id, id));
    changed('review_deleted', id, found.review.productId);
    await refreshOverview({ productId: found.review.productId });
  }

  /**
   * Counts a shopper's "helpful" once: the vote and the count change in one transaction, and a
   * second vote (or twenty at once) finds the vote already there and leaves the count alone.
   */
  async function markHelpful(id: string, voterKey: string) {
    return db
      .transaction(async (tx) => {
        const [review] = await tx
          .select({ id: reviews.id, productId: reviews.productId })
          .from(reviews)
          .where(and(eq(reviews.id, id), isPublic));
        if (!review) throw notFound('Review not found');
        const added = await tx
          .insert(reviewHelpfulVotes)
          .values({ reviewId: id, voterKey })
          .onConflictDoNothing()
          .returning({ reviewId: reviewHelpfulVotes.reviewId });
        if (added.length === 0) {
          const [current] = await tx.select({ helpful: reviews.helpfulCount }).from(reviews).where(eq(reviews.id, id));
          return { helpful: current?.helpful ?? 0, counted: false, productId: review.productId };
        }
        const [updated] = await tx
          .update(reviews)
          // A vote is not a change of the review's text: its updatedAt (the overview's fingerprint) stays.
          .set({ helpfulCount: sql`${reviews.helpfulCount} + 1`, updatedAt: sql`${reviews.updatedAt}` })
          .where(eq(reviews.id, id))
          .returning({ helpful: reviews.helpfulCount });
        return { helpful: updated?.helpful ?? 0, counted: true, productId: review.productId };
      })
      .then(({ helpful, counted, productId }) => {
        if (counted) changed('review_updated', id, productId);
        return { helpful };
      });
  }

  return {
    listForProduct,
    hasReviewed,
    listForUser,
    ratingSummary,
    analysis,
    create,
    update,
    remove,
    markHelpful,
    // The back office's moderation queues the same overview job.
    refreshOverview,
  };
}

export type ReviewsService = ReturnType<typeof createReviewsService>;
