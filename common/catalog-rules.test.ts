import { describe, expect, test } from 'vitest';
import {
  availableVariants,
  bestSellerRank,
  countdown,
  featureTag,
  featureTags,
  flashSalePercent,
  initialVariantIndex,
  needsVariantChoice,
  ratingBucket,
  starsFor,
  stockStatus,
  summarize,
} from './catalog-rules.ts';

const v = (stock: number, isActive = true) => ({ stock, isActive });

describe('catalogue rules', () => {
  test('best-seller rank is min(10, ceil(score / 5))', () => {
    expect([1, 5, 6, 10, 11, 49, 50, 51, 400].map(bestSellerRank)).toEqual([1, 1, 2, 2, 3, 10, 10, 10, 10]);
  });

  test('features are cut at 12 characters followed by ...', () => {
    expect(featureTag('Whisper-quiet pump')).toBe('Whisper-quie...');
    expect(featureTag('LED light')).toBe('LED light');
    expect(featureTag('Exactly12chr')).toBe('Exactly12chr');
    expect(featureTags(['Warm white LED glow', 'USB', 'a', 'b'])).toEqual({
      tags: ['Warm white L...', 'USB'],
      more: 2,
    });
    expect(featureTags(['one'])).toEqual({ tags: ['one'], more: 0 });
  });

  test('stock status: above 10 in stock, 1-10 low, 0 or less out', () => {
    expect(stockStatus(11)).toEqual({ level: 'in', text: 'In stock' });
    expect(stockStatus(10)).toEqual({ level: 'low', text: 'Only 10 left in stock' });
    expect(stockStatus(1)).toEqual({ level: 'low', text: 'Only 1 left in stock' });
    expect(stockStatus(0)).toEqual({ level: 'out', text: 'Out of stock' });
    expect(stockStatus(-3)).toEqual({ level: 'out', text: 'Out of stock' });
  });

  test('a variant choice is needed only with more than one active in-stock variant', () => {
    expect(needsVariantChoice([v(5), v(3)])).toBe(true);
    expect(needsVariantChoice([v(5), v(0), v(3, false)])).toBe(false);
    expect(availableVariants([v(5), v(0), v(3, false), v(1)])).toHaveLength(2);
  });

  test('the first active in-stock variant is preselected', () => {
    expect(initialVariantIndex([v(0), v(4, false), v(2), v(9)])).toBe(2);
    expect(initialVariantIndex([v(0, false), v(0)])).toBe(1);
    expect(initialVariantIndex([v(1, false)])).toBe(-1);
  });

  test('flash sale percent and countdown', () => {
    expect(flashSalePercent(12998, 7799)).toBe(40);
    expect(flashSalePercent(0, 0)).toBe(0);
    const now = Date.UTC(2026, 0, 1);
    expect(countdown(now + ((2 * 24 + 3) * 3600 + 4 * 60 + 5) * 1000, now)).toEqual({
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
    expect(countdown(now + 59_000, now)).toEqual({ days: 0, hours: 0, minutes: 0, seconds: 59 });
    expect(countdown(now, now)).toBeNull();
    expect(countdown(now - 1, now)).toBeNull();
  });

  test('stars round to the nearest half; buckets to the nearest star', () => {
    expect([4.2, 4.3, 4.74, 4.75, 0.2, 6].map(starsFor)).toEqual([4, 4.5, 4.5, 5, 0, 5]);
    expect([1, 1.4, 1.5, 3.5, 4.4, 5].map(ratingBucket)).toEqual([1, 1, 2, 4, 4, 5]);
  });
});

test('a summary is the first paragraph, cut at a word', () => {
  expect(summarize('Short text.\n\nSecond paragraph.')).toBe('Short text.');
  const long = 'word '.repeat(60).trim();
  const cut = summarize(long, 50);
  expect(cut.length).toBeLessThanOrEqual(50);
  expect(cut).toMatch(/word…$/);
  expect(summarize('')).toBe('');
});
