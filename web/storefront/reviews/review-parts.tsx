import type { Review } from '#common/contracts/reviews.ts';

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** When a review was written, as people read it (the same on the server and in the browser). */
export function ReviewDate({ review }: { review: Pick<Review, 'createdAt'> }) {
  return <time dateTime={review.createdAt}>{dateFormat.format(new Date(review.createdAt))}</time>;
}

export function VerifiedBadge({ review }: { review: Pick<Review, 'verified'> }) {
  if (!review.verified) return null;
  return (
    <span className="rounded-full bg-sage-50 px-2 py-0.5 text-xs font-medium text-sage-700">Verified Purchase</span>
  );
}

/**
 * A review's title and content, as text only (never as HTML, never linkified): a review is what
 * a stranger typed. `clamp` cuts the content to four lines (the home page's scroller).
 */
export function ReviewText({
  review,
  titleId,
  clamp = false,
}: {
  review: Pick<Review, 'title' | 'content'>;
  titleId: string;
  clamp?: boolean;
}) {
  return (
    <>
      <h3 id={titleId} className="mt-2 font-semibold break-words text-stone-900">
        {review.title}
      </h3>
      <p
        className={`mt-1 text-sm leading-6 break-words whitespace-pre-line text-stone-700 ${clamp ? 'line-clamp-4' : ''}`}
      >
        {review.content}
      </p>
    </>
  );
}
