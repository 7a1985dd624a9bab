import { dollarsToCents } from '#common/money.ts';
import type { CartItem } from './cart-storage.ts';

/** The most units of one line a payment takes (the checkout contract's limit). */
export const MAX_QUANTITY = 99;

/** A line's identity in the cart: the product and its variant. */
export function cartLineKey(item: Pick<CartItem, 'id' | 'skuId'>): string {
  return `${item.id}:${item.skuId ?? ''}`;
}

/** A quantity as the cart keeps it: a whole number floored at 1 (spec 4), at most MAX_QUANTITY. */
export function clampQuantity(quantity: number): number {
  if (Number.isNaN(quantity)) return 1;
  return Math.min(MAX_QUANTITY, Math.max(1, Math.floor(quantity)));
}

/**
 * What the quantity field's text asks for: the field accepts whole numbers of 0 or more (spec 4),
 * and the update is floored at 1. Null for anything else (empty, a sign, a fraction), which changes nothing.
 */
export function parseQuantityInput(text: string): number | null {
  const trimmed = text.trim();
  return /^\d+$/.test(trimmed) ? clampQuantity(Number(trimmed)) : null;
}

/** Adding an item already in the cart (same product and variant) raises its quantity. */
export function addCartItem(items: readonly CartItem[], item: CartItem): CartItem[] {
  const key = cartLineKey(item);
  const quantity = clampQuantity(item.quantity);
  if (items.some((other) => cartLineKey(other) === key)) {
    return items.map((other) =>
      cartLineKey(other) === key ? { ...other, quantity: clampQuantity(other.quantity + quantity) } : other,
    );
  }
  return [...items, { ...item, quantity }];
}

/** The cart with one line's quantity changed (floored at 1). */
export function setCartItemQuantity(items: readonly CartItem[], key: string, quantity: number): CartItem[] {
  return items.map((item) => (cartLineKey(item) === key ? { ...item, quantity: clampQuantity(quantity) } : item));
}

/** The cart without one line. */
export function removeCartItem(items: readonly CartItem[], key: string): CartItem[] {
  return items.filter((item) => cartLineKey(item) !== key);
}

const optionalText = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The lines of a stored cart that can be shown and bought: local storage is the browser's, so
 * anything may be in it. Lines without an id, title or price are dropped; quantities are whole
 * numbers from 1; a line stored twice is merged.
 */
export function sanitizeCartItems(stored: readonly unknown[]): CartItem[] {
  let items: CartItem[] = [];
  for (const entry of stored) {
    if (typeof entry !== 'object' || entry === null) continue;
    const raw = entry as Record<string, unknown>;
    if (typeof raw.id !== 'string' || raw.id === '' || typeof raw.title !== 'string') continue;
    if (typeof raw.price !== 'number' || !Number.isFinite(raw.price) || raw.price < 0) continue;
    const quantity = typeof raw.quantity === 'number' && Number.isFinite(raw.quantity) ? raw.quantity : 1;
    const item: CartItem = {
      id: raw.id,
      title: raw.title,
      price: raw.price,
      quantity,
      image: typeof raw.image === 'string' ? raw.image : '',
    };
    const skuId = optionalText(raw.skuId);
    const skuAttr = optionalText(raw.skuAttr);
    const variantName = optionalText(raw.variantName);
    const variantLabel = optionalText(raw.variantLabel);
    if (skuId) item.skuId = skuId;
    if (skuAttr) item.skuAttr = skuAttr;
    if (variantName) item.variantName = variantName;
    if (variantLabel) item.variantLabel = variantLabel;
    items = addCartItem(items, item);
  }
  return items;
}

/** Subtotal in dollars: unit price times quantity (the price already prefers the sale price). */
export function cartSubtotal(items: readonly CartItem[]): number {
  return Math.round(items.reduce((sum, item) => sum + item.price * item.quantity, 0) * 100) / 100;
}

/** A line's prices as the server gave them, in cents. */
export type ServerLinePrice = { unitPrice: number; originalUnitPrice: number; appliedCode: string | null };

export type PreviewLine = {
  key: string;
  item: CartItem;
  /** What one unit costs, cents: the server's price when known, else the stored price. */
  unitPrice: number;
  /** The unit price before codes, cents. */
  originalUnitPrice: number;
  lineTotal: number;
  appliedCode: string | null;
};

/**
 * The cart priced in the browser, in cents: each line at the server's latest unit price for it
 * when there is one (codes included), else at the price stored when it was added. Shown while the
 * server's own figures are not known (before the first answer, during a change, after a failed sync).
 */
export function previewCart(
  items: readonly CartItem[],
  serverPrices: Readonly<Record<string, ServerLinePrice>>,
): { lines: PreviewLine[]; subtotal: number; discount: number; total: number } {
  const lines = items.map((item): PreviewLine => {
    const key = cartLineKey(item);
    const known = serverPrices[key];
    const stored = dollarsToCents(item.price);
    const unitPrice = known?.unitPrice ?? stored;
    const originalUnitPrice = known?.originalUnitPrice ?? stored;
    return {
      key,
      item,
      unitPrice,
      originalUnitPrice,
      lineTotal: unitPrice * item.quantity,
      appliedCode: known?.appliedCode ?? null,
    };
  });
  const subtotal = lines.reduce((sum, line) => sum + line.originalUnitPrice * line.item.quantity, 0);
  const total = lines.reduce((sum, line) => sum + line.lineTotal, 0);
  return { lines, subtotal, discount: subtotal - total, total };
}
