import { useId } from 'react';
import type { Review } from '#common/contracts/reviews.ts';
import { Stars } from '#web/storefront/catalog/stars.tsx';
import { HelpfulButton } from '#web/storefront/reviews/helpful-button.tsx';
import { ModerationStatus } from '#web/storefront/reviews/moderation-status.tsx';
import { ReviewDate, ReviewText, VerifiedBadge } from '#web/storefront/reviews/review-parts.tsx';

/**
 * One review, its texts as text only (ReviewText). The compact variant (the home page's scroller, whose second copy is
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
          <VerifiedBadge review={review} />
        </div>
      </div>
      <ReviewText review={review} titleId={titleId} clamp={compact} />
      <p className="mt-3 text-xs text-stone-600">
        {review.customerName} · <ReviewDate review={review} />
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
