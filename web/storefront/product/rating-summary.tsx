import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { RATING_DROPDOWN_CLOSE_MS } from '#common/constants.ts';
import type { RatingSummary as Summary } from '#common/contracts/reviews.ts';
import { Stars } from '#web/storefront/catalog/stars.tsx';

/** Stars, average and count, with a dropdown of the star breakdown that closes 250 ms after the mouse leaves. */
export function RatingSummary({ summary, reviewsHref }: { summary: Summary | null; reviewsHref: string }) {
  const [open, setOpen] = useState(false);
  const closing = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(closing.current), []);
  if (!summary || summary.totalReviews === 0) {
    return <p className="text-sm text-stone-500">No reviews yet</p>;
  }
  const show = () => {
    clearTimeout(closing.current);
    setOpen(true);
  };
  const hideSoon = () => {
    clearTimeout(closing.current);
    closing.current = setTimeout(() => setOpen(false), RATING_DROPDOWN_CLOSE_MS);
  };
  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: hovering only opens the breakdown early; the button is the control.
    <div className="relative inline-block" onMouseEnter={show} onMouseLeave={hideSoon}>
      <button
        type="button"
        aria-expanded={open}
        aria-controls="rating-breakdown"
        onClick={() => setOpen(!open)}
        className="flex items-center gap-2 rounded-lg py-1 text-sm text-stone-700 hover:text-stone-900"
      >
        <Stars rating={summary.averageRating} />
        <span className="font-medium">{summary.averageRating.toFixed(1)}</span>
        <span>
          ({summary.totalReviews} {summary.totalReviews === 1 ? 'review' : 'reviews'})
        </span>
        <svg viewBox="0 0 20 20" className="h-4 w-4" aria-hidden="true" fill="currentColor">
          <path d="M5.5 7.5 10 12l4.5-4.5" stroke="currentColor" strokeWidth="1.8" fill="none" />
        </svg>
      </button>
      {open ? (
        <div
          id="rating-breakdown"
          className="absolute z-20 mt-1 w-72 rounded-xl border border-sage-100 bg-white p-4 shadow-lg"
        >
          <p className="mb-3 text-sm font-medium text-stone-800">{summary.averageRating.toFixed(1)} out of 5</p>
          <ul className="space-y-1.5">
            {([5, 4, 3, 2, 1] as const).map((star) => {
              const n = summary.ratingBreakdown[star];
              const share = summary.totalReviews ? Math.round((n / summary.totalReviews) * 100) : 0;
              return (
                <li key={star} className="flex items-center gap-2 text-sm text-stone-700">
                  <span className="w-12">{star} star</span>
                  <span className="h-2 flex-1 overflow-hidden rounded-full bg-stone-200">
                    <span className="block h-full bg-amber-500" style={{ width: `${share}%` }} />
                  </span>
                  <span className="w-9 text-right">{share}%</span>
                </li>
              );
            })}
          </ul>
          <Link to={reviewsHref} className="mt-3 inline-block text-sm font-medium text-sage-700 hover:underline">
            See all reviews
          </Link>
        </div>
      ) : null}
    </div>
  );
}
