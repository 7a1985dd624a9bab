import { useId, useRef, useState } from 'react';
import { Link } from 'react-router';
import { REVIEW_CONTENT_MAX, REVIEW_TITLE_MAX } from '#common/constants.ts';
import {
  characterCount,
  clampRating,
  type ReviewDraft,
  type ReviewProblem,
  reviewProblem,
} from '#common/review-rules.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { Notice } from '#web/common/form-fields.tsx';
import { Stars } from '#web/storefront/catalog/stars.tsx';
import { RatingInput, ratingOfText } from './rating-input.tsx';

type Field = ReviewProblem['field'];

export const VERIFIED_HINT = 'The Verified Purchase mark is for shoppers who ordered this product.';

/** A review as sent: the rating clamped, the texts trimmed (spec sections 5 and 8). */
export type ReviewSubmission = ReviewDraft & { verified: boolean };

/**
 * The state of a review being written or edited: the fields, the problem the shared rules find
 * (in the spec's order, shown only after a first attempt and then following the edits) and the
 * server's refusal, which the next edit clears.
 */
export function useReviewDraft(initial: { ratingText: string; title: string; content: string; verified: boolean }) {
  const [ratingText, setRatingText] = useState(initial.ratingText);
  const [title, setTitle] = useState(initial.title);
  const [content, setContent] = useState(initial.content);
  const [verified, setVerified] = useState(initial.verified);
  const [attempted, setAttempted] = useState(false);
  const [serverError, setServerError] = useState<{ text: string; field: Field | null } | null>(null);
  const [busy, setBusy] = useState(false);
  const refs = {
    rating: useRef<HTMLInputElement>(null),
    title: useRef<HTMLInputElement>(null),
    content: useRef<HTMLTextAreaElement>(null),
  };

  const rating = ratingOfText(ratingText);
  const problem = attempted ? reviewProblem({ rating, title, content }) : null;
  const edit =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setServerError(null);
    };

  /**
   * The form's submit handler: checks the draft (the first problem's field focused), else sends it
   * with `send`. A refusal shows the server's sentence, else `failed`. After a success the form
   * stays busy when `stayBusy` (the page moves on), else it is ready again.
   */
  const submit =
    (send: (review: ReviewSubmission) => Promise<void>, { failed, stayBusy }: { failed: string; stayBusy: boolean }) =>
    async (event: React.FormEvent) => {
      event.preventDefault();
      if (busy) return;
      setAttempted(true);
      setServerError(null);
      const found = reviewProblem({ rating, title, content });
      if (found) {
        refs[found.field].current?.focus();
        return;
      }
      setBusy(true);
      try {
        await send({ rating: clampRating(rating), title: title.trim(), content: content.trim(), verified });
        if (!stayBusy) setBusy(false);
      } catch (error) {
        const field = error instanceof ApiRequestError ? error.field : undefined;
        setServerError({
          text: errorMessage(error, failed),
          field: field === 'rating' || field === 'title' || field === 'content' ? field : null,
        });
        setBusy(false);
      }
    };

  return {
    ratingText,
    rating,
    setRatingText: edit(setRatingText),
    title,
    setTitle: edit(setTitle),
    content,
    setContent: edit(setContent),
    verified,
    setVerified: edit(setVerified),
    busy,
    refs,
    message: problem?.message ?? serverError?.text ?? null,
    invalidField: problem?.field ?? serverError?.field ?? null,
    /** The rating text clamped to 1.0-5.0 in steps of 0.1 (spec), as the field is left. */
    clampRatingText: () => {
      const clamped = clampRating(rating);
      if (clamped > 0) setRatingText(clamped.toFixed(1));
    },
    submit,
  };
}

export type ReviewDraftState = ReturnType<typeof useReviewDraft>;

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

/**
 * The live counter under a text field: "n/max". On the write page the texts stop at the limit, so
 * it turns amber there; in the editor they may go past it, and it turns red.
 */
function Counter({ id, count, max, capped }: { id: string; count: number; max: number; capped: boolean }) {
  const colour = capped
    ? `tabular-nums ${count >= max ? 'font-medium text-amber-800' : 'text-stone-600'}`
    : count > max
      ? 'font-medium text-red-700'
      : 'text-stone-600';
  return (
    <p id={id} className={`mt-1 text-right text-xs ${colour}`}>
      {count}/{max}
      <span className="sr-only"> characters</span>
    </p>
  );
}

const box = 'rounded-lg border bg-white px-3 py-2.5 text-stone-900 focus:ring-2 focus:ring-sage-200 focus:outline-none';
const border = (invalid: boolean) => (invalid ? 'border-red-600' : 'border-sage-200 focus:border-sage-500');

/** The editor's rating: one number field, 1.0 to 5.0 in steps of 0.1, clamped when left, with its stars. */
function RatingNumber({
  draft,
  invalid,
  describedBy,
}: {
  draft: ReviewDraftState;
  invalid: boolean;
  describedBy: string | undefined;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        Rating (1.0 to 5.0)
      </label>
      <div className="mt-1 flex items-center gap-3">
        <input
          ref={draft.refs.rating}
          id={id}
          type="number"
          inputMode="decimal"
          min={1}
          max={5}
          step={0.1}
          value={draft.ratingText}
          onChange={(event) => draft.setRatingText(event.target.value)}
          onBlur={draft.clampRatingText}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={describedBy}
          className={`${box} w-28 ${border(invalid)}`}
        />
        <Stars rating={clampRating(draft.rating)} size="h-5" />
      </div>
    </div>
  );
}

const texts = {
  title: { label: 'Title', max: REVIEW_TITLE_MAX },
  content: { label: 'Review', max: REVIEW_CONTENT_MAX },
} as const;

/**
 * The title or the content: its label, the field (the content's a text area) and its live counter.
 * `capped`: the text stops at the limit.
 */
function TextField({
  draft,
  field,
  rows,
  capped,
  describedBy,
}: {
  draft: ReviewDraftState;
  field: 'title' | 'content';
  rows?: number;
  capped: boolean;
  describedBy: (field: Field, counter: string) => string | undefined;
}) {
  const id = useId();
  const { label, max } = texts[field];
  const value = draft[field];
  const set = field === 'title' ? draft.setTitle : draft.setContent;
  const invalid = draft.invalidField === field;
  const attributes = {
    id,
    value,
    onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => {
      const next = capped ? limited(event.target.value, value, max) : event.target.value;
      // Typing at the limit leaves the state as it was, and a renderer need not render the field
      // again (the browser build's Preact does not): the field itself is given back what was kept.
      if (next !== event.target.value) event.target.value = next;
      set(next);
    },
    'aria-invalid': invalid ? true : undefined,
    'aria-describedby': describedBy(field, `${id}-count`),
    className: `mt-1 block w-full ${box} ${border(invalid)}`,
  };
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      {field === 'content' ? (
        <textarea ref={draft.refs.content} rows={rows} {...attributes} />
      ) : (
        <input ref={draft.refs.title} type="text" {...attributes} />
      )}
      <Counter id={`${id}-count`} count={characterCount(value)} max={max} capped={capped} />
    </div>
  );
}

/**
 * The form's buttons: submit (saying so while the review is sent) and cancel, a link away or a
 * button. `compact`: the smaller buttons of the editor.
 */
export function ReviewActions({
  busy,
  label,
  busyLabel,
  cancel,
  compact,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  cancel: { href: string } | { onClick: () => void };
  compact: boolean;
}) {
  const button = `rounded-full text-sm font-medium ${compact ? 'px-5 py-2' : 'px-6 py-2.5'}`;
  const secondary = `${button} border border-sage-300 text-sage-800 hover:bg-sage-50`;
  return (
    <div className="flex flex-wrap gap-3">
      <button
        type="submit"
        disabled={busy}
        className={`${button} bg-sage-700 text-white hover:bg-sage-800 disabled:bg-stone-300 disabled:text-stone-700`}
      >
        {busy ? busyLabel : label}
      </button>
      {'href' in cancel ? (
        <Link to={cancel.href} className={secondary}>
          Cancel
        </Link>
      ) : (
        <button type="button" onClick={cancel.onClick} className={secondary}>
          Cancel
        </button>
      )}
    </div>
  );
}

/**
 * The fields of a review (spec sections 5 and 8), shared by the write page and the My Reviews
 * editor: the message of the first problem above them (tied to the field in question), the
 * rating, title and content with live counters, and the Verified Purchase box when the purchased
 * check said yes (a hint when it said no, nothing while it is asked). The write page (`page`) has
 * the rating slider and texts that stop at their limit; the editor (`inline`) a rating number
 * field and texts that may go past it, which the message then names.
 */
export function ReviewFields({
  draft,
  purchased,
  variant,
}: {
  draft: ReviewDraftState;
  /** Whether the purchased check allows the Verified Purchase box (null while asking). */
  purchased: boolean | null;
  variant: 'page' | 'inline';
}) {
  const id = useId();
  const page = variant === 'page';
  const { message, invalidField } = draft;
  const messageId = `${id}-message`;
  const describedBy = (field: Field, counter?: string) =>
    [invalidField === field ? messageId : null, counter].filter(Boolean).join(' ') || undefined;

  return (
    <>
      {message ? (
        <div id={messageId}>
          <Notice kind="error">{message}</Notice>
        </div>
      ) : null}
      {page ? (
        <RatingInput
          text={draft.ratingText}
          onChange={draft.setRatingText}
          invalid={invalidField === 'rating'}
          describedBy={describedBy('rating')}
          inputRef={draft.refs.rating}
        />
      ) : (
        <RatingNumber draft={draft} invalid={invalidField === 'rating'} describedBy={describedBy('rating')} />
      )}
      <TextField draft={draft} field="title" capped={page} describedBy={describedBy} />
      <TextField draft={draft} field="content" rows={page ? 7 : 5} capped={page} describedBy={describedBy} />
      {purchased ? (
        <label className="flex items-center gap-2 text-sm text-stone-800">
          <input
            type="checkbox"
            checked={draft.verified}
            onChange={(event) => draft.setVerified(event.target.checked)}
            className="h-4 w-4 rounded border-sage-300 accent-sage-700"
          />
          Verified Purchase
        </label>
      ) : purchased === false ? (
        <p className={`${page ? 'text-sm' : 'text-xs'} text-stone-600`}>{VERIFIED_HINT}</p>
      ) : null}
    </>
  );
}
