import { useCallback, useEffect, useRef, useState } from 'react';
import { REVIEW_PAGE_SIZE } from '#common/constants.ts';
import type { listProductReviews, Review } from '#common/contracts/reviews.ts';
import { api } from '#web/common/browser-api.ts';
import { ReviewCard } from '#web/storefront/product/review-card.tsx';
import { type ReviewView, reviewQueryOf } from './review-view.ts';

export type ReviewPage = { reviews: Review[]; page: number; pages: number; total: number };

type LoadState = 'idle' | 'loading' | 'error';

/**
 * The pages after the first, fetched in the browser with the view's query (the pinned review too,
 * which the API keeps in the first place, so later pages do not repeat or skip one).
 */
function useMoreReviews(slug: string, view: ReviewView, first: ReviewPage) {
  const [reviews, setReviews] = useState(first.reviews);
  const [page, setPage] = useState(first.page);
  const [pages, setPages] = useState(first.pages);
  const [total, setTotal] = useState(first.total);
  const [state, setState] = useState<LoadState>('idle');
  // A ref as well as the state: the observer may fire twice before React renders.
  const busy = useRef(false);
  const more = page < pages;

  const loadMore = useCallback(async () => {
    if (busy.current || !more) return;
    busy.current = true;
    setState('loading');
    try {
      const answer = await api.call<typeof listProductReviews>(
        { method: 'GET', path: '/api/reviews/product/:id' },
        { params: { id: slug }, query: { ...reviewQueryOf(view), page: page + 1, limit: REVIEW_PAGE_SIZE } },
      );
      // A review written meanwhile shifts the pages by one: never show one twice.
      setReviews((shown) => {
        const seen = new Set(shown.map((review) => review.id));
        return [...shown, ...answer.reviews.filter((review) => !seen.has(review.id))];
      });
      setPage(answer.pagination.page);
      setPages(answer.pagination.pages);
      setTotal(answer.pagination.total);
      setState('idle');
    } catch {
      setState('error');
    } finally {
      busy.current = false;
    }
  }, [slug, view, page, more]);

  return { reviews, total, more, state, loadMore };
}

/** Calls `onVisible` whenever the sentinel comes near the viewport (without IntersectionObserver, never). */
function useSentinel(onVisible: () => void, active: boolean, shown: number) {
  const sentinel = useRef<HTMLDivElement>(null);
  const latest = useRef(onVisible);
  latest.current = onVisible;
  // biome-ignore lint/correctness/useExhaustiveDependencies: observing again after each page asks once more while the sentinel is still in view.
  useEffect(() => {
    const node = sentinel.current;
    if (!node || !active || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) latest.current();
      },
      { rootMargin: '0px 0px 600px 0px' },
    );
    observer.observe(node);
    return () => observer.disconnect();
  }, [active, shown]);
  return sentinel;
}

/** The review linked to (spec: pinned on top, labelled 'Showing specific review', with a clear button). */
function PinnedReview({ review, onClear }: { review: Review; onClear: () => void }) {
  return (
    <section
      aria-labelledby="pinned-review-heading"
      className="rounded-2xl border-2 border-amber-300 bg-amber-50 p-3 sm:p-4"
      data-testid="pinned-review"
    >
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2 px-1">
        <h2 id="pinned-review-heading" className="text-sm font-semibold text-amber-900">
          Showing specific review
        </h2>
        <button
          type="button"
          onClick={onClear}
          className="rounded-full border border-amber-400 bg-white px-3 py-1 text-sm font-medium text-amber-900 hover:bg-amber-100"
        >
          Clear<span className="sr-only"> specific review</span>
        </button>
      </div>
      <ReviewCard review={review} />
    </section>
  );
}

/**
 * A product's reviews: the first page from the server, then page after page as the shopper
 * scrolls (an IntersectionObserver on a sentinel), with a Load more button for keyboards and
 * browsers without the observer, a 'Loading more…' state and an end-of-list message.
 * Mounted again (key) when the view changes, so a new filter or sort starts at page 1.
 */
export function ReviewList({
  slug,
  view,
  first,
  onClearPinned,
}: {
  slug: string;
  view: ReviewView;
  first: ReviewPage;
  onClearPinned: () => void;
}) {
  const { reviews, total, more, state, loadMore } = useMoreReviews(slug, view, first);
  const sentinel = useSentinel(
    () => {
      // After a failure the shopper retries with the button: no loop of failing requests.
      if (state !== 'error') void loadMore();
    },
    more,
    reviews.length,
  );
  const pinned = view.pinned && reviews[0]?.id === view.pinned ? reviews[0] : null;
  const rest = pinned ? reviews.slice(1) : reviews;

  // After the button, the focus goes to the first new review, where a keyboard user reads on.
  const list = useRef<HTMLOListElement>(null);
  const focusAt = useRef<number | null>(null);
  useEffect(() => {
    const at = focusAt.current;
    if (at === null || rest.length <= at) return;
    focusAt.current = null;
    (list.current?.children[at] as HTMLElement | undefined)?.focus();
  }, [rest.length]);

  return (
    <div className="space-y-6">
      {view.pinned && !pinned ? (
        <p className="rounded-lg border border-sage-200 bg-sage-50 px-4 py-3 text-sm text-sage-900">
          The review you were linked to is not among these reviews.{' '}
          <button type="button" onClick={onClearPinned} className="font-medium text-sage-800 underline">
            Show all reviews
          </button>
        </p>
      ) : null}
      {pinned ? <PinnedReview review={pinned} onClear={onClearPinned} /> : null}
      {rest.length > 0 ? (
        <ol ref={list} aria-label="Reviews" className="space-y-4">
          {rest.map((review) => (
            <li
              key={review.id}
              tabIndex={-1}
              className="rounded-2xl focus:ring-2 focus:ring-sage-400 focus:outline-none"
            >
              <ReviewCard review={review} />
            </li>
          ))}
        </ol>
      ) : null}
      <div ref={sentinel} aria-hidden="true" className="h-px" />
      <div className="flex flex-col items-center gap-3 text-center">
        <p role="status" className="text-sm text-stone-600">
          {state === 'loading'
            ? 'Loading more…'
            : state === 'error'
              ? 'Failed to fetch reviews'
              : `Showing ${reviews.length} of ${Math.max(total, reviews.length)} reviews`}
        </p>
        {more ? (
          <button
            type="button"
            aria-disabled={state === 'loading' ? true : undefined}
            onClick={() => {
              if (state === 'loading') return;
              focusAt.current = rest.length;
              void loadMore();
            }}
            className="rounded-full border border-sage-300 px-6 py-2.5 text-sm font-medium text-sage-800 hover:bg-sage-50 aria-disabled:cursor-wait aria-disabled:text-stone-600"
          >
            {state === 'error' ? 'Try again' : 'Load more reviews'}
          </button>
        ) : (
          <p className="text-sm font-medium text-stone-700">You've reached the end of the reviews.</p>
        )}
      </div>
    </div>
  );
}
