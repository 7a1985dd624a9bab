import { useId } from 'react';
import type { Review } from '#common/contracts/reviews.ts';
import { Stars } from '#web/storefront/catalog/stars.tsx';
import { HelpfulButton } from '#web/storefront/reviews/helpful-button.tsx';
import { ModerationStatus } from '#web/storefront/reviews/moderation-status.tsx';

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/**
 * One review. Its texts are rendered as text only (never as HTML, never linkified): a review is
 * what a stranger typed. The compact variant (the home page's scroller, whose second copy is
 * hidden from screen readers) has no controls; the others offer "Helpful", except on the viewer's
 * own review and on one that is not public (which cannot be voted for).
 */
export function ReviewCard({ review, compact = false }: { review: Review; compact?: boolean }) {
  const titleId = useId();
  const votable = !compact && !review.isOwn && review.status === 'approved';
  return (
    <article className="h-full rounded-2xl border border-sage-100 bg-white p-5">
      <div className="flex items-center justify-between gap-2">
        <Stars rating={review.rating} />
        <div className="flex flex-wrap justify-end gap-1.5">
          {compact ? null : <ModerationStatus review={review} />}
          {review.verified ? (
            <span className="rounded-full bg-sage-50 px-2 py-0.5 text-xs font-medium text-sage-700">
              Verified Purchase
            </span>
          ) : null}
        </div>
      </div>
      <h3 id={titleId} className="mt-2 font-semibold break-words text-stone-900">
        {review.title}
      </h3>
      <p
        className={`mt-1 text-sm leading-6 break-words whitespace-pre-line text-stone-700 ${compact ? 'line-clamp-4' : ''}`}
      >
        {review.content}
      </p>
      <p className="mt-3 text-xs text-stone-600">
        {review.customerName} · <time dateTime={review.createdAt}>{dateFormat.format(new Date(review.createdAt))}</time>
        {!compact && !votable && review.helpful > 0 ? ` · ${review.helpful} found this helpful` : ''}
      </p>
      {votable ? (
        <div className="mt-3">
          <HelpfulButton reviewId={review.id} helpful={review.helpful} describedBy={titleId} />
        </div>
      ) : null}
    </article>
  );
}
