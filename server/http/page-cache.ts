import { createHash } from 'node:crypto';

/**
 * The storefront pages every signed-out visitor gets alike (issue 15): the home page, the
 * listing, a product page and its reviews page. Their HTML differs between two requests only by
 * the CSP nonce, so it may be kept by the browser and by a shared cache, and revalidated with an
 * ETag: an unchanged page costs a 304.
 */
const SHARED_PAGES = /^\/(?:products|product\/[^/?#]+(?:\/reviews)?)?\/?(?:\?.*)?$/;

/**
 * Any cache may keep it. The browser asks again each time (max-age=0), or shows its copy at once
 * while it asks, for 30 s after the copy was fetched (a page revisited at once: a price or a stock
 * count at most that old on screen; the checkout prices everything again anyway). A shared cache
 * answers from its copy for a minute. Keyed by the cookies too: a signed-in visitor never gets a
 * signed-out copy.
 */
export const SHARED_PAGE_CACHE_CONTROL = 'public, max-age=0, s-maxage=60, stale-while-revalidate=30';

export function isSharedPage(url: string): boolean {
  return SHARED_PAGES.test(url) && !url.includes('.data');
}

/** A weak validator of the page's content: its bytes without the request's nonce. */
export function pageEtag(html: string, nonce: string | undefined): string {
  const content = nonce ? html.replaceAll(nonce, '') : html;
  return `W/"${createHash('sha256').update(content).digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names this validator (weak comparison, as RFC 9110 asks for it). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === '*') return true;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}
