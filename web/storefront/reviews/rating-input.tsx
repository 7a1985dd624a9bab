import { type Ref, useId } from 'react';
import { clampRating, REVIEW_RATING_MAX, REVIEW_RATING_MIN } from '#common/review-rules.ts';
import { Stars } from '#web/storefront/catalog/stars.tsx';

/** The rating field's text as a number: empty or not a number is 0, "no rating". */
export function ratingOfText(text: string): number {
  const value = Number(text.trim());
  return text.trim() === '' || !Number.isFinite(value) ? 0 : value;
}

/**
 * The rating of a review, 1.0 to 5.0 in steps of 0.1 (spec section 5): a slider and a number
 * field that follow each other, and the stars, drawn to the nearest half. Until a rating is
 * chosen the slider says so (aria-valuetext) and the stars are empty, so 'Please select a rating'
 * can be the answer. A typed value is clamped when the field is left.
 */
export function RatingInput({
  text,
  onChange,
  invalid,
  describedBy,
  inputRef,
}: {
  /** The number field's text ("" before a rating is chosen). */
  text: string;
  onChange: (text: string) => void;
  invalid: boolean;
  describedBy?: string | undefined;
  inputRef?: Ref<HTMLInputElement>;
}) {
  const id = useId();
  const rating = clampRating(ratingOfText(text));
  const hintId = `${id}-hint`;
  const described = [describedBy, hintId].filter(Boolean).join(' ');
  return (
    <fieldset>
      <legend className="text-sm font-medium text-stone-800">Rating</legend>
      <div className="mt-2 flex flex-wrap items-center gap-x-5 gap-y-3">
        <input
          type="range"
          aria-label="Rating slider"
          min={REVIEW_RATING_MIN}
          max={REVIEW_RATING_MAX}
          step={0.1}
          // Before a choice the thumb rests at the start; the value text says nothing is chosen.
          value={rating || REVIEW_RATING_MIN}
          aria-valuetext={rating ? `${rating.toFixed(1)} out of 5` : 'No rating selected'}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={described}
          onChange={(event) => onChange(Number(event.target.value).toFixed(1))}
          className={`h-2 w-48 cursor-pointer accent-amber-600 ${rating ? '' : 'opacity-60'}`}
        />
        <div className="flex items-center gap-2">
          <label htmlFor={`${id}-value`} className="text-sm text-stone-700">
            Rating value
          </label>
          <input
            ref={inputRef}
            id={`${id}-value`}
            type="number"
            inputMode="decimal"
            min={REVIEW_RATING_MIN}
            max={REVIEW_RATING_MAX}
            step={0.1}
            placeholder="–"
            value={text}
            onChange={(event) => onChange(event.target.value)}
            onBlur={() => {
              // Spec: the rating is clamped to 1.0-5.0 in steps of 0.1.
              const clamped = clampRating(ratingOfText(text));
              if (clamped > 0) onChange(clamped.toFixed(1));
            }}
            aria-invalid={invalid ? true : undefined}
            aria-describedby={described}
            className={`w-20 rounded-lg border bg-white px-3 py-2 text-stone-900 focus:ring-2 focus:ring-sage-200 focus:outline-none ${
              invalid ? 'border-red-600' : 'border-sage-200 focus:border-sage-500'
            }`}
          />
          <span className="text-sm text-stone-600" aria-hidden="true">
            / 5
          </span>
        </div>
        <Stars rating={rating} size="h-6" />
      </div>
      <p id={hintId} className="mt-2 text-xs text-stone-600">
        From 1.0 to 5.0 in steps of 0.1; the stars show the nearest half.
      </p>
    </fieldset>
  );
}
