import { describe, expect, test } from 'vitest';
import {
  addCartItem,
  cartLineKey,
  cartSubtotal,
  clampQuantity,
  MAX_QUANTITY,
  parseQuantityInput,
  previewCart,
  removeCartItem,
  sanitizeCartItems,
  setCartItemQuantity,
} from './cart-items.ts';
import type { CartItem } from './cart-storage.ts';

const fountain: CartItem = { id: 'p1', title: 'Fountain', price: 77.99, quantity: 1, image: '/a.webp', skuId: 's1' };
const lamp: CartItem = { id: 'p2', title: 'Lamp', price: 29.99, quantity: 2, image: '' };

describe('cart items', () => {
  test('adding the same product and variant adds up the quantity', () => {
    const once = addCartItem([], fountain);
    const twice = addCartItem(once, { ...fountain, quantity: 2 });
    expect(twice).toEqual([{ ...fountain, quantity: 3 }]);
  });

  test('another variant of the same product is another line', () => {
    const items = addCartItem(addCartItem([], fountain), { ...fountain, skuId: 's2' });
    expect(items).toHaveLength(2);
  });

  test('a quantity below one counts as one, fractions are floored', () => {
    expect(addCartItem([], { ...fountain, quantity: 0 })[0]?.quantity).toBe(1);
    expect(addCartItem([], { ...fountain, quantity: 2.7 })[0]?.quantity).toBe(2);
  });

  test('adding never takes a line past the most one payment takes', () => {
    const items = addCartItem([{ ...fountain, quantity: MAX_QUANTITY - 1 }], { ...fountain, quantity: 5 });
    expect(items[0]?.quantity).toBe(MAX_QUANTITY);
  });

  test('the subtotal is unit price times quantity, to the cent', () => {
    expect(
      cartSubtotal([
        { ...fountain, quantity: 3 },
        { ...fountain, id: 'p2', price: 29.99, quantity: 1 },
      ]),
    ).toBe(263.96);
    expect(cartSubtotal([])).toBe(0);
  });
});

describe('quantities', () => {
  test('updates are whole numbers floored at 1 and capped', () => {
    expect(clampQuantity(0)).toBe(1);
    expect(clampQuantity(-4)).toBe(1);
    expect(clampQuantity(3.9)).toBe(3);
    expect(clampQuantity(Number.NaN)).toBe(1);
    expect(clampQuantity(1000)).toBe(MAX_QUANTITY);
  });

  test('the field accepts whole numbers of 0 or more; anything else changes nothing', () => {
    expect(parseQuantityInput('0')).toBe(1);
    expect(parseQuantityInput('7')).toBe(7);
    expect(parseQuantityInput(' 12 ')).toBe(12);
    expect(parseQuantityInput('250')).toBe(MAX_QUANTITY);
    for (const text of ['', '-1', '1.5', '1e2', 'two']) expect(parseQuantityInput(text)).toBeNull();
  });

  test('a line is changed or removed by its key, the others stay', () => {
    const items = [fountain, lamp];
    expect(setCartItemQuantity(items, cartLineKey(fountain), 0)).toEqual([{ ...fountain, quantity: 1 }, lamp]);
    expect(setCartItemQuantity(items, 'p2:', 5)).toEqual([fountain, { ...lamp, quantity: 5 }]);
    expect(removeCartItem(items, 'p1:s1')).toEqual([lamp]);
    expect(removeCartItem(items, 'p1:')).toEqual(items);
  });
});

describe('stored carts', () => {
  test('lines that cannot be shown are dropped; the rest are made whole', () => {
    const stored = [
      null,
      'fountain',
      { title: 'No id', price: 1, quantity: 1 },
      { id: 'p3', title: 'No price', quantity: 1 },
      { id: 'p4', title: 'Bad price', price: Number.NaN, quantity: 1 },
      { id: 'p1', title: 'Fountain', price: 77.99, quantity: 2.5, image: '/a.webp', skuId: 's1', variantName: '' },
      { id: 'p1', title: 'Fountain', price: 77.99, quantity: 1, image: '/a.webp', skuId: 's1' },
      { id: 'p2', title: 'Lamp', price: 29.99, image: 7 },
    ];
    expect(sanitizeCartItems(stored)).toEqual([
      { id: 'p1', title: 'Fountain', price: 77.99, quantity: 3, image: '/a.webp', skuId: 's1' },
      { id: 'p2', title: 'Lamp', price: 29.99, quantity: 1, image: '' },
    ]);
  });
});

describe('the preview', () => {
  test('without the server, lines are priced at the stored dollars, in cents', () => {
    const preview = previewCart([fountain, lamp], {});
    expect(preview.lines.map((line) => [line.key, line.unitPrice, line.lineTotal])).toEqual([
      ['p1:s1', 7799, 7799],
      ['p2:', 2999, 5998],
    ]);
    expect(preview).toMatchObject({ subtotal: 13797, discount: 0, total: 13797 });
  });

  test("the server's unit prices win and codes show as the discount", () => {
    const preview = previewCart([fountain, { ...lamp, quantity: 3 }], {
      'p2:': { unitPrice: 2699, originalUnitPrice: 2999, appliedCode: 'WELCOME10' },
    });
    expect(preview.lines[1]).toMatchObject({ unitPrice: 2699, lineTotal: 8097, appliedCode: 'WELCOME10' });
    expect(preview).toMatchObject({ subtotal: 7799 + 8997, discount: 900, total: 7799 + 8097 });
  });
});
