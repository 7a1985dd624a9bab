import { useEffect, useId, useState } from 'react';
import { VALIDATION_DEBOUNCE_MS } from '#common/constants.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { nextSort, type Sort } from './list-state.ts';
import { input, label as labelStyle, secondaryButton } from './styles.ts';

/** A list's search box: the list reloads from page 1 shortly after typing stops. */
export function SearchField({
  label,
  value,
  onSearch,
}: {
  label: string;
  value: string;
  onSearch: (value: string) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => {
    if (text === value) return;
    const timer = setTimeout(() => onSearch(text.trim()), VALIDATION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, onSearch]);
  return (
    <div className="min-w-56 flex-1">
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.target.value)}
        className={`mt-1 ${input}`}
      />
    </div>
  );
}

/** A labelled select of a list's filters or sort field. */
export function SelectField<Value extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: Value;
  options: readonly { value: Value; label: string }[];
  onChange: (value: Value) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value as Value)}
        className={`mt-1 ${input}`}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The sort select and the order toggle beside it (spec 2: the users tab's order toggle): a new
 * field keeps the order, the toggle flips it (list-state's nextSort).
 */
export function SortControls<Field extends string>({
  sort,
  options,
  onChange,
}: {
  sort: Sort<Field>;
  options: readonly { value: Field; label: string }[];
  onChange: React.Dispatch<React.SetStateAction<Sort<Field>>>;
}) {
  return (
    <>
      <SelectField
        label="Sort by"
        value={sort.sortBy}
        options={options}
        onChange={(sortBy) => onChange((current) => ({ ...current, sortBy }))}
      />
      <button
        type="button"
        className={`${secondaryButton} self-end`}
        onClick={() => onChange((current) => nextSort(current, current.sortBy))}
      >
        {sort.sortOrder === 'asc' ? 'Ascending ↑' : 'Descending ↓'}
      </button>
    </>
  );
}

/** A column header that sorts: clicking it flips or starts the sort (list-state's nextSort). */
export function SortHeader<Field extends string>({
  field,
  sort,
  onSort,
  children,
}: {
  field: Field;
  sort: Sort<Field>;
  onSort: (field: Field) => void;
  children: React.ReactNode;
}) {
  const active = sort.sortBy === field;
  return (
    <th
      scope="col"
      aria-sort={active ? (sort.sortOrder === 'asc' ? 'ascending' : 'descending') : 'none'}
      className="px-4 py-3 text-left font-medium"
    >
      <button type="button" onClick={() => onSort(field)} className="inline-flex items-center gap-1 hover:underline">
        {children}
        <span aria-hidden="true">{active ? (sort.sortOrder === 'asc' ? '↑' : '↓') : '↕'}</span>
      </button>
    </th>
  );
}

/** Below a list: how many rows are shown of how many, and Load More while there is more. */
export function ListFooter({
  list,
}: {
  list: {
    rows: readonly unknown[];
    total: number;
    capped: boolean;
    hasMore: boolean;
    isLoadingMore: boolean;
    loadMore: () => void;
  };
}) {
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-stone-600">
      <p>
        Showing {list.rows.length} of {list.capped ? `${list.total}+` : list.total}
      </p>
      {list.hasMore ? (
        <button type="button" className={secondaryButton} onClick={list.loadMore} disabled={list.isLoadingMore}>
          {list.isLoadingMore ? 'Loading…' : 'Load More'}
        </button>
      ) : null}
    </div>
  );
}

/** Column headers that do not sort. */
export function PlainHeaders({ names }: { names: readonly string[] }) {
  return names.map((name) => (
    <th key={name} scope="col" className="px-4 py-3 text-left font-medium">
      {name}
    </th>
  ));
}

/**
 * An admin table with its caption and headers; while loading, after a failure or when empty,
 * one row says so instead of the rows.
 */
export function AdminTable({
  caption,
  headers,
  columns,
  status,
  children,
}: {
  caption: string;
  headers: React.ReactNode;
  columns: number;
  /** What to say instead of the rows, or null to show them. */
  status: string | null;
  children: React.ReactNode;
}) {
  return (
    <div className={tableStyles.wrapper}>
      <table className={tableStyles.table}>
        <caption className="sr-only">{caption}</caption>
        <thead className={tableStyles.head}>
          <tr>{headers}</tr>
        </thead>
        <tbody className="divide-y divide-sage-100">
          {status === null ? (
            children
          ) : (
            <tr>
              <td colSpan={columns} className="px-4 py-8 text-center text-stone-600">
                {status}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** What a list's table says instead of its rows: loading, the failure, or nothing found; null to show them. */
export function listStatus(
  list: { isLoading: boolean; error: unknown; rows: readonly unknown[] },
  texts: { loading: string; failed: string; empty: string },
): string | null {
  if (list.isLoading) return texts.loading;
  if (list.error) return errorMessage(list.error, texts.failed);
  if (list.rows.length === 0) return texts.empty;
  return null;
}

export const tableStyles = {
  wrapper: 'overflow-x-auto rounded-xl border border-sage-100 bg-white',
  table: 'min-w-full divide-y divide-sage-100 text-sm',
  head: 'bg-sage-50 text-stone-700',
  cell: 'px-4 py-3 align-top',
};
