import * as z from 'zod/mini';
import { Pagination } from './pagination.ts';

/** The review overview of a product (spec: "AI analysis"). */
export const ReviewAnalysis = z.object({
  /** Share of public reviews rated 4 stars or more, as a whole percent. */
  recommendationScore: z.int().check(z.gte(0), z.lte(100)),
  overallSentiment: z.enum(['positive', 'negative', 'neutral']),
  summary: z.string(),
  commonPraises: z.array(z.string()),
  commonConcerns: z.array(z.string()),
  keyInsights: z.array(z.string()),
});
export type ReviewAnalysis = z.infer<typeof ReviewAnalysis>;

export const moderationStatuses = ['pending', 'approved', 'rejected', 'flagged'] as const;

export const Review = z.object({
  /** 16 hex characters. */
  id: z.string(),
  /** The product's slug. */
  productId: z.string(),
  /** 1.0 to 5.0 in steps of 0.1. */
  rating: z.number(),
  title: z.string(),
  content: z.string(),
  verified: z.boolean(),
  /** How many shoppers found it helpful. */
  helpful: z.int(),
  createdAt: z.string(),
  customerName: z.string(),
  /** Written by the signed-in user (who may edit or delete it). */
  isOwn: z.boolean(),
  /** Only reviews that are not public yet (seen by their author) are other than 'approved'. */
  status: z.enum(moderationStatuses),
});
export type Review = z.infer<typeof Review>;

export const RatingSummary = z.object({
  /** Average of the public reviews, to two decimals; 0 without reviews. */
  averageRating: z.number(),
  totalReviews: z.int(),
  /** How many public reviews count in each star (a rating counts in its rounded star). */
  ratingBreakdown: z.object({ 1: z.int(), 2: z.int(), 3: z.int(), 4: z.int(), 5: z.int() }),
});
export type RatingSummary = z.infer<typeof RatingSummary>;

const productKey = z.object({ id: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)) });
const star = z.coerce.number().check(z.gte(1), z.lte(5));

export const reviewSorts = ['createdAt', 'rating', 'helpful', 'helpfulCount'] as const;

/** A comma list of whole stars, e.g. "4,5". */
const starList = z.pipe(
  z.string().check(z.regex(/^[1-5](,[1-5])*$/, 'must be a comma list of stars from 1 to 5')),
  z.transform((value) => [...new Set(value.split(',').map(Number))]),
);

export const listProductReviews = {
  method: 'GET',
  path: '/api/reviews/product/:id',
  params: productKey,
  query: z.object({
    page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1),
    limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 40),
    sortBy: z._default(z.enum(reviewSorts), 'createdAt'),
    order: z._default(z.enum(['asc', 'desc']), 'desc'),
    minRating: z.optional(star),
    maxRating: z.optional(star),
    ratings: z.optional(starList),
    /** A review to show first (e.g. from a shared link): 16 hex characters. */
    priorityReviewId: z.optional(z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be 16 hex characters'))),
    /** A cache-buster some clients send; ignored. */
    t: z.optional(z.string()),
  }),
  response: z.object({
    reviews: z.array(Review),
    pagination: Pagination,
  }),
} as const;

export const getRatingSummary = {
  method: 'GET',
  path: '/api/reviews/rating/:id',
  params: productKey,
  query: z.object({ t: z.optional(z.string()) }),
  response: RatingSummary,
} as const;

export const getReviewAnalysis = {
  method: 'GET',
  path: '/api/reviews/ai-analysis/:id',
  params: productKey,
  response: ReviewAnalysis,
} as const;

export const listMyReviews = {
  method: 'GET',
  path: '/api/reviews/user',
  response: z.object({
    reviews: z.array(
      z.extend(Review, {
        productTitle: z.string(),
        /** Why the moderator held the review back (only for flagged reviews). */
        moderationReasons: z.optional(z.array(z.string())),
      }),
    ),
  }),
} as const;

const reviewId = z.object({ id: z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be 16 hex characters')) });

/**
 * What a shopper writes. Texts are checked by the shared review rules (common/review-rules.ts)
 * after trimming; the schema only bounds their size.
 */
const ReviewFields = {
  /** 1.0 to 5.0; clamped to that range and rounded to 0.1. */
  rating: z.number(),
  title: z.string().check(z.maxLength(2000)),
  content: z.string().check(z.maxLength(20_000)),
  /** Verified Purchase: accepted only when the purchased check is true. */
  verified: z._default(z.boolean(), false),
};

export const createReview = {
  method: 'POST',
  path: '/api/reviews',
  body: z.object({
    /** The product's slug or id. */
    productId: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
    ...ReviewFields,
    /** Sent by the storefront; the server uses the signed-in username whatever it says. */
    customerName: z.optional(z.string().check(z.maxLength(200))),
  }),
  response: z.object({ message: z.string(), review: Review }),
} as const;

export const updateReview = {
  method: 'PUT',
  path: '/api/reviews/:id',
  params: reviewId,
  body: z.object(ReviewFields),
  response: z.object({ message: z.string(), review: Review }),
} as const;

export const deleteReview = {
  method: 'DELETE',
  path: '/api/reviews/:id',
  params: reviewId,
  response: z.object({ success: z.literal(true) }),
} as const;

export const markReviewHelpful = {
  method: 'POST',
  path: '/api/reviews/:id/helpful',
  params: reviewId,
  /** The review's count after the vote (a second vote by the same shopper leaves it as it was). */
  response: z.object({ helpful: z.int() }),
} as const;
