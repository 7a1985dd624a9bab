import { describe, expect, test } from 'vitest';
import { isNarrowedView, ratingsOf, reviewQueryOf, reviewViewOf, withRatings, withSort } from './review-view.ts';

const viewOf = (query: string) => reviewViewOf(new URLSearchParams(query));

describe('the reviews page view from its URL', () => {
  test('defaults to the newest first, every star, nothing pinned', () => {
    const view = viewOf('');
    expect(view).toMatchObject({ ratings: [], pinned: null, success: false });
    expect(view.sort.value).toBe('newest');
    expect(reviewQueryOf(view)).toEqual({ sortBy: 'createdAt', order: 'desc' });
    expect(isNarrowedView(view)).toBe(false);
  });

  test('maps sortBy and order to the dropdown options', () => {
    expect(viewOf('sortBy=createdAt&order=asc').sort.value).toBe('oldest');
    expect(viewOf('sortBy=rating').sort.value).toBe('highest');
    expect(viewOf('sortBy=rating&order=asc').sort.value).toBe('lowest');
    expect(viewOf('sortBy=helpful').sort.value).toBe('helpful');
    expect(viewOf('sortBy=helpfulCount&order=desc').sort.value).toBe('helpful');
    // A pair no option offers takes its column's option; an unknown column the default.
    expect(viewOf('sortBy=helpful&order=asc').sort.value).toBe('helpful');
    expect(viewOf('sortBy=price&order=asc').sort.value).toBe('newest');
  });

  test('keeps only the ratings 1-5 (spec section 5)', () => {
    expect(ratingsOf('5,4')).toEqual([4, 5]);
    expect(ratingsOf('0,6,3,x,3, 2 ,4.5,-1,')).toEqual([2, 3]);
    expect(ratingsOf('')).toEqual([]);
    expect(ratingsOf(null)).toEqual([]);
    expect(reviewQueryOf(viewOf('ratings=5,1,9'))).toMatchObject({ ratings: '1,5' });
    expect(reviewQueryOf(viewOf('ratings=9'))).not.toHaveProperty('ratings');
  });

  test('pins a review only by a 16-hex id', () => {
    expect(viewOf('review=0123456789abcdef').pinned).toBe('0123456789abcdef');
    expect(viewOf('review=0123456789ABCDEF').pinned).toBe('0123456789abcdef');
    expect(viewOf('review=0123456789abcde').pinned).toBeNull();
    expect(viewOf('review=0123456789abcdeg').pinned).toBeNull();
    expect(viewOf('review=<script>').pinned).toBeNull();
    expect(reviewQueryOf(viewOf('review=0123456789abcdef'))).toMatchObject({ priorityReviewId: '0123456789abcdef' });
  });

  test('success is only success=true', () => {
    expect(viewOf('success=true').success).toBe(true);
    expect(viewOf('success=1').success).toBe(false);
  });

  test('filtered, sorted or pinned views are narrowed (not indexed)', () => {
    expect(isNarrowedView(viewOf('ratings=5'))).toBe(true);
    expect(isNarrowedView(viewOf('sortBy=rating'))).toBe(true);
    expect(isNarrowedView(viewOf('review=0123456789abcdef'))).toBe(true);
    expect(isNarrowedView(viewOf('ratings=x'))).toBe(false);
    // As the browser gets it: the loader's data, serialised (not the same option object).
    expect(isNarrowedView(structuredClone(viewOf('')))).toBe(false);
  });

  test('changing the sort or the stars keeps the rest and drops the thank-you', () => {
    const params = new URLSearchParams('ratings=5&success=true&review=0123456789abcdef');
    expect(withSort(params, 'lowest').toString()).toBe('ratings=5&review=0123456789abcdef&sortBy=rating&order=asc');
    expect(withSort(new URLSearchParams('sortBy=rating&order=asc'), 'newest').toString()).toBe('');
    expect(withRatings(params, [3, 1, 3]).toString()).toBe('ratings=1%2C3&review=0123456789abcdef');
    expect(withRatings(params, []).toString()).toBe('review=0123456789abcdef');
  });
});
