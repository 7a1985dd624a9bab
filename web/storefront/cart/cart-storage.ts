import { useSyncExternalStore } from 'react';
import { addCartItem } from './cart-items.ts';

/** A line of the cart kept in the browser (spec: the cart works in dollars). */
export type CartItem = {
  id: string;
  title: string;
  price: number;
  quantity: number;
  image: string;
  skuId?: string;
  skuAttr?: string;
  variantName?: string;
  variantLabel?: string;
};

const KEY = 'stillwater.cart';
const listeners = new Set<() => void>();

export function readCart(): CartItem[] {
  if (typeof localStorage === 'undefined') return [];
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(parsed) ? (parsed as CartItem[]) : [];
  } catch {
    return [];
  }
}

export function writeCart(items: CartItem[]): void {
  localStorage.setItem(KEY, JSON.stringify(items));
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  // Another tab changed the cart.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** Puts an item in the cart kept in this browser; the header badge follows. */
export function addToCart(item: CartItem): void {
  writeCart(addCartItem(readCart(), item));
}

const countItems = () =>
  readCart().reduce((sum, item) => sum + (Number.isFinite(item.quantity) ? item.quantity : 0), 0);

/** How many items the cart holds; 0 while rendering on the server. */
export function useCartCount(): number {
  return useSyncExternalStore(subscribe, countItems, () => 0);
}
