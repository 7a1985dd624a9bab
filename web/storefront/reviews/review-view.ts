import type { reviewSorts } from '#common/contracts/reviews.ts';

// What the reviews page shows, read from its URL (spec: sortBy, order, ratings, review, success).
// Only valid values are kept, so the API is never asked something it would refuse with a 400.
// Imported by the page's loader and its components: no contracts here beyond types.

export const reviewSortOptions = [
  { value: 'newest', label: 'Newest', sortBy: 'createdAt', order: 'desc' },
  { value: 'oldest', label: 'Oldest', sortBy: 'createdAt', order: 'asc' },
  { value: 'highest', label: 'Highest rated', sortBy: 'rating', order: 'desc' },
  { value: 'lowest', label: 'Lowest rated', sortBy: 'rating', order: 'asc' },
  { value: 'helpful', label: 'Most helpful', sortBy: 'helpful', order: 'desc' },
] as const satisfies readonly {
  value: string;
  label: string;
  sortBy: (typeof reviewSorts)[number];
  order: 'asc' | 'desc';
}[];

export type ReviewSort = (typeof reviewSortOptions)[number];
export type ReviewSortValue = ReviewSort['value'];

export type ReviewView = {
  sort: ReviewSort;
  /** Whole stars to show, ascending; empty shows them all. */
  ratings: number[];
  /** A review to pin on top: 16 hex characters. */
  pinned: string | null;
  /** Just posted a review: the thank-you banner. */
  success: boolean;
};

const DEFAULT_SORT = reviewSortOptions[0];
const REVIEW_ID = /^[0-9a-f]{16}$/i;

/**
 * The sort of a URL. The API's `helpfulCount` is the same as `helpful`; a pair no option offers
 * (`sortBy=helpful&order=asc`) takes the option of its column, so the dropdown always tells the truth.
 */
function sortOf(params: URLSearchParams): ReviewSort {
  const raw = params.get('sortBy');
  const sortBy = raw === 'helpfulCount' ? 'helpful' : raw;
  const order = params.get('order') === 'asc' ? 'asc' : 'desc';
  const options = reviewSortOptions.filter((option) => option.sortBy === sortBy);
  return options.find((option) => option.order === order) ?? options[0] ?? DEFAULT_SORT;
}

/** Spec: "the ratings filter keeps only the values 1-5" (a comma list; anything else is dropped). */
export function ratingsOf(value: string | null): number[] {
  if (!value) return [];
  const stars = value
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^[1-5]$/.test(part))
    .map(Number);
  return [...new Set(stars)].sort((a, b) => a - b);
}

export function reviewViewOf(params: URLSearchParams): ReviewView {
  const review = params.get('review')?.trim() ?? '';
  return {
    sort: sortOf(params),
    ratings: ratingsOf(params.get('ratings')),
    pinned: REVIEW_ID.test(review) ? review.toLowerCase() : null,
    success: params.get('success') === 'true',
  };
}

/** The API query of a view (page and limit aside). */
export function reviewQueryOf(view: ReviewView) {
  return {
    sortBy: view.sort.sortBy,
    order: view.sort.order,
    ...(view.ratings.length > 0 ? { ratings: view.ratings.join(',') } : {}),
    ...(view.pinned ? { priorityReviewId: view.pinned } : {}),
  };
}

/** Whether the view is other than the plain list (a filter, a pinned review or a sort): not for search engines. */
export function isNarrowedView(view: ReviewView): boolean {
  return view.ratings.length > 0 || view.pinned !== null || view.success || view.sort.value !== DEFAULT_SORT.value;
}

/** One key per list the API would answer: the list starts again at page 1 when it changes. */
export function listKeyOf(view: ReviewView): string {
  return `${view.sort.value}|${view.ratings.join(',')}|${view.pinned ?? ''}`;
}

/** The URL parameters with a new sort (the default sort leaves none). */
export function withSort(params: URLSearchParams, value: ReviewSortValue): URLSearchParams {
  const next = new URLSearchParams(params);
  const option = reviewSortOptions.find((o) => o.value === value) ?? DEFAULT_SORT;
  next.delete('success');
  if (option === DEFAULT_SORT) {
    next.delete('sortBy');
    next.delete('order');
  } else {
    next.set('sortBy', option.sortBy);
    next.set('order', option.order);
  }
  return next;
}

/** The URL parameters with a new star filter (none shows every star). */
export function withRatings(params: URLSearchParams, ratings: number[]): URLSearchParams {
  const next = new URLSearchParams(params);
  const kept = ratingsOf(ratings.join(','));
  next.delete('success');
  if (kept.length === 0) next.delete('ratings');
  else next.set('ratings', kept.join(','));
  return next;
}

/** The URL parameters without one of them, e.g. the pinned review or the thank-you banner. */
export function without(params: URLSearchParams, ...names: string[]): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const name of names) next.delete(name);
  return next;
}
