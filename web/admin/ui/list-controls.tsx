import { useEffect, useId, useState } from 'react';
import { VALIDATION_DEBOUNCE_MS } from '#common/constants.ts';
import type { Sort } from './list-state.ts';
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

/** The order toggle beside a sort select (spec 2: the users tab's order toggle). */
export function OrderToggle({ order, onToggle }: { order: 'asc' | 'desc'; onToggle: () => void }) {
  return (
    <button type="button" className={`${secondaryButton} self-end`} onClick={onToggle}>
      {order === 'asc' ? 'Ascending ↑' : 'Descending ↓'}
    </button>
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

/** Below a list: Load More while there is more, and how many rows are shown of how many. */
export function ListFooter({
  shown,
  total,
  hasMore,
  loading,
  onLoadMore,
}: {
  shown: number;
  total: number;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
}) {
  return (
    <div className="mt-4 flex flex-wrap items-center justify-between gap-3 text-sm text-stone-600">
      <p>
        Showing {shown} of {total}
      </p>
      {hasMore ? (
        <button type="button" className={secondaryButton} onClick={onLoadMore} disabled={loading}>
          {loading ? 'Loading…' : 'Load More'}
        </button>
      ) : null}
    </div>
  );
}

/** A table's one row when it has no rows to show: loading, the error, or nothing found. */
export function EmptyRow({ columns, children }: { columns: number; children: React.ReactNode }) {
  return (
    <tr>
      <td colSpan={columns} className="px-4 py-8 text-center text-stone-600">
        {children}
      </td>
    </tr>
  );
}

export const tableStyles = {
  wrapper: 'overflow-x-auto rounded-xl border border-sage-100 bg-white',
  table: 'min-w-full divide-y divide-sage-100 text-sm',
  head: 'bg-sage-50 text-stone-700',
  cell: 'px-4 py-3 align-top',
};
