import { expect, test } from 'vitest';
import { searchTarget } from './search.ts';

test('a trimmed non-empty term goes to the listing search', () => {
  expect(searchTarget('  led fountain ')).toBe('/products?search=led%20fountain');
  expect(searchTarget('oils & candles')).toBe('/products?search=oils%20%26%20candles');
});

test('an empty or blank term is ignored', () => {
  expect(searchTarget('')).toBeNull();
  expect(searchTarget('   \t ')).toBeNull();
});
