/**
 * The cart and its payment, shared by the cart page and the checkout modal (spec 4, "Cart and
 * payment sync"): the lines, codes and payment intent id kept in local storage, the checkout
 * details the modal collects, and the server's prices. Every change of the lines, the codes or
 * the newsletter flag syncs the payment intent (reason subtotal_or_codes), and a change of the
 * shipping address, billing address or email its own (shipping_update, billing_update,
 * email_update), each debounced. A failed sync is only logged; the cart then previews its prices.
 */
import { useSyncExternalStore } from 'react';
import type * as z from 'zod/mini';
import { PAYMENT_META_VERSION } from '#common/constants.ts';
import type {
  CheckoutBreakdown,
  createOrUpdatePaymentIntent,
  DraftAddress,
  syncReasons,
} from '#common/contracts/checkout.ts';
import { addCode, normalizeCode } from '#common/pricing.ts';
import { ApiRequestError } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { cartLineKey, removeCartItem, type ServerLinePrice, setCartItemQuantity } from './cart-items.ts';
import {
  type CartItem,
  clearCart,
  readCart,
  readCodes,
  readPaymentIntentId,
  subscribeCart,
  writeCart,
  writeCodes,
  writePaymentIntentId,
} from './cart-storage.ts';

export { clearCart };

export type SyncReason = (typeof syncReasons)[number];

/** The answer of POST /api/create-or-update-payment-intent. */
export type PaymentIntentAnswer = z.output<(typeof createOrUpdatePaymentIntent)['response']>;

/** What the checkout modal collects; every sync sends it, so no sync undoes another's. */
export type CheckoutDetails = {
  email: string;
  newsletter: boolean;
  shipping: DraftAddress | null;
  billing: DraftAddress | null;
};

export type CartSyncState = {
  /** False on the server and until the browser has read its storage: the lines are not known yet. */
  ready: boolean;
  items: CartItem[];
  /** Applied discount codes, normalised, in the order entered. */
  codes: string[];
  paymentIntentId: string | null;
  /** Null until the server answered for this cart, and again once the cart is empty. */
  clientSecret: string | null;
  /** The server's latest breakdown (cents); see `priced` for whether it is for the cart as it is now. */
  breakdown: CheckoutBreakdown | null;
  /** True when `breakdown` prices exactly the current lines, codes and shipping address. */
  priced: boolean;
  /** The server's latest unit prices, by cart line key (`cartLineKey`). */
  lines: Record<string, ServerLinePrice>;
  details: CheckoutDetails;
  /** A sync is waiting for its debounce or on its way. */
  syncing: boolean;
  /** The server's sentence when it refused the cart (a 4xx, e.g. too few in stock); null otherwise. */
  syncError: string | null;
  /** The latest codes the server refused (removed from `codes`); `id` changes with each refusal. */
  refusal: { id: number; codes: { code: string; message: string }[] } | null;
};

/** Debounce of a sync after a change, in milliseconds. */
export const SYNC_DEBOUNCE_MS = 300;

const emptyDetails: CheckoutDetails = { email: '', newsletter: false, shipping: null, billing: null };

const serverState: CartSyncState = {
  ready: false,
  items: [],
  codes: [],
  paymentIntentId: null,
  clientSecret: null,
  breakdown: null,
  priced: false,
  lines: {},
  details: emptyDetails,
  syncing: false,
  syncError: null,
  refusal: null,
};

let state = serverState;
let loaded = false;
/** The price key the payment was last priced with (see priceKey). */
let pricedKey: string | null = null;
/** Bumped when the cart is cleared, so that an answer on its way for the old cart is dropped. */
let generation = 0;
let timer: ReturnType<typeof setTimeout> | null = null;
let queuedReason: SyncReason | null = null;
let running: Promise<void> | null = null;
let refusals = 0;
const listeners = new Set<() => void>();
let unsubscribeStorage: (() => void) | null = null;

/** What the server's prices depend on: the lines, the codes and the shipping address. */
function priceKey(items: readonly CartItem[], codes: readonly string[], shipping: DraftAddress | null): string {
  return JSON.stringify([items.map((item) => [item.id, item.skuId ?? null, item.quantity]), codes, shipping]);
}

const keyOf = (s: CartSyncState) => priceKey(s.items, s.codes, s.details.shipping);

function setState(patch: Partial<CartSyncState>) {
  const next = { ...state, ...patch };
  next.priced = next.breakdown !== null && next.items.length > 0 && pricedKey === keyOf(next);
  next.syncing = timer !== null || running !== null;
  state = next;
  for (const listener of listeners) listener();
}

/** Reads the storage (on first use, and whenever it changes here or in another tab). */
function load() {
  const items = readCart();
  const codes = readCodes();
  const paymentIntentId = readPaymentIntentId();
  const before = state;
  loaded = true;
  if (items.length === 0) {
    // Spec: an empty cart clears the client secret; cleared storage (no payment id) is a new cart.
    if (!paymentIntentId && before.items.length > 0) generation++;
    cancelTimer();
    queuedReason = null;
    pricedKey = null;
    setState({ ready: true, items, codes, paymentIntentId, clientSecret: null, breakdown: null, lines: {} });
    return;
  }
  setState({ ready: true, items, codes, paymentIntentId });
  if (listeners.size > 0 && keyOf(state) !== pricedKey && keyOf(state) !== keyOf(before)) {
    schedule('subtotal_or_codes');
  }
}

function cancelTimer() {
  if (timer) clearTimeout(timer);
  timer = null;
}

function schedule(reason: SyncReason) {
  if (state.items.length === 0) return;
  // A change of another kind sends the waiting one first: each reason gets its own sync (spec 4).
  if (queuedReason !== null && queuedReason !== reason && timer) void flush();
  queuedReason = reason;
  cancelTimer();
  timer = setTimeout(() => {
    timer = null;
    void flush();
  }, SYNC_DEBOUNCE_MS);
  setState({});
}

/** Sends the queued sync now, one at a time (the first answer's id is the next one's). */
async function flush(): Promise<void> {
  cancelTimer();
  while (running) await running;
  const reason = queuedReason;
  queuedReason = null;
  if (reason === null || state.items.length === 0) {
    setState({});
    return;
  }
  let answered = false;
  running = send(reason)
    .then((ok) => {
      answered = ok;
    })
    .finally(() => {
      running = null;
    });
  await running;
  // The cart changed and changed back while the answer was on its way: price it as it is now.
  // (After a failure nothing is retried until the next change.)
  if (answered && !timer && !running && queuedReason === null && state.items.length > 0 && pricedKey !== keyOf(state)) {
    schedule('subtotal_or_codes');
  }
  setState({});
}

/** Sends one sync; false when it failed. */
async function send(reason: SyncReason): Promise<boolean> {
  const { items, codes, details, paymentIntentId } = state;
  const sent = { items, codes, shipping: details.shipping, generation };
  try {
    const answer = await api.call<typeof createOrUpdatePaymentIntent>(
      { method: 'POST', path: '/api/create-or-update-payment-intent' },
      {
        body: {
          items: items.map((item) => ({
            id: item.id,
            quantity: item.quantity,
            ...(item.skuId ? { skuId: item.skuId } : {}),
            ...(item.skuAttr ? { skuAttr: item.skuAttr } : {}),
          })),
          email: details.email,
          shipping: details.shipping,
          billing: details.billing,
          newsletter: details.newsletter,
          discountCodes: codes,
          metaVersion: PAYMENT_META_VERSION,
          reason,
          ...(paymentIntentId ? { paymentIntentId } : {}),
        },
      },
    );
    if (sent.generation === generation) record(answer, sent);
    return true;
  } catch (error) {
    // Spec 8: a failed payment-intent sync is only logged; the cart shows its own preview.
    console.error('Payment-intent sync failed', error);
    const refused = error instanceof ApiRequestError && error.status >= 400 && error.status < 500;
    setState({ syncError: refused ? error.message : null });
    return false;
  }
}

/** Keeps an answer that priced `sent` (the lines, codes and shipping address it was asked for). */
function record(
  answer: Pick<PaymentIntentAnswer, 'id' | 'clientSecret' | 'breakdown'> & Partial<PaymentIntentAnswer>,
  sent: { items: readonly CartItem[]; codes: readonly string[]; shipping: DraftAddress | null },
) {
  writePaymentIntentId(answer.id);
  if (state.items.length === 0) return;
  const lines: Record<string, ServerLinePrice> = answer.lines ? {} : state.lines;
  if (answer.lines) {
    // The server answers the lines in the order they were sent.
    sent.items.forEach((item, index) => {
      const line = answer.lines?.[index];
      if (line) lines[cartLineKey(item)] = line;
    });
  }
  // Refused codes set no price, so the prices stand for the codes without them.
  const refused = (answer.refusedCodes ?? []).filter((entry) => state.codes.includes(entry.code));
  const refusedSet = new Set(refused.map((entry) => entry.code));
  const pricedCodes = sent.codes.filter((code) => !refusedSet.has(code));
  pricedKey = priceKey(sent.items, pricedCodes, sent.shipping);
  setState({
    paymentIntentId: answer.id,
    clientSecret: answer.clientSecret,
    breakdown: answer.breakdown,
    lines,
    syncError: null,
    ...(refused.length > 0 ? { refusal: { id: ++refusals, codes: refused } } : {}),
  });
  if (refused.length > 0) writeCodes(state.codes.filter((code) => !refusedSet.has(code)));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (listeners.size === 1) {
    unsubscribeStorage = subscribeCart(load);
    load();
    // A cart opened with lines the payment has not priced yet (every page load).
    if (state.items.length > 0 && pricedKey !== keyOf(state)) schedule('subtotal_or_codes');
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      unsubscribeStorage?.();
      unsubscribeStorage = null;
      // Nobody is looking: the next visit reads the storage again and syncs what changed.
      cancelTimer();
      queuedReason = null;
      loaded = false;
    }
  };
}

function getSnapshot(): CartSyncState {
  if (!loaded && typeof window !== 'undefined') load();
  return state;
}

/** Changes a line's quantity (floored at 1). */
export function setQuantity(key: string, quantity: number): void {
  writeCart(setCartItemQuantity(readCart(), key, quantity));
}

export function removeItem(key: string): void {
  writeCart(removeCartItem(readCart(), key));
}

/** The most codes one payment takes (the checkout contract's limit). */
export const MAX_CODES = 10;

/** Applies a code as entered (trimmed, upper-cased); false when it was empty or already applied. */
export function applyCode(raw: string): boolean {
  const codes = readCodes();
  const next = addCode(codes, raw).slice(0, MAX_CODES);
  if (next.length === codes.length) return false;
  writeCodes(next);
  return true;
}

export function removeCode(code: string): void {
  const normalized = normalizeCode(code);
  writeCodes(readCodes().filter((entry) => entry !== normalized));
}

/**
 * Merges what the checkout modal collected and syncs: the newsletter flag with reason
 * subtotal_or_codes, the shipping address, billing address and email each with their own.
 */
export function setCheckoutDetails(patch: Partial<CheckoutDetails>): void {
  const before = state.details;
  const details = { ...before, ...patch };
  setState({ details });
  const changed = (field: keyof CheckoutDetails) =>
    field in patch && JSON.stringify(before[field]) !== JSON.stringify(details[field]);
  if (changed('shipping')) schedule('shipping_update');
  else if (changed('billing')) schedule('billing_update');
  else if (changed('email')) schedule('email_update');
  else if (changed('newsletter')) schedule('subtotal_or_codes');
}

/**
 * Keeps an answer of POST /api/create-or-update-payment-intent made elsewhere (for the cart as
 * it is now): the id (stored), the client secret, the breakdown, and the lines and refused codes
 * when given.
 */
export function setIntent(
  answer: Pick<PaymentIntentAnswer, 'id' | 'clientSecret' | 'breakdown'> & Partial<PaymentIntentAnswer>,
): void {
  record(answer, { items: state.items, codes: state.codes, shipping: state.details.shipping });
}

/**
 * Sends a sync at once instead of after the debounce (the pending one if any, else with
 * `reason`), and resolves with the state after its answer, e.g. before paying.
 */
export async function syncNow(reason: SyncReason = 'subtotal_or_codes'): Promise<CartSyncState> {
  queuedReason ??= reason;
  await flush();
  return state;
}

export type CartSync = CartSyncState & {
  setQuantity: typeof setQuantity;
  removeItem: typeof removeItem;
  applyCode: typeof applyCode;
  removeCode: typeof removeCode;
  setCheckoutDetails: typeof setCheckoutDetails;
  setIntent: typeof setIntent;
  syncNow: typeof syncNow;
  clearCart: typeof clearCart;
};

const actions = {
  setQuantity,
  removeItem,
  applyCode,
  removeCode,
  setCheckoutDetails,
  setIntent,
  syncNow,
  clearCart,
};

/** The store itself, for code outside React: syncs run while anything subscribes. */
export const cartSyncStore = { subscribe, getSnapshot };

/** The cart, its payment and its actions; while any component uses it, changes are synced. */
export function useCartSync(): CartSync {
  const current = useSyncExternalStore(subscribe, getSnapshot, () => serverState);
  return { ...current, ...actions };
}
