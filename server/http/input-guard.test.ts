import { expect, test } from 'vitest';
import { findUnsafeString } from './input-guard.ts';

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
