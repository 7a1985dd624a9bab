import { and, asc, desc, eq, gte, ilike, inArray, lt, or, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type * as z from 'zod/mini';
import type { AdminReview, bulkReviewStatuses, listAdminReviews } from '#common/contracts/admin/reviews.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import { isDenied, mayApprove, mayFlag } from '#common/review-rules.ts';
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
import type { Actor } from '#server/features/accounts/admin-management.service.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import { AppError, notFound } from '#server/http/errors.ts';
import { loadEachTime, type Remember } from '#server/http/remembered-values.ts';
import { reviews } from './reviews.tables.ts';

type ListQuery = z.output<typeof listAdminReviews.query>;
type BulkStatus = (typeof bulkReviewStatuses)[number];
type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const columns = {
  // The review's id again, as every admin list's page rows have it (countedPage).
  id: reviews.id,
  review: reviews,
  productTitle: products.title,
  username: users.username,
};
type Row = { id: string; review: typeof reviews.$inferSelect; productTitle: string; username: string | null };

/**
 * A review as the moderation table reads it. The table keeps one moderation status; the spec's
 * two flags are read from it: approved is 'approved', denied is 'rejected' or 'flagged' (by a
 * moderator, or held by the automatic check).
 */
export function toAdminReview({ review, productTitle, username }: Row): AdminReview {
  return {
    id: review.id,
    productId: review.productId,
    productTitle,
    user: username === null ? null : { username },
    customerName: review.customerName,
    rating: review.rating,
    title: review.title,
    content: review.content,
    approved: review.moderationStatus === 'approved',
    denied: isDenied(review.moderationStatus),
    moderationStatus: review.moderationStatus,
    denialReason: review.denialReason,
    aiModerationResult: review.aiModerationResult
      ? { flagged: review.aiModerationResult.flagged, reasons: review.aiModerationResult.reasons }
      : null,
    helpfulCount: review.helpfulCount,
    createdAt: review.createdAt.toISOString(),
  };
}

/** What the audit log keeps of a review's moderation, before and after. */
const moderationOf = (review: typeof reviews.$inferSelect) => ({
  moderationStatus: review.moderationStatus,
  denialReason: review.denialReason,
});

const statusFilters: Record<NonNullable<ListQuery['statusFilter']>, SQL | undefined> = {
  pending: eq(reviews.moderationStatus, 'pending'),
  approved: eq(reviews.moderationStatus, 'approved'),
  flagged: inArray(reviews.moderationStatus, ['rejected', 'flagged']),
};
/**
 * The reviews the filters select. The search (its ILIKE pattern given, or a placeholder for it)
 * looks in the text, the title, the author's name and the product's title.
 */
function whereOf({
  pattern,
  ratingFilter,
  statusFilter,
}: {
  pattern: string | Placeholder | undefined;
  ratingFilter: ListQuery['ratingFilter'];
  statusFilter: ListQuery['statusFilter'];
}): SQL | undefined {
  return and(
    pattern === undefined
      ? undefined
      : or(
          ilike(reviews.content, pattern),
          ilike(reviews.title, pattern),
          ilike(reviews.customerName, pattern),
          // The products whose title matches, as one array read first (products' trigram
          // index), so that every arm is an index on reviews and the OR one bitmap.
          sql`${reviews.productId} = ANY(ARRAY(SELECT ${products.id} FROM ${products} WHERE ${products.title} ILIKE ${pattern}))`,
        ),
    // A rating filter is a whole star: 4 holds 3.5 to 4.4 (the rounding of common/catalog-rules.ts
    // ratingBucket), as a range so that it reads straight from the column.
    ratingFilter !== undefined
      ? and(gte(reviews.rating, ratingFilter - 0.5), lt(reviews.rating, ratingFilter + 0.5))
      : undefined,
    statusFilter ? statusFilters[statusFilter] : undefined,
  );
}

/** What a page's statement is built for; the search's pattern, the limit and the offset are its values. */
type PageShape = Pick<ListQuery, 'sortBy' | 'sortOrder' | 'statusFilter' | 'ratingFilter'> & PageStatementShape;

/** The row_counts scopes of each status filter (its statuses'), and of no filter. */
const statusFilterScopes: Record<NonNullable<ListQuery['statusFilter']> | 'all', string[]> = {
  all: ['reviews'],
  pending: ['reviews:pending'],
  approved: ['reviews:approved'],
  flagged: ['reviews:rejected', 'reviews:flagged'],
};

/**
 * The reviews tab of the back office (spec 2, 4 and 7): every review, filtered, searched and
 * sorted, and its moderation. Each change and its audit rows are one transaction (the ratings
 * follow in it: the product_ratings trigger counts approved reviews); once committed, the change
 * is a live event (which also drops the public cache) and the products' overviews are queued.
 */
export function createReviewModerationService({
  db,
  events,
  refreshOverview,
  remember = loadEachTime,
}: {
  db: Db;
  events: DomainEvents;
  /** The reviews feature's overview job. */
  refreshOverview: (data: { productId: string }) => Promise<void>;
  /** Keeps a searched page's ids for the readers after it (countedPage's `remembered`); without it each searches. */
  remember?: Remember;
}) {
  /** A page of reviews, its ids read first (its products and authors are then joined for its rows alone). */
  const pageStatement = statementPerShape(
    'admin_reviews',
    ({ sortBy, sortOrder, statusFilter, ratingFilter, searched, mode, firstPage }: PageShape, name) => {
      const column = { createdAt: reviews.createdAt, rating: reviews.rating, helpfulCount: reviews.helpfulCount }[
        sortBy
      ];
      const direction = sortOrder === 'asc' ? asc : desc;
      // Ties go by date, then id, in the sort's direction: one order, page after page.
      const order = column === reviews.createdAt ? [column, reviews.id] : [column, reviews.createdAt, reviews.id];
      const pageIds = pageIdsPlaceholderOf(db, reviews.id, {
        where: whereOf({ pattern: searched ? sql.placeholder('pattern') : undefined, ratingFilter, statusFilter }),
        keys: order,
        direction,
        mode,
        firstPage,
        total: rowCountsSum(),
      });
      return db
        .select({ ...columns, matches: pageIds.matches })
        .from(reviews)
        .innerJoin(pageIds, eq(pageIds.id, reviews.id))
        .innerJoin(products, eq(products.id, reviews.productId))
        .leftJoin(users, eq(users.id, reviews.userId))
        .orderBy(...sortKeys(order, direction))
        .prepare(name);
    },
  );

  async function list(query: ListQuery) {
    const { page, limit, search, sortBy, sortOrder, ratingFilter, statusFilter } = query;
    const pattern = search ? containing(search) : undefined;
    const offset = (page - 1) * limit;
    const scopes = statusFilterScopes[statusFilter ?? 'all'];
    const { rows, total, capped } = await countedPage({
      db,
      where: whereOf({ pattern, ratingFilter, statusFilter }),
      table: reviews,
      offset,
      searched: pattern !== undefined,
      limit,
      // Neither searched nor by rating, the rollup has the count (of every review: with the page).
      ...(pattern || ratingFilter !== undefined
        ? {}
        : { countMatches: () => countRows(db, scopes), totalInPage: true }),
      remembered: { remember, key: `admin-reviews:${JSON.stringify(query)}` },
      page: (_filter, mode, window, ids) =>
        pageStatement({
          sortBy,
          sortOrder,
          statusFilter,
          ratingFilter,
          searched: pattern !== undefined,
          mode,
          firstPage: firstPageOf(offset, limit, pattern === undefined),
        }).execute({ pattern, limit, offset, window, ids, scopes }),
    });
    return { reviews: rows.map(toAdminReview), pagination: paginationOf(page, limit, total, capped) };
  }

  /** The reviews named, locked for the change; every one must exist, or nothing changes. */
  async function lockAll(tx: Tx, ids: string[]) {
    const rows = await tx.select().from(reviews).where(inArray(reviews.id, ids)).for('update');
    const found = new Set(rows.map((row) => row.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length === 1) throw notFound(`Review not found: ${missing[0]}`);
    if (missing.length > 1) throw notFound(`Reviews not found: ${missing.join(', ')}`);
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The changed reviews as the table reads them (in the transaction, so the author and title are current). */
  async function readBack(tx: Tx, ids: string[]) {
    const rows = await tx
      .select(columns)
      .from(reviews)
      .innerJoin(products, eq(products.id, reviews.productId))
      .leftJoin(users, eq(users.id, reviews.userId))
      .where(inArray(reviews.id, ids));
    const byId = new Map(rows.map((row) => [row.review.id, toAdminReview(row)]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  /** After the commit: a live event per review, and each product's overview queued once. */
  async function announce(changed: AdminReview[]) {
    for (const review of changed) {
      events.publish({
        type: 'review_updated',
        data: { collection: 'reviews', id: review.id, productId: review.productId, review },
      });
    }
    for (const productId of new Set(changed.map((review) => review.productId))) await refreshOverview({ productId });
  }

  type Change = { moderationStatus: 'approved' | 'pending' | 'flagged'; denialReason: string | SQL | null };

  /** Sets the reviews' moderation and writes one audit row per review, in the caller's transaction. */
  async function apply(tx: Tx, actor: Actor, action: string, before: (typeof reviews.$inferSelect)[], change: Change) {
    const ids = before.map((review) => review.id);
    const after = await tx
      .update(reviews)
      .set({ ...change, updatedAt: new Date() })
      .where(inArray(reviews.id, ids))
      .returning();
    const afterById = new Map(after.map((review) => [review.id, review]));
    await tx.insert(auditLog).values(
      before.map((review) => {
        const changed = afterById.get(review.id);
        return {
          actorUserId: actor.userId,
          action,
          entityType: 'review',
          entityId: review.id,
          details: {
            productId: review.productId,
            before: moderationOf(review),
            after: changed ? moderationOf(changed) : null,
          },
          ip: actor.ip,
        };
      }),
    );
    return readBack(tx, ids);
  }

  /** Spec 4: pending to approved; refused once approved or denied (Approve is not shown then). */
  async function approve(actor: Actor, id: string) {
    const [review] = await db.transaction(async (tx) => {
      const before = (await lockAll(tx, [id])).get(id);
      if (!before) throw notFound(`Review not found: ${id}`);
      if (!mayApprove(before.moderationStatus)) {
        throw new AppError(
          409,
          'not_pending',
          isDenied(before.moderationStatus)
            ? 'This review is flagged: set it back to pending or approved with a bulk status change'
            : 'This review is already approved',
        );
      }
      return apply(tx, actor, 'review.approved', [before], { moderationStatus: 'approved', denialReason: null });
    });
    if (!review) throw notFound(`Review not found: ${id}`);
    await announce([review]);
    return { message: 'Review approved', review };
  }

  /** Spec 4: pending or approved to flagged, with the moderator's reason; refused once denied. */
  async function flag(actor: Actor, id: string, reason: string) {
    const [review] = await db.transaction(async (tx) => {
      const before = (await lockAll(tx, [id])).get(id);
      if (!before) throw notFound(`Review not found: ${id}`);
      if (!mayFlag(before.moderationStatus)) {
        throw new AppError(409, 'already_flagged', 'This review is already flagged');
      }
      return apply(tx, actor, 'review.flagged', [before], { moderationStatus: 'flagged', denialReason: reason });
    });
    if (!review) throw notFound(`Review not found: ${id}`);
    await announce([review]);
    return { message: 'Review flagged', review };
  }

  /**
   * Spec 7: one status for many reviews, all or none: an unknown id (each is named) changes
   * nothing. Approved and pending clear a denial's reason; flagged keeps one already given.
   */
  async function setStatus(actor: Actor, ids: string[], status: BulkStatus) {
    const changed = await db.transaction(async (tx) => {
      const found = await lockAll(tx, ids);
      const before = ids.flatMap((id) => found.get(id) ?? []);
      return apply(tx, actor, 'review.status_changed', before, {
        moderationStatus: status,
        // A reason already given stays with a flagged review; any other status has none.
        denialReason: status === 'flagged' ? sql`${reviews.denialReason}` : null,
      });
    });
    await announce(changed);
    const noun = ids.length === 1 ? 'review' : 'reviews';
    return { message: `${ids.length} ${noun} set to ${status}`, reviews: changed };
  }

  /** Design 4: the spec's console-only delete, for real; the audit row keeps the review's text. */
  async function remove(actor: Actor, id: string) {
    const before = await db.transaction(async (tx) => {
      const review = (await lockAll(tx, [id])).get(id);
      if (!review) throw notFound(`Review not found: ${id}`);
      await tx.delete(reviews).where(eq(reviews.id, id));
      await tx.insert(auditLog).values({
        actorUserId: actor.userId,
        action: 'review.deleted',
        entityType: 'review',
        entityId: id,
        details: {
          productId: review.productId,
          before: {
            ...moderationOf(review),
            customerName: review.customerName,
            rating: review.rating,
            title: review.title,
            content: review.content,
          },
          after: null,
        },
        ip: actor.ip,
      });
      return review;
    });
    events.publish({ type: 'review_deleted', data: { collection: 'reviews', id, productId: before.productId } });
    await refreshOverview({ productId: before.productId });
    return { message: 'Review deleted' };
  }

  return { list, approve, flag, setStatus, remove };
}

export type ReviewModerationService = ReturnType<typeof createReviewModerationService>;
