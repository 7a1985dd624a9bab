import { useId, useState } from 'react';
import type { RatingSummary } from '#common/contracts/reviews.ts';
import { type ReviewSort, type ReviewSortValue, reviewSortOptions } from './review-view.ts';

const STARS = [5, 4, 3, 2, 1] as const;

const starLabel = (star: number) => `${star} ${star === 1 ? 'star' : 'stars'}`;

/**
 * A control's value as the shopper just set it. The URL holds the truth, but React Router renders
 * a navigation in a transition, so a controlled checkbox or select would spring back to the old
 * value until the new data arrives; the choice is shown at once and follows the URL after.
 */
function useChosen<T>(value: T, key: string): [T, (next: T) => void] {
  const [chosen, setChosen] = useState({ key, value });
  if (chosen.key !== key) {
    setChosen({ key, value });
    return [value, (next) => setChosen({ key, value: next })];
  }
  return [chosen.value, (next) => setChosen({ key, value: next })];
}

/**
 * The star breakdown as a filter (spec: "star-bar filter"): each row shows how many reviews count
 * in that star, and pressing it shows only those; pressing the row in use shows every star again.
 */
export function StarBarFilter({
  summary,
  ratings,
  onChange,
}: {
  summary: RatingSummary;
  ratings: number[];
  onChange: (ratings: number[]) => void;
}) {
  return (
    <ul className="space-y-1">
      {STARS.map((star) => {
        const n = summary.ratingBreakdown[star];
        const share = summary.totalReviews ? Math.round((n / summary.totalReviews) * 100) : 0;
        const only = ratings.length === 1 && ratings[0] === star;
        return (
          <li key={star}>
            <button
              type="button"
              aria-pressed={only}
              onClick={() => onChange(only ? [] : [star])}
              className={`flex w-full items-center gap-3 rounded-lg px-2 py-1.5 text-left text-sm text-stone-700 hover:bg-sage-50 ${
                only ? 'bg-sage-50 font-semibold text-sage-900 ring-1 ring-sage-300' : ''
              }`}
            >
              <span className="w-14 shrink-0">
                {starLabel(star)}
                <span className="sr-only">: </span>
              </span>
              <span aria-hidden="true" className="h-2.5 flex-1 overflow-hidden rounded-full bg-stone-200">
                <span className="block h-full rounded-full bg-amber-500" style={{ width: `${share}%` }} />
              </span>
              {/* Read as "5 stars: 52 reviews (74%)" (Chrome adds a space before the colon). */}
              <span className="w-20 shrink-0 text-right tabular-nums">
                {n}
                <span className="sr-only"> {n === 1 ? 'review' : 'reviews'}</span>{' '}
                <span className="text-stone-600">({share}%)</span>
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** The rating multi-select: a checkbox per star; none checked shows every star. */
export function RatingFilter({
  ratings: given,
  onChange,
}: {
  ratings: number[];
  onChange: (ratings: number[]) => void;
}) {
  const [ratings, setRatings] = useChosen(given, given.join(','));
  const choose = (next: number[]) => {
    setRatings(next);
    onChange(next);
  };
  return (
    <fieldset>
      <legend className="text-sm font-medium text-stone-800">Filter by rating</legend>
      <div className="mt-2 flex flex-wrap gap-2">
        {STARS.map((star) => {
          const checked = ratings.includes(star);
          return (
            <label
              key={star}
              className={`flex cursor-pointer items-center gap-2 rounded-full border px-3 py-1.5 text-sm has-focus-visible:ring-2 has-focus-visible:ring-sage-400 ${
                checked ? 'border-sage-600 bg-sage-50 text-sage-900' : 'border-sage-200 bg-white text-stone-700'
              }`}
            >
              <input
                type="checkbox"
                checked={checked}
                onChange={() => choose(checked ? ratings.filter((r) => r !== star) : [...ratings, star])}
                className="h-4 w-4 accent-sage-700"
              />
              {starLabel(star)}
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/** The sort dropdown: newest, oldest, highest, lowest, most helpful (each a sortBy and an order). */
export function ReviewSortSelect({ sort, onChange }: { sort: ReviewSort; onChange: (value: ReviewSortValue) => void }) {
  const id = useId();
  const [value, setValue] = useChosen<ReviewSortValue>(sort.value, sort.value);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        Sort by
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const next = event.target.value as ReviewSortValue;
          setValue(next);
          onChange(next);
        }}
        className="mt-2 rounded-lg border border-sage-200 bg-white px-3 py-2 text-sm focus:border-sage-500 focus:ring-2 focus:ring-sage-200 focus:outline-none"
      >
        {reviewSortOptions.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
