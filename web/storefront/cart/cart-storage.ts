import { useSyncExternalStore } from 'react';
import { addCartItem, sanitizeCartItems } from './cart-items.ts';

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
/** The discount codes entered in the cart, kept with it so that a reload keeps them. */
const CODES_KEY = 'stillwater.discountCodes';
/** The payment the cart is priced in (spec: stored, and removed when the cart is cleared). */
const PAYMENT_INTENT_KEY = 'stillwater.paymentIntentId';
const KEYS = new Set([KEY, CODES_KEY, PAYMENT_INTENT_KEY]);
const listeners = new Set<() => void>();

function readJsonArray(key: string): unknown[] {
  if (typeof localStorage === 'undefined') return [];
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

function notify() {
  for (const listener of listeners) listener();
}

/** The cart as stored, keeping only lines that can be shown and bought. */
export function readCart(): CartItem[] {
  return sanitizeCartItems(readJsonArray(KEY));
}

export function writeCart(items: CartItem[]): void {
  localStorage.setItem(KEY, JSON.stringify(items));
  notify();
}

export function readCodes(): string[] {
  return readJsonArray(CODES_KEY).filter((code): code is string => typeof code === 'string');
}

export function writeCodes(codes: readonly string[]): void {
  if (codes.length === 0) localStorage.removeItem(CODES_KEY);
  else localStorage.setItem(CODES_KEY, JSON.stringify(codes));
  notify();
}

export function readPaymentIntentId(): string | null {
  if (typeof localStorage === 'undefined') return null;
  return localStorage.getItem(PAYMENT_INTENT_KEY) || null;
}

export function writePaymentIntentId(id: string | null): void {
  if (id === readPaymentIntentId()) return;
  if (id) localStorage.setItem(PAYMENT_INTENT_KEY, id);
  else localStorage.removeItem(PAYMENT_INTENT_KEY);
  notify();
}

/** Empties the cart, its codes and the stored payment intent id (spec 4: clearing removes the id too). */
export function clearCart(): void {
  if (typeof localStorage === 'undefined') return;
  for (const key of KEYS) localStorage.removeItem(key);
  notify();
}

/** Calls `listener` whenever the cart, its codes or its payment change, in this tab or another. */
export function subscribeCart(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    // A null key: another tab cleared the whole storage.
    if (event.key === null || KEYS.has(event.key)) listener();
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
  return useSyncExternalStore(subscribeCart, countItems, () => 0);
}
