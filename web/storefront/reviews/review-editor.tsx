import { useEffect, useId, useRef, useState } from 'react';
import { REVIEW_CONTENT_MAX, REVIEW_TITLE_MAX } from '#common/constants.ts';
import type { hasPurchased } from '#common/contracts/orders.ts';
import type { Review, updateReview } from '#common/contracts/reviews.ts';
import { characterCount, clampRating, type ReviewProblem, reviewProblem } from '#common/review-rules.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { Notice } from '#web/storefront/account/form-fields.tsx';
import { Stars } from '#web/storefront/catalog/stars.tsx';

const box = 'rounded-lg border bg-white px-3 py-2.5 text-stone-900 focus:ring-2 focus:ring-sage-200 focus:outline-none';
const input = `mt-1 block w-full ${box}`;
const button = 'rounded-full px-5 py-2 text-sm font-medium';

type Field = ReviewProblem['field'];

/** The rating field's text as a number: empty or not a number is 0, "no rating". */
function ratingOf(text: string): number {
  const value = Number(text.trim());
  return text.trim() === '' || !Number.isFinite(value) ? 0 : value;
}

/** "n/max", red once past the limit. */
function Counter({ id, count, max }: { id: string; count: number; max: number }) {
  return (
    <p id={id} className={`mt-1 text-right text-xs ${count > max ? 'font-medium text-red-700' : 'text-stone-600'}`}>
      {count}/{max}
      <span className="sr-only"> characters</span>
    </p>
  );
}

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
  const id = useId();
  const [ratingText, setRatingText] = useState(review.rating.toFixed(1));
  const [title, setTitle] = useState(review.title);
  const [content, setContent] = useState(review.content);
  const [verified, setVerified] = useState(review.verified);
  // Whether the purchased check allows the Verified Purchase box (null while asking).
  const [purchased, setPurchased] = useState<boolean | null>(review.verified ? true : null);
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<{ text: string; field: Field | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = {
    rating: useRef<HTMLInputElement>(null),
    title: useRef<HTMLInputElement>(null),
    content: useRef<HTMLTextAreaElement>(null),
  };

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

  const rating = ratingOf(ratingText);
  const problem = attempted ? reviewProblem({ rating, title, content }) : null;
  const message = problem?.message ?? serverError?.text ?? null;
  const invalidField: Field | null = problem?.field ?? serverError?.field ?? null;
  const messageId = `${id}-message`;
  const describedBy = (field: Field, counter?: string) =>
    [invalidField === field ? messageId : null, counter].filter(Boolean).join(' ') || undefined;
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setServerError(null);
    };

  return (
    <form
      aria-label={label}
      noValidate
      className="space-y-4"
      onSubmit={async (event) => {
        event.preventDefault();
        if (busy) return;
        setAttempted(true);
        setServerError(null);
        const found = reviewProblem({ rating, title, content });
        if (found) {
          fields[found.field].current?.focus();
          return;
        }
        setBusy(true);
        try {
          const answer = await api.call<typeof updateReview>(
            { method: 'PUT', path: '/api/reviews/:id' },
            {
              params: { id: review.id },
              body: { rating: clampRating(rating), title: title.trim(), content: content.trim(), verified },
            },
          );
          onSaved(answer.review, answer.message);
        } catch (error) {
          const field = error instanceof ApiRequestError ? error.field : undefined;
          setServerError({
            text: errorMessage(error, 'Failed to update review'),
            field: field === 'rating' || field === 'title' || field === 'content' ? field : null,
          });
        } finally {
          setBusy(false);
        }
      }}
    >
      {message ? (
        <div id={messageId}>
          <Notice kind="error">{message}</Notice>
        </div>
      ) : null}
      <div>
        <label htmlFor={`${id}-rating`} className="block text-sm font-medium text-stone-800">
          Rating (1.0 to 5.0)
        </label>
        <div className="mt-1 flex items-center gap-3">
          <input
            ref={fields.rating}
            id={`${id}-rating`}
            type="number"
            inputMode="decimal"
            min={1}
            max={5}
            step={0.1}
            value={ratingText}
            onChange={(event) => edit(setRatingText)(event.target.value)}
            onBlur={() => {
              // Spec: the rating is clamped to 1.0-5.0 in steps of 0.1.
              const clamped = clampRating(ratingOf(ratingText));
              if (clamped > 0) setRatingText(clamped.toFixed(1));
            }}
            aria-invalid={invalidField === 'rating' ? true : undefined}
            aria-describedby={describedBy('rating')}
            className={`${box} w-28 ${invalidField === 'rating' ? 'border-red-600' : 'border-sage-200 focus:border-sage-500'}`}
          />
          <Stars rating={clampRating(rating)} size="h-5" />
        </div>
      </div>
      <div>
        <label htmlFor={`${id}-title`} className="block text-sm font-medium text-stone-800">
          Title
        </label>
        <input
          ref={fields.title}
          id={`${id}-title`}
          type="text"
          value={title}
          onChange={(event) => edit(setTitle)(event.target.value)}
          aria-invalid={invalidField === 'title' ? true : undefined}
          aria-describedby={describedBy('title', `${id}-title-count`)}
          className={`${input} ${invalidField === 'title' ? 'border-red-600' : 'border-sage-200 focus:border-sage-500'}`}
        />
        <Counter id={`${id}-title-count`} count={characterCount(title)} max={REVIEW_TITLE_MAX} />
      </div>
      <div>
        <label htmlFor={`${id}-content`} className="block text-sm font-medium text-stone-800">
          Review
        </label>
        <textarea
          ref={fields.content}
          id={`${id}-content`}
          rows={5}
          value={content}
          onChange={(event) => edit(setContent)(event.target.value)}
          aria-invalid={invalidField === 'content' ? true : undefined}
          aria-describedby={describedBy('content', `${id}-content-count`)}
          className={`${input} ${invalidField === 'content' ? 'border-red-600' : 'border-sage-200 focus:border-sage-500'}`}
        />
        <Counter id={`${id}-content-count`} count={characterCount(content)} max={REVIEW_CONTENT_MAX} />
      </div>
      {purchased ? (
        <label className="flex items-center gap-2 text-sm text-stone-800">
          <input
            type="checkbox"
            checked={verified}
            onChange={(event) => edit(setVerified)(event.target.checked)}
            className="h-4 w-4 rounded border-sage-300 accent-sage-700"
          />
          Verified Purchase
        </label>
      ) : purchased === false ? (
        <p className="text-xs text-stone-600">The Verified Purchase mark is for shoppers who ordered this product.</p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          disabled={busy}
          className={`${button} bg-sage-700 text-white hover:bg-sage-800 disabled:bg-stone-300 disabled:text-stone-700`}
        >
          {busy ? 'Saving…' : 'Save changes'}
        </button>
        <button
          type="button"
          onClick={onCancel}
          className={`${button} border border-sage-300 text-sage-800 hover:bg-sage-50`}
        >
          Cancel
        </button>
      </div>
    </form>
  );
}
