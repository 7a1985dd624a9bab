import * as z from 'zod/mini';

/**
 * Where a page of a list stands: every paginated answer carries it (page, pages, total, limit).
 * `capped`, only ever true: the matches were counted up to `total` and there are more (shown "N+").
 */
export const Pagination = z.object({
  page: z.int(),
  pages: z.int(),
  total: z.int(),
  limit: z.int(),
  capped: z.optional(z.literal(true)),
});
export type Pagination = z.infer<typeof Pagination>;

/** The pagination of page `page` of `total` rows, `limit` a page; an empty list still has one page. */
export function paginationOf(page: number, limit: number, total: number, capped = false): Pagination {
  return { page, pages: Math.max(1, Math.ceil(total / limit)), total, limit, ...(capped ? { capped: true } : {}) };
}

/**
 * A searched or filtered back-office list counts its matches up to this many past the page's
 * offset, and shows more as "10000+": counting the millions of reviews a common word matches
 * took seconds, for a figure nobody pages through.
 */
export const COUNT_CAP = 10_000;

/**
 * A searched list counts fewer: a common word's matches are counted by reading the table until
 * the cap is reached, so the count costs the cap over the word's share of the rows ("noisy", in
 * 8 % of ten million reviews: 45-54 ms to 1,001 matches, 9 ms to 201, on one machine). Both caps
 * count on from the page's offset, so "Load more" reaches every match: page 21 of a search shows
 * "of 400+".
 */
export const SEARCH_COUNT_CAP = 200;
