import { describe, expect, test } from 'vitest';
import type { AdminSale } from '#common/contracts/admin/sales.ts';
import {
  emptySaleForm,
  fromLocalInput,
  readSaleForm,
  type SaleFormState,
  saleFormOf,
  toLocalInput,
} from './sale-form.ts';

const now = new Date('2026-03-01T10:00:00');
const form = (overrides: Partial<SaleFormState> = {}): SaleFormState => ({
  ...emptySaleForm(now),
  name: 'Spring Calm',
  discountValue: '15',
  ...overrides,
});

describe('the create-sale form (spec 5)', () => {
  test('a new sale runs a week from now, switched off', () => {
    const empty = emptySaleForm(now);
    expect(empty).toMatchObject({ type: 'global', discountType: 'percentage', active: false });
    expect(fromLocalInput(empty.startDate)).toBe(now.toISOString());
    expect(new Date(fromLocalInput(empty.endDate) ?? '').getTime() - now.getTime()).toBe(7 * 24 * 60 * 60 * 1000);
  });

  test('dollars become cents, the code is upper-cased, empty fields are unlimited and 0', () => {
    const read = readSaleForm(
      form({
        discountType: 'fixed_amount',
        discountValue: '5.99',
        couponCode: ' spring-5 ',
        minimumPurchase: '49.90',
        type: 'product',
        targetId: 'abc',
        isFlashSale: true,
      }),
    );
    expect(read).toEqual({
      body: {
        name: 'Spring Calm',
        description: '',
        type: 'product',
        targetId: 'abc',
        discountType: 'fixed_amount',
        discountValue: 599,
        couponCode: 'SPRING-5',
        isFlashSale: true,
        startDate: now.toISOString(),
        endDate: expect.any(String),
        usageLimit: null,
        minimumPurchase: 4990,
        active: false,
      },
    });
  });

  test.each([
    [{ name: ' ' }, 'name'],
    [{ type: 'category' as const }, 'targetId'],
    [{ discountValue: '' }, 'discountValue'],
    [{ discountValue: '-1' }, 'discountValue'],
    [{ discountValue: '101' }, 'discountValue'],
    [{ discountValue: '2.5' }, 'discountValue'],
    [{ discountType: 'fixed_price' as const, discountValue: '1.999' }, 'discountValue'],
    [{ couponCode: 'TWO WORDS' }, 'couponCode'],
    [{ endDate: toLocalInput(now) }, 'endDate'],
    [{ startDate: '' }, 'startDate'],
    [{ usageLimit: '0' }, 'usageLimit'],
    [{ minimumPurchase: '-5' }, 'minimumPurchase'],
    [{ minimumPurchase: '0.001' }, 'minimumPurchase'],
  ])('%o is refused at %s', (overrides, field) => {
    const read = readSaleForm(form(overrides));
    expect('errors' in read && read.errors[field as keyof SaleFormState]).toBeTruthy();
  });

  test('an existing sale reads back into the form and out again unchanged', () => {
    const sale: AdminSale = {
      id: '0123456789abcdef',
      _id: '0123456789abcdef',
      name: 'Fountains',
      description: 'Calm corner',
      type: 'category',
      targetId: 'cat1',
      targetName: 'Fountains',
      discountType: 'fixed_price',
      discountValue: 1999,
      couponCode: 'CALM15',
      isFlashSale: false,
      startDate: '2026-03-01T10:00:00.000Z',
      endDate: '2026-03-08T10:00:00.000Z',
      usageCount: 2,
      usageLimit: 200,
      minimumPurchase: 7500,
      active: true,
      orders: 2,
      revenue: 5000,
      createdAt: '2026-02-01T00:00:00.000Z',
    };
    const state = saleFormOf(sale);
    expect(state).toMatchObject({ discountValue: '19.99', minimumPurchase: '75.00', usageLimit: '200' });
    expect(readSaleForm(state)).toEqual({
      body: {
        name: 'Fountains',
        description: 'Calm corner',
        type: 'category',
        targetId: 'cat1',
        discountType: 'fixed_price',
        discountValue: 1999,
        couponCode: 'CALM15',
        isFlashSale: false,
        startDate: sale.startDate,
        endDate: sale.endDate,
        usageLimit: 200,
        minimumPurchase: 7500,
        active: true,
      },
    });
  });
});
