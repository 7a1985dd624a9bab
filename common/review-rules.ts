import { REVIEW_CONTENT_MAX, REVIEW_TITLE_MAX } from './constants.ts';

/** The review form's messages (spec section 5, storefront), word for word. */
export const reviewMessages = {
  ratingMissing: 'Please select a rating',
  titleMissing: 'Please enter a review title',
  contentMissing: 'Please enter your review',
  titleTooLong: `Title must be at most ${REVIEW_TITLE_MAX} characters`,
  contentTooLong: `Review must be at most ${REVIEW_CONTENT_MAX} characters`,
} as const;

export const REVIEW_RATING_MIN = 1;
export const REVIEW_RATING_MAX = 5;

/**
 * A rating as stored: clamped to 1.0-5.0 and rounded to a step of 0.1 (spec: "runs 1.0-5.0 in 0.1
 * steps and is clamped"). 0, or anything that is not a number, means no rating was chosen.
 */
export function clampRating(rating: number): number {
  if (!Number.isFinite(rating) || rating <= 0) return 0;
  const clamped = Math.min(REVIEW_RATING_MAX, Math.max(REVIEW_RATING_MIN, rating));
  return Math.round(clamped * 10) / 10;
}

/** How many characters a text counts as people see them (an emoji is one). */
export const characterCount = (text: string) => [...text].length;

export type ReviewDraft = { rating: number; title: string; content: string };
export type ReviewProblem = { field: 'rating' | 'title' | 'content'; message: string };

/**
 * The first problem of a review, checked in the spec's order (rating, title, content), on the
 * trimmed texts; null when it may be sent. The page and the server run the same rule.
 */
export function reviewProblem({ rating, title, content }: ReviewDraft): ReviewProblem | null {
  if (clampRating(rating) === 0) return { field: 'rating', message: reviewMessages.ratingMissing };
  const trimmedTitle = title.trim();
  if (!trimmedTitle) return { field: 'title', message: reviewMessages.titleMissing };
  const trimmedContent = content.trim();
  if (!trimmedContent) return { field: 'content', message: reviewMessages.contentMissing };
  if (characterCount(trimmedTitle) > REVIEW_TITLE_MAX) return { field: 'title', message: reviewMessages.titleTooLong };
  if (characterCount(trimmedContent) > REVIEW_CONTENT_MAX) {
    return { field: 'content', message: reviewMessages.contentTooLong };
  }
  return null;
}
