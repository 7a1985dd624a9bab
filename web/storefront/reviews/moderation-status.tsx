import type { Review } from '#common/contracts/reviews.ts';

const labels: Record<Exclude<Review['status'], 'approved'>, string> = {
  pending: 'Pending review',
  flagged: 'Flagged: not public',
  rejected: 'Rejected: not public',
};

/** The moderator's reasons, when the API gives them (not part of the contract today). */
function reasonsOf(review: Review): string[] {
  const { moderationReasons } = review as Review & { moderationReasons?: unknown };
  return Array.isArray(moderationReasons) ? moderationReasons.filter((r): r is string => typeof r === 'string') : [];
}

/**
 * Where a review stands when it is not public: shown to its author only (the public lists hold
 * other people's reviews only once approved). Nothing for an approved review.
 */
export function ModerationStatus({ review }: { review: Review }) {
  if (review.status === 'approved') return null;
  const reasons = reasonsOf(review);
  return (
    <span className="inline-flex flex-wrap items-center gap-x-1 rounded-full bg-amber-100 px-2.5 py-0.5 text-xs font-medium text-amber-900">
      {labels[review.status]}
      {reasons.length > 0 ? <span className="font-normal">({reasons.join('; ')})</span> : null}
    </span>
  );
}
