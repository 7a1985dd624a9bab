import { useId } from 'react';
import type { createReview } from '#common/contracts/reviews.ts';
import { api } from '#web/common/browser-api.ts';
import { ReviewActions, ReviewFields, useReviewDraft } from './review-fields.tsx';

export const SUBMIT_FAILED = 'Failed to submit review';

/**
 * Writing a review (spec sections 5 and 8): rating, title and content with live counters, and the
 * Verified Purchase box only for a shopper whose purchased check said yes. Checked with the shared
 * rules in the spec's order (the message above the form, the field focused); the texts are sent
 * trimmed, with the signed-in username as customerName. A refusal shows the server's sentence, else
 * 'Failed to submit review'.
 */
export function ReviewForm({
  productId,
  username,
  purchased,
  cancelHref,
  onPosted,
}: {
  productId: string;
  username: string;
  purchased: boolean;
  cancelHref: string;
  onPosted: (message: string) => void | Promise<void>;
}) {
  const id = useId();
  const draft = useReviewDraft({ ratingText: '', title: '', content: '', verified: false });
  const submit = draft.submit(
    async (review) => {
      const answer = await api.call<typeof createReview>(
        { method: 'POST', path: '/api/reviews' },
        { body: { productId, customerName: username, ...review, verified: purchased && review.verified } },
      );
      await onPosted(answer.message);
    },
    // After a success the page moves on: the button stays busy until it does.
    { failed: SUBMIT_FAILED, stayBusy: true },
  );

  return (
    <form aria-labelledby={`${id}-heading`} noValidate onSubmit={submit} className="space-y-6">
      <h2 id={`${id}-heading`} className="font-serif text-2xl text-sage-900">
        Your review
      </h2>
      <ReviewFields draft={draft} purchased={purchased} variant="page" />
      <p className="text-sm text-stone-600">
        Posting as <strong className="font-medium text-stone-800">{username}</strong>
      </p>
      <ReviewActions
        busy={draft.busy}
        label="Submit Review"
        busyLabel="Submitting…"
        cancel={{ href: cancelHref }}
        compact={false}
      />
    </form>
  );
}
