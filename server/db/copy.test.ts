import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copyField, copyRows } from './copy.ts';

let pglite: PGlite;

beforeAll(async () => {
  pglite = await PGlite.create();
  await pglite.exec('CREATE TABLE copied (id serial PRIMARY KEY, "text" text, "flag" boolean, "count" integer)');
});

afterAll(async () => {
  await pglite.close();
});

test('fields are written in COPY text format', () => {
  expect(copyField(null)).toBe('\\N');
  expect(copyField(true)).toBe('t');
  expect(copyField(false)).toBe('f');
  expect(copyField(42)).toBe('42');
  expect(copyField('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
});

test('every value comes back as it was written: separators, escapes, the NULL marker as text, empty text', async () => {
  const texts = [
    'plain',
    '',
    '\\N',
    'tab\there',
    'line\nbreak',
    'carriage\rreturn',
    'back\\slash',
    '\\.',
    'ünïcödé 🌊',
    'quote \' and " and , and ;',
    null,
  ];
  const rows = texts.map((text, index) => ({ text, flag: index % 2 === 0, count: index }));
  await copyRows(pglite, 'copied', ['text', 'flag', 'count'], rows);
  const { rows: stored } = await pglite.query<{ text: string | null; flag: boolean; count: number }>(
    'SELECT "text", "flag", "count" FROM copied ORDER BY "count"',
  );
  expect(stored).toEqual(rows);
});

test('no rows writes nothing', async () => {
  const before = await pglite.query<{ n: number }>('SELECT count(*)::int AS n FROM copied');
  await copyRows(pglite, 'copied', ['text'], []);
  expect(await pglite.query('SELECT count(*)::int AS n FROM copied')).toMatchObject({ rows: before.rows });
});
