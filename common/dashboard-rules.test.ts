import { describe, expect, test } from 'vitest';
import {
  averageSessionMinutes,
  bounceRate,
  bucketStart,
  bucketStarts,
  conversionRate,
  dashboardRanges,
  profitMargin,
  rangeStart,
  seriesGranularity,
} from './dashboard-rules.ts';

const at = (iso: string) => new Date(iso);
const now = at('2026-03-18T15:42:10.123Z'); // a Wednesday

describe('the dashboard ranges (spec 9)', () => {
  test('are the spec’s, in its order', () => {
    expect(dashboardRanges).toEqual(['24h', '7d', '30d', '90d', '1y', 'all']);
  });

  test('24h is the last 24 hours to the millisecond; the others are whole UTC days, today included', () => {
    expect(rangeStart('24h', now)).toEqual(at('2026-03-17T15:42:10.123Z'));
    expect(rangeStart('7d', now)).toEqual(at('2026-03-12T00:00:00.000Z'));
    expect(rangeStart('30d', now)).toEqual(at('2026-02-17T00:00:00.000Z'));
    expect(rangeStart('90d', now)).toEqual(at('2025-12-19T00:00:00.000Z'));
    expect(rangeStart('1y', now)).toEqual(at('2025-03-19T00:00:00.000Z'));
    expect(rangeStart('all', now)).toBeNull();
  });

  test('just after midnight a whole-day range still starts on a whole day', () => {
    expect(rangeStart('7d', at('2026-03-18T00:00:00.001Z'))).toEqual(at('2026-03-12T00:00:00.000Z'));
  });
});

describe('the series buckets', () => {
  test('24h by hour, 7d to 90d by day, 1y by week', () => {
    expect(seriesGranularity('24h', null, now)).toBe('hour');
    for (const range of ['7d', '30d', '90d'] as const) expect(seriesGranularity(range, null, now)).toBe('day');
    expect(seriesGranularity('1y', null, now)).toBe('week');
  });

  test('all: by day up to 91 days of history, by week up to two years, then by month', () => {
    expect(seriesGranularity('all', null, now)).toBe('day');
    expect(seriesGranularity('all', at('2025-12-17T08:00:00Z'), now)).toBe('day'); // 91 days ago
    expect(seriesGranularity('all', at('2025-12-16T08:00:00Z'), now)).toBe('week'); // 92 days ago
    expect(seriesGranularity('all', at('2024-03-18T00:00:00Z'), now)).toBe('week'); // 730 days ago
    expect(seriesGranularity('all', at('2024-03-17T00:00:00Z'), now)).toBe('month');
  });

  test('a bucket starts on the hour, at midnight, on Monday or on the first of the month (UTC)', () => {
    expect(bucketStart(now, 'hour')).toEqual(at('2026-03-18T15:00:00.000Z'));
    expect(bucketStart(now, 'day')).toEqual(at('2026-03-18T00:00:00.000Z'));
    expect(bucketStart(now, 'week')).toEqual(at('2026-03-16T00:00:00.000Z'));
    expect(bucketStart(at('2026-03-22T23:59:59Z'), 'week')).toEqual(at('2026-03-16T00:00:00.000Z')); // a Sunday
    expect(bucketStart(at('2026-03-23T00:00:00Z'), 'week')).toEqual(at('2026-03-23T00:00:00.000Z'));
    expect(bucketStart(now, 'month')).toEqual(at('2026-03-01T00:00:00.000Z'));
  });

  test('every bucket of a range is listed, oldest first, the partial first and last ones included', () => {
    expect(bucketStarts('hour', rangeStart('24h', now) as Date, now)).toHaveLength(25);
    const week = bucketStarts('day', rangeStart('7d', now) as Date, now);
    expect(week.map((d) => d.toISOString().slice(0, 10))).toEqual([
      '2026-03-12',
      '2026-03-13',
      '2026-03-14',
      '2026-03-15',
      '2026-03-16',
      '2026-03-17',
      '2026-03-18',
    ]);
    expect(bucketStarts('day', rangeStart('90d', now) as Date, now)).toHaveLength(90);
    const year = bucketStarts('week', rangeStart('1y', now) as Date, now);
    expect(year[0]).toEqual(at('2025-03-17T00:00:00.000Z'));
    expect(year.at(-1)).toEqual(at('2026-03-16T00:00:00.000Z'));
    expect(year).toHaveLength(53);
    const months = bucketStarts('month', at('2025-11-30T12:00:00Z'), now);
    expect(months.map((d) => d.toISOString().slice(0, 7))).toEqual([
      '2025-11',
      '2025-12',
      '2026-01',
      '2026-02',
      '2026-03',
    ]);
  });
});

describe('the derived rates', () => {
  test('spec 9: profit margin is rounded to a whole percent', () => {
    expect(profitMargin(10_000, 3_333)).toBe(33);
    expect(profitMargin(10_000, 3_350)).toBe(34);
    expect(profitMargin(10_000, 10_000)).toBe(100);
    expect(profitMargin(20_000, 4_990)).toBe(25);
  });

  test('a loss has a negative margin, rounded as a gain is; no revenue, no margin', () => {
    expect(profitMargin(10_000, -250)).toBe(-3);
    expect(profitMargin(10_000, -249)).toBe(-2);
    expect(profitMargin(0, 0)).toBe(0);
    expect(profitMargin(0, -500)).toBe(0);
  });

  test('spec 9: bounce rate is the share of single-page sessions, one decimal', () => {
    expect(bounceRate(1, 2)).toBe(50);
    expect(bounceRate(1, 3)).toBe(33.3);
    expect(bounceRate(2, 3)).toBe(66.7);
    expect(bounceRate(0, 5)).toBe(0);
    expect(bounceRate(0, 0)).toBe(0);
  });

  test('conversion rate: orders per visitor in percent, two decimals; no visitors, no rate', () => {
    expect(conversionRate(3, 200)).toBe(1.5);
    expect(conversionRate(1, 3)).toBe(33.33);
    expect(conversionRate(2, 3)).toBe(66.67);
    expect(conversionRate(4, 0)).toBe(0);
  });

  test('average session length in minutes, two decimals', () => {
    expect(averageSessionMinutes(3 * 60_000 + 1 * 60_000, 2)).toBe(2);
    expect(averageSessionMinutes(100_000, 3)).toBe(0.56);
    expect(averageSessionMinutes(0, 4)).toBe(0);
    expect(averageSessionMinutes(0, 0)).toBe(0);
  });
});
