import { expect, test } from 'vitest';
import { findUnsafeString, parseQueryString } from './input-guard.ts';

test('finds the first string with a NUL, a replacement character or a lone surrogate, by its path', () => {
  expect(findUnsafeString({ email: 'a@example.com', password: 'fine' })).toBeNull();
  expect(findUnsafeString('x\u0000')).toBe('');
  expect(findUnsafeString({ email: 'a\u0000' })).toBe('email');
  expect(findUnsafeString({ items: [{ id: 'ok' }, { id: 'bad\uFFFD' }] })).toBe('items.1.id');
  expect(findUnsafeString({ text: 'half \ud83d of an emoji' })).toBe('text');
  expect(findUnsafeString({ 'key\u0000': 'value' })).toBe('key\u0000');
  expect(findUnsafeString({ text: 'a whole 🌊 emoji and 日本語' })).toBeNull();
  expect(findUnsafeString([1, null, true, { n: 2 }])).toBeNull();
});

test('the query parser decodes as browsers do and keeps repeated names', () => {
  expect(parseQueryString('search=led+fountain&a=%E6%97%A5')).toEqual({ search: 'led fountain', a: '日' });
  expect(parseQueryString('x=1&x=2&x=3')).toEqual({ x: ['1', '2', '3'] });
  expect(parseQueryString('category=%FF%FE').category).toBe('\uFFFD\uFFFD');
  expect(findUnsafeString(parseQueryString('category=%C0%AE'))).toBe('category');
  expect(Object.getPrototypeOf(parseQueryString('__proto__=x'))).toBeNull();
});
