import { describe, expect, test } from 'vitest';
import { REVIEW_CONTENT_MAX, REVIEW_TITLE_MAX } from './constants.ts';
import {
  clampRating,
  isDenied,
  type ModerationStatus,
  mayApprove,
  mayFlag,
  moderationLabel,
  reviewMessages,
  reviewProblem,
} from './review-rules.ts';

describe('review rules', () => {
  test('a rating is clamped to 1.0-5.0 in steps of 0.1; 0 or nothing means none chosen', () => {
    expect(clampRating(0)).toBe(0);
    expect(clampRating(Number.NaN)).toBe(0);
    expect(clampRating(-3)).toBe(0);
    expect(clampRating(0.4)).toBe(1);
    expect(clampRating(4.26)).toBe(4.3);
    expect(clampRating(4.24)).toBe(4.2);
    expect(clampRating(7)).toBe(5);
  });

  test('problems come in the spec order: rating, then title, then content', () => {
    expect(reviewProblem({ rating: 0, title: '', content: '' })).toEqual({
      field: 'rating',
      message: reviewMessages.ratingMissing,
    });
    expect(reviewProblem({ rating: 4, title: '   ', content: '' })?.message).toBe('Please enter a review title');
    expect(reviewProblem({ rating: 4, title: 'Calm', content: ' \n ' })?.message).toBe('Please enter your review');
    expect(reviewProblem({ rating: 4, title: 'Calm', content: 'Lovely' })).toBeNull();
  });

  test('lengths count the trimmed text as people see it', () => {
    const draft = { rating: 5, title: 'x', content: 'y' };
    expect(reviewProblem({ ...draft, title: ` ${'t'.repeat(REVIEW_TITLE_MAX)} ` })).toBeNull();
    expect(reviewProblem({ ...draft, title: 't'.repeat(REVIEW_TITLE_MAX + 1) })?.field).toBe('title');
    expect(reviewProblem({ ...draft, content: '🌊'.repeat(REVIEW_CONTENT_MAX) })).toBeNull();
    expect(reviewProblem({ ...draft, content: 'c'.repeat(REVIEW_CONTENT_MAX + 1) })?.field).toBe('content');
  });
});

describe('moderation labels (spec 4)', () => {
  const review = (approved: boolean, denied: boolean, moderationStatus: ModerationStatus) => ({
    approved,
    denied,
    moderationStatus,
  });

  test('Flagged if denied or rejected, Approved if approved, else Pending', () => {
    expect(moderationLabel(review(false, true, 'flagged'))).toBe('Flagged');
    expect(moderationLabel(review(false, false, 'rejected'))).toBe('Flagged');
    expect(moderationLabel(review(true, true, 'approved'))).toBe('Flagged');
    expect(moderationLabel(review(true, false, 'approved'))).toBe('Approved');
    expect(moderationLabel(review(false, false, 'pending'))).toBe('Pending');
    expect(moderationLabel(review(false, false, 'flagged'))).toBe('Pending');
  });

  test('Approve only while neither approved nor denied; Flag hidden once denied', () => {
    expect(['pending', 'approved', 'rejected', 'flagged'].filter((s) => mayApprove(s as ModerationStatus))).toEqual([
      'pending',
    ]);
    expect(['pending', 'approved', 'rejected', 'flagged'].filter((s) => mayFlag(s as ModerationStatus))).toEqual([
      'pending',
      'approved',
    ]);
    expect(isDenied('rejected') && isDenied('flagged') && !isDenied('approved') && !isDenied('pending')).toBe(true);
  });
});
