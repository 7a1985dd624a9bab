import { describe, expect, test } from 'vitest';
import { addCartItem, cartSubtotal } from './cart-items.ts';
import type { CartItem } from './cart-storage.ts';

const fountain: CartItem = { id: 'p1', title: 'Fountain', price: 77.99, quantity: 1, image: '/a.webp', skuId: 's1' };

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
