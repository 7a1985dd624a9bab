import type { CartItem } from './cart-storage.ts';

/** Adding an item already in the cart (same product and variant) raises its quantity. */
export function addCartItem(items: readonly CartItem[], item: CartItem): CartItem[] {
  const same = (other: CartItem) => other.id === item.id && (other.skuId ?? null) === (item.skuId ?? null);
  const quantity = Math.max(1, Math.floor(item.quantity));
  if (items.some(same)) {
    return items.map((other) => (same(other) ? { ...other, quantity: other.quantity + quantity } : other));
  }
  return [...items, { ...item, quantity }];
}

/** Subtotal in dollars: unit price times quantity (the price already prefers the sale price). */
export function cartSubtotal(items: readonly CartItem[]): number {
  return Math.round(items.reduce((sum, item) => sum + item.price * item.quantity, 0) * 100) / 100;
}
