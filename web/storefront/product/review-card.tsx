import type { Review } from '#common/contracts/reviews.ts';
import { Stars } from '#web/storefront/catalog/stars.tsx';

const dateFormat = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

export function ReviewCard({ review, compact = false }: { review: Review; compact?: boolean }) {
  return (
    <article className="h-full rounded-2xl border border-sage-100 bg-white p-5">
      <div className="flex items-center justify-between gap-2">
        <Stars rating={review.rating} />
        {review.verified ? (
          <span className="rounded-full bg-sage-50 px-2 py-0.5 text-xs font-medium text-sage-700">
            Verified Purchase
          </span>
        ) : null}
      </div>
      <h3 className="mt-2 font-semibold text-stone-900">{review.title}</h3>
      <p className={`mt-1 text-sm leading-6 text-stone-700 ${compact ? 'line-clamp-4' : ''}`}>{review.content}</p>
      <p className="mt-3 text-xs text-stone-600">
        {review.customerName} · <time dateTime={review.createdAt}>{dateFormat.format(new Date(review.createdAt))}</time>
        {!compact && review.helpful > 0 ? ` · ${review.helpful} found this helpful` : ''}
      </p>
    </article>
  );
}
