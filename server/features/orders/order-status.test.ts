import { describe, expect, test } from 'vitest';
import { orderStatuses } from '#common/contracts/orders.ts';
import { canMove, movableTo, paidStatuses } from './order-status.ts';

describe('order statuses', () => {
  test('move forward through fulfilment, or to cancelled; never back, never out of cancelled', () => {
    expect(canMove('pending', 'processing')).toBe(true);
    expect(canMove('processing', 'shipped')).toBe(true);
    expect(canMove('shipped', 'delivered')).toBe(true);
    expect(canMove('delivered', 'completed')).toBe(true);
    expect(canMove('shipped', 'processing')).toBe(false);
    expect(canMove('completed', 'shipped')).toBe(false);
    for (const to of orderStatuses) expect(canMove('cancelled', to)).toBe(false);
    for (const from of orderStatuses.filter((s) => s !== 'cancelled')) expect(canMove(from, 'cancelled')).toBe(true);
  });

  test('no status moves to itself; movableTo lists exactly the allowed predecessors', () => {
    for (const status of orderStatuses) {
      expect(canMove(status, status)).toBe(false);
      expect(movableTo(status)).toEqual(orderStatuses.filter((from) => canMove(from, status)));
    }
    expect(movableTo('shipped')).toEqual(['processing']);
  });

  test('paid means anything after payment but cancelled', () => {
    expect([...paidStatuses]).toEqual(['processing', 'shipped', 'delivered', 'completed']);
  });
});
