import * as z from 'zod/mini';
import { DENIAL_REASON_MAX } from '../../review-rules.ts';
import { Pagination } from '../pagination.ts';
import { moderationStatuses } from '../reviews.ts';
import { AdminListQuery } from './users.ts';

/** Spec 9: the reviews tab's sorts and filters. */
export const adminReviewSortFields = ['createdAt', 'rating', 'helpfulCount'] as const;
/** Spec 9: flagged covers every denied review (rejected or flagged). */
export const adminReviewStatusFilters = ['pending', 'approved', 'flagged'] as const;
/** The statuses a bulk change may set (spec 7: reviewIds and status). */
export const bulkReviewStatuses = ['approved', 'flagged', 'pending'] as const;
/** At most this many reviews in one bulk change (one page of the tab is 10; a select-all of a long list stays bounded). */
export const BULK_REVIEWS_MAX = 100;

/** A review's id: 16 hex characters (the ids the server makes); anything else names no review. */
export const ReviewId = z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be a review id (16 hex characters)'));
export const ReviewIdParam = z.object({ id: ReviewId });

/** A review as the moderation table reads it (spec 3, Review (moderation read)). */
export const AdminReview = z.object({
  id: z.string(),
  productId: z.string(),
  productTitle: z.string(),
  /** The author's account; null when it was deleted. */
  user: z.nullable(z.object({ username: z.string() })),
  customerName: z.string(),
  rating: z.number(),
  title: z.string(),
  content: z.string(),
  approved: z.boolean(),
  denied: z.boolean(),
  moderationStatus: z.enum(moderationStatuses),
  denialReason: z.nullable(z.string()),
  aiModerationResult: z.nullable(z.object({ flagged: z.boolean(), reasons: z.array(z.string()) })),
  helpfulCount: z.int(),
  createdAt: z.string(),
});
export type AdminReview = z.infer<typeof AdminReview>;

export const listAdminReviews = {
  method: 'GET',
  path: '/api/admin/reviews',
  query: z.extend(AdminListQuery, {
    sortBy: z._default(z.enum(adminReviewSortFields), 'createdAt'),
    ratingFilter: z.optional(z.coerce.number().check(z.int(), z.gte(1), z.lte(5))),
    statusFilter: z.optional(z.enum(adminReviewStatusFilters)),
  }),
  response: z.object({ reviews: z.array(AdminReview), pagination: Pagination }),
} as const;

const ReviewChanged = z.object({ message: z.string(), review: AdminReview });

/** Spec 7: PATCH /admin/reviews/{id}/approve (also served under /api). */
export const approveReview = {
  method: 'PATCH',
  path: '/api/admin/reviews/:id/approve',
  params: ReviewIdParam,
  response: ReviewChanged,
} as const;

/** Spec 7: PATCH /admin/reviews/{id}/flag with body reason. */
export const flagReview = {
  method: 'PATCH',
  path: '/api/admin/reviews/:id/flag',
  params: ReviewIdParam,
  body: z.object({
    reason: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'Please give a reason for flagging this review'),
        z.maxLength(DENIAL_REASON_MAX, `must be at most ${DENIAL_REASON_MAX} characters`),
      ),
  }),
  response: ReviewChanged,
} as const;

/** Spec 7: PATCH /admin/reviews/status with reviewIds and status; all of them or none. */
export const setReviewsStatus = {
  method: 'PATCH',
  path: '/api/admin/reviews/status',
  body: z.object({
    reviewIds: z.array(ReviewId).check(
      z.minLength(1, 'must name at least one review'),
      z.maxLength(BULK_REVIEWS_MAX, `must name at most ${BULK_REVIEWS_MAX} reviews`),
      z.refine((ids) => new Set(ids).size === ids.length, 'must not name a review twice'),
    ),
    status: z.enum(bulkReviewStatuses),
  }),
  response: z.object({ message: z.string(), reviews: z.array(AdminReview) }),
} as const;

/** Review delete (design 4: the spec's console-only action, wired for real). */
export const deleteReview = {
  method: 'DELETE',
  path: '/api/admin/reviews/:id',
  params: ReviewIdParam,
  response: z.object({ message: z.string() }),
} as const;

/** The tab's write routes are also served without /api, where the spec's client calls them. */
export const withoutApi = (path: string) => path.replace(/^\/api/, '');
