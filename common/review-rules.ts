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

/** A review's moderation status as stored (spec 3, Review: pending, approved, rejected, flagged). */
export type ModerationStatus = 'pending' | 'approved' | 'rejected' | 'flagged';

/** The review tab's display labels (spec 4, Review moderation). */
export type ModerationLabel = 'Flagged' | 'Approved' | 'Pending';

/**
 * Spec 4: "Flagged if denied or rejected, Approved if approved, else Pending". Denied wins over
 * approved, so a review that is somehow both never shows as public.
 */
export function moderationLabel(review: {
  approved: boolean;
  denied: boolean;
  moderationStatus: ModerationStatus;
}): ModerationLabel {
  if (review.denied || review.moderationStatus === 'rejected') return 'Flagged';
  if (review.approved) return 'Approved';
  return 'Pending';
}

/** A review is denied when held back by a moderator or the automatic check (rejected or flagged). */
export const isDenied = (status: ModerationStatus) => status === 'rejected' || status === 'flagged';

/** Spec 4: Approve is offered only while a review is neither approved nor denied. */
export const mayApprove = (status: ModerationStatus) => status === 'pending';

/** Spec 4: Flag is hidden once a review is denied. */
export const mayFlag = (status: ModerationStatus) => !isDenied(status);

/** The longest reason a moderator may give when flagging (shown in the reviews tab). */
export const DENIAL_REASON_MAX = 500;
