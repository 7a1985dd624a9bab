import { useEffect, useState } from 'react';
import type { hasPurchased } from '#common/contracts/orders.ts';
import type { Review, updateReview } from '#common/contracts/reviews.ts';
import { api } from '#web/common/browser-api.ts';
import { ReviewActions, ReviewFields, useReviewDraft } from './review-fields.tsx';

/**
 * The edit form of one's own review (spec sections 4, 5 and 8): rating 1.0-5.0 in steps of 0.1
 * (clamped), title and content with live counters, the Verified Purchase box for buyers. Checked
 * with the shared rules in the spec's order; after a first attempt the message follows the edits.
 * Sends PUT /api/reviews/:id; a refusal shows the server's sentence, else 'Failed to update review'.
 */
export function ReviewEditor({
  review,
  label,
  onSaved,
  onCancel,
}: {
  review: Review;
  /** The form's accessible name, e.g. "Edit your review of <product>". */
  label: string;
  onSaved: (review: Review, message: string) => void;
  onCancel: () => void;
}) {
  const draft = useReviewDraft({
    ratingText: review.rating.toFixed(1),
    title: review.title,
    content: review.content,
    verified: review.verified,
  });
  // Whether the purchased check allows the Verified Purchase box (null while asking).
  const [purchased, setPurchased] = useState<boolean | null>(review.verified ? true : null);

  useEffect(() => {
    if (review.verified) return;
    let live = true;
    api
      .call<typeof hasPurchased>(
        { method: 'GET', path: '/api/orders/user/product/:productId/purchased' },
        { params: { productId: review.productId } },
      )
      .then(
        (answer) => live && setPurchased(answer.purchased === true),
        // Spec: a failed purchased check counts as false.
        () => live && setPurchased(false),
      );
    return () => {
      live = false;
    };
  }, [review.productId, review.verified]);

  const submit = draft.submit(
    async (edited) => {
      const answer = await api.call<typeof updateReview>(
        { method: 'PUT', path: '/api/reviews/:id' },
        { params: { id: review.id }, body: edited },
      );
      onSaved(answer.review, answer.message);
    },
    { failed: 'Failed to update review', stayBusy: false },
  );

  return (
    <form aria-label={label} noValidate className="space-y-4" onSubmit={submit}>
      <ReviewFields draft={draft} purchased={purchased} variant="inline" />
      <ReviewActions
        busy={draft.busy}
        label="Save changes"
        busyLabel="Saving…"
        cancel={{ onClick: onCancel }}
        compact
      />
    </form>
  );
}
