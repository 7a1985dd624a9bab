import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { REVIEW_CONTENT_MAX, REVIEW_TITLE_MAX } from '#common/constants.ts';
import type { createReview } from '#common/contracts/reviews.ts';
import { characterCount, clampRating, type ReviewProblem, reviewProblem } from '#common/review-rules.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { Notice } from '#web/storefront/account/form-fields.tsx';
import { RatingInput, ratingOfText } from './rating-input.tsx';

type Field = ReviewProblem['field'];

const box =
  'mt-1 block w-full rounded-lg border bg-white px-3 py-2.5 text-stone-900 focus:ring-2 focus:ring-sage-200 focus:outline-none';
const button = 'rounded-full px-6 py-2.5 text-sm font-medium';

export const SUBMIT_FAILED = 'Failed to submit review';
export const VERIFIED_HINT = 'The Verified Purchase mark is for shoppers who ordered this product.';

/**
 * A text cut to `max` characters as people count them (an emoji is one, as the shared rules
 * count). The native maxLength counts UTF-16 units instead, so it would disagree with the counter.
 * Typing at the limit changes nothing; a paste keeps what fits.
 */
function limited(next: string, previous: string, max: number): string {
  if (characterCount(next) <= max) return next;
  if (characterCount(previous) >= max) return previous;
  return [...next].slice(0, max).join('');
}

/** The live counter under a text field: "n/max". */
function Counter({ id, count, max }: { id: string; count: number; max: number }) {
  return (
    <p
      id={id}
      className={`mt-1 text-right text-xs tabular-nums ${count >= max ? 'font-medium text-amber-800' : 'text-stone-600'}`}
    >
      {count}/{max}
      <span className="sr-only"> characters</span>
    </p>
  );
}

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
  const [ratingText, setRatingText] = useState('');
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [verified, setVerified] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<{ text: string; field: Field | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const fields = {
    rating: useRef<HTMLInputElement>(null),
    title: useRef<HTMLInputElement>(null),
    content: useRef<HTMLTextAreaElement>(null),
  };

  const rating = ratingOfText(ratingText);
  // After a first attempt the message follows the edits (the next problem, or none).
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

  async function submit(event: React.FormEvent) {
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
      const answer = await api.call<typeof createReview>(
        { method: 'POST', path: '/api/reviews' },
        {
          body: {
            productId,
            customerName: username,
            rating: clampRating(rating),
            title: title.trim(),
            content: content.trim(),
            verified: purchased && verified,
          },
        },
      );
      await onPosted(answer.message);
    } catch (error) {
      const field = error instanceof ApiRequestError ? error.field : undefined;
      setServerError({
        text: errorMessage(error, SUBMIT_FAILED),
        field: field === 'rating' || field === 'title' || field === 'content' ? field : null,
      });
      setBusy(false);
    }
  }

  return (
    <form aria-labelledby={`${id}-heading`} noValidate onSubmit={submit} className="space-y-6">
      <h2 id={`${id}-heading`} className="font-serif text-2xl text-sage-900">
        Your review
      </h2>
      {message ? (
        <div id={messageId}>
          <Notice kind="error">{message}</Notice>
        </div>
      ) : null}
      <RatingInput
        text={ratingText}
        onChange={edit(setRatingText)}
        invalid={invalidField === 'rating'}
        describedBy={describedBy('rating')}
        inputRef={fields.rating}
      />
      <div>
        <label htmlFor={`${id}-title`} className="block text-sm font-medium text-stone-800">
          Title
        </label>
        <input
          ref={fields.title}
          id={`${id}-title`}
          type="text"
          value={title}
          onChange={(event) => edit(setTitle)(limited(event.target.value, title, REVIEW_TITLE_MAX))}
          aria-invalid={invalidField === 'title' ? true : undefined}
          aria-describedby={describedBy('title', `${id}-title-count`)}
          className={`${box} ${invalidField === 'title' ? 'border-red-600' : 'border-sage-200 focus:border-sage-500'}`}
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
          rows={7}
          value={content}
          onChange={(event) => edit(setContent)(limited(event.target.value, content, REVIEW_CONTENT_MAX))}
          aria-invalid={invalidField === 'content' ? true : undefined}
          aria-describedby={describedBy('content', `${id}-content-count`)}
          className={`${box} ${invalidField === 'content' ? 'border-red-600' : 'border-sage-200 focus:border-sage-500'}`}
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
      ) : (
        <p className="text-sm text-stone-600">{VERIFIED_HINT}</p>
      )}
      <p className="text-sm text-stone-600">
        Posting as <strong className="font-medium text-stone-800">{username}</strong>
      </p>
      <div className="flex flex-wrap gap-3">
        <button
          type="submit"
          disabled={busy}
          className={`${button} bg-sage-700 text-white hover:bg-sage-800 disabled:bg-stone-300 disabled:text-stone-700`}
        >
          {busy ? 'Submitting…' : 'Submit Review'}
        </button>
        <Link to={cancelHref} className={`${button} border border-sage-300 text-sage-800 hover:bg-sage-50`}>
          Cancel
        </Link>
      </div>
    </form>
  );
}
