import { useEffect, useId, useState } from 'react';
import { CATEGORY_NAME_MAX, PRODUCT_LIST_ITEM_MAX, PRODUCT_LIST_MAX } from '#common/product-rules.ts';
import { input, label as labelStyle, secondaryButton, smallButton } from '../ui/styles.ts';
import { canAddCategory, withCategory, withoutRow, withRow } from './product-form.ts';

/**
 * Categories (spec 2): pick from the existing ones, remove a chosen one, or add a new one by
 * name (Enter works; Add New is disabled when blank or already chosen).
 */
export function CategoryPicker({
  selected,
  choices,
  onChange,
}: {
  selected: string[];
  choices: readonly string[];
  onChange: (categories: string[]) => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  // A choice is added by its button: a select that acted on change would add every category a
  // keyboard user arrows past.
  const [pick, setPick] = useState('');
  const chosen = new Set(selected.map((category) => category.toLowerCase()));
  const open = choices.filter((choice) => !chosen.has(choice.toLowerCase()));
  const canAdd = canAddCategory(selected, name);
  const addNew = () => {
    if (!canAdd) return;
    onChange(withCategory(selected, name));
    setName('');
  };
  return (
    <fieldset className="rounded-xl border border-sage-100 p-3">
      <legend className="px-1 text-sm font-medium text-stone-800">Categories</legend>
      {selected.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Chosen categories">
          {selected.map((category) => (
            <li
              key={category}
              className="inline-flex items-center gap-1 rounded-full bg-sage-50 py-0.5 pr-1 pl-3 text-sm text-sage-900"
            >
              {category}
              <button
                type="button"
                onClick={() => onChange(selected.filter((c) => c !== category))}
                aria-label={`Remove category ${category}`}
                className="rounded-full px-1.5 text-stone-700 hover:bg-sage-100 hover:text-stone-900"
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-stone-600">No category chosen.</p>
      )}
      <div className="mt-3 grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-pick`} className={labelStyle}>
            Add an existing category
          </label>
          <div className="mt-1 flex gap-2">
            <select
              id={`${id}-pick`}
              value={open.includes(pick) ? pick : ''}
              onChange={(event) => setPick(event.target.value)}
              className={input}
            >
              <option value="">{open.length === 0 ? 'No other category' : 'Choose a category'}</option>
              {open.map((choice) => (
                <option key={choice} value={choice}>
                  {choice}
                </option>
              ))}
            </select>
            <button
              type="button"
              className={secondaryButton}
              disabled={!open.includes(pick)}
              onClick={() => {
                onChange(withCategory(selected, pick));
                setPick('');
              }}
            >
              Add Category
            </button>
          </div>
        </div>
        <div>
          <label htmlFor={`${id}-new`} className={labelStyle}>
            New category
          </label>
          <div className="mt-1 flex gap-2">
            <input
              id={`${id}-new`}
              value={name}
              maxLength={CATEGORY_NAME_MAX}
              onChange={(event) => setName(event.target.value)}
              onKeyDown={(event) => {
                if (event.key !== 'Enter') return;
                event.preventDefault();
                addNew();
              }}
              className={input}
            />
            <button type="button" className={secondaryButton} disabled={!canAdd} onClick={addNew}>
              Add New
            </button>
          </div>
        </div>
      </div>
    </fieldset>
  );
}

/** Tags or features (spec 2 and 5): one input per row, Remove only with more than one row. */
export function DynamicList({
  legend,
  noun,
  rows,
  onChange,
}: {
  legend: string;
  /** 'Tag' or 'Feature': each row's label is '{noun} {n}'. */
  noun: string;
  rows: string[];
  onChange: (rows: string[]) => void;
}) {
  const id = useId();
  // After Add or Remove, the focus goes to the new row or to the row that took the removed one's place.
  const [focusRow, setFocusRow] = useState<number | null>(null);
  useEffect(() => {
    if (focusRow === null) return;
    document.getElementById(`${id}-${focusRow}`)?.focus();
    setFocusRow(null);
  }, [focusRow, id]);
  return (
    <fieldset className="rounded-xl border border-sage-100 p-3">
      <legend className="px-1 text-sm font-medium text-stone-800">{legend}</legend>
      <ol className="grid gap-2">
        {rows.map((row, index) => (
          // Rows have no identity but their place; removing one re-labels the rest.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index} className="flex items-center gap-2">
            <label htmlFor={`${id}-${index}`} className="sr-only">
              {noun} {index + 1}
            </label>
            <input
              id={`${id}-${index}`}
              value={row}
              maxLength={PRODUCT_LIST_ITEM_MAX}
              onChange={(event) => onChange(withRow(rows, index, event.target.value))}
              className={input}
            />
            {rows.length > 1 ? (
              <button
                type="button"
                className={smallButton}
                onClick={() => {
                  onChange(withoutRow(rows, index));
                  setFocusRow(Math.min(index, rows.length - 2));
                }}
                aria-label={`Remove ${noun.toLowerCase()} ${index + 1}`}
              >
                Remove
              </button>
            ) : null}
          </li>
        ))}
      </ol>
      <button
        type="button"
        className={`mt-2 ${smallButton}`}
        disabled={rows.length >= PRODUCT_LIST_MAX}
        onClick={() => {
          onChange([...rows, '']);
          setFocusRow(rows.length);
        }}
      >
        Add {noun.toLowerCase()}
      </button>
    </fieldset>
  );
}
