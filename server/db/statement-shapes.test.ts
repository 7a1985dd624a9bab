import { expect, test } from 'vitest';
import { statementPerShape } from './statement-shapes.ts';

test('a statement is built once per shape, and named by its shape', () => {
  const built: string[] = [];
  const statementOf = statementPerShape('list', (shape: { sort: string; searched: boolean }, name) => {
    built.push(name);
    return { name, shape };
  });
  const first = statementOf({ sort: 'date', searched: true });
  expect(statementOf({ sort: 'date', searched: true })).toBe(first);
  expect(statementOf({ sort: 'date', searched: false })).not.toBe(first);
  // The values in the order of their names: searched, then sort.
  expect(built).toEqual(['list:1.date', 'list:0.date']);
});
