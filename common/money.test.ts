import { describe, expect, test } from 'vitest';
import { centsToDollars, dollarsToCents, effectivePrice, formatCents, salePercent } from './money.ts';

describe('money', () => {
  test('converts between dollars and cents without float drift', () => {
    expect(dollarsToCents(129.98)).toBe(12998);
    expect(dollarsToCents(77.99)).toBe(7799);
    expect(dollarsToCents(0.29)).toBe(29);
    expect(dollarsToCents(1.005)).toBe(101);
    expect(dollarsToCents(-4.99)).toBe(-499);
    expect(centsToDollars(7799)).toBe(77.99);
  });

  test('formats cents as dollars with two decimals', () => {
    expect(formatCents(7799)).toBe('$77.99');
    expect(formatCents(500)).toBe('$5.00');
    expect(formatCents(123456)).toBe('$1,234.56');
  });

  test('the sale price is used only when set and lower than the price', () => {
    expect(effectivePrice(12998, 7799)).toBe(7799);
    expect(effectivePrice(12998, null)).toBe(12998);
    expect(effectivePrice(12998, 13000)).toBe(12998);
  });

  test('sale percent is round((price - sale) / price * 100)', () => {
    expect(salePercent(12998, 7799)).toBe(40);
    expect(salePercent(4999, 2999)).toBe(40);
    expect(salePercent(7450, 5900)).toBe(21);
    expect(salePercent(4999, null)).toBe(0);
    expect(salePercent(0, 0)).toBe(0);
  });
});
