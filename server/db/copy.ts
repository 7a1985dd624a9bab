import type { PGlite } from '@electric-sql/pglite';

/** A value COPY's text format can carry: text, a boolean, a number, or NULL. */
export type CopyValue = string | number | boolean | null;

// In COPY's text format a backslash starts an escape, and tab and line breaks separate fields and rows.
const SPECIAL = /[\\\t\n\r]/g;
const NEEDS_ESCAPE = /[\\\t\n\r]/;
const ESCAPES: Record<string, string> = { '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };

/** One field in COPY's text format (PostgreSQL's documented escapes; NULL is \N). */
export function copyField(value: CopyValue): string {
  if (value === null) return '\\N';
  if (typeof value === 'boolean') return value ? 't' : 'f';
  if (typeof value === 'number') return String(value);
  // Most values need no escape: testing first costs less than a replace that finds nothing.
  return NEEDS_ESCAPE.test(value) ? value.replace(SPECIAL, (character) => ESCAPES[character] as string) : value;
}

/**
 * Appends rows to a table of the embedded database with COPY … FROM a blob held in memory: one
 * statement however many rows, without building a parameter per value, and about a third cheaper
 * per row in PGlite than an INSERT … SELECT of the same rows (docs/performance.md). `table` and
 * `columns` are the code's own names, never input.
 */
export async function copyRows<Column extends string>(
  pglite: PGlite,
  table: string,
  columns: readonly Column[],
  rows: readonly Record<Column, CopyValue>[],
): Promise<void> {
  if (rows.length === 0) return;
  let text = '';
  for (const row of rows) {
    columns.forEach((column, index) => {
      text += index === 0 ? copyField(row[column]) : `\t${copyField(row[column])}`;
    });
    text += '\n';
  }
  const names = columns.map((column) => `"${column}"`).join(', ');
  await pglite.query(`COPY "${table}" (${names}) FROM '/dev/blob'`, [], { blob: new Blob([text]) });
}
