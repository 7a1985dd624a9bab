import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { CartItem } from './cart-storage.ts';

type Body = {
  items: { id: string; quantity: number; skuId?: string }[];
  discountCodes: string[];
  reason: string;
  paymentIntentId?: string;
  metaVersion: number;
  email: string;
  shipping: unknown;
};

const call = vi.fn<(target: unknown, input: { body: Body }) => Promise<unknown>>();
vi.mock('#web/common/browser-api.ts', () => ({ api: { call } }));

class MemoryStorage {
  private values = new Map<string, string>();
  getItem(key: string) {
    return this.values.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.values.set(key, String(value));
  }
  removeItem(key: string) {
    this.values.delete(key);
  }
}

const lamp: CartItem = { id: 'lamp', title: 'Moon Lamp', price: 24.99, quantity: 1, image: '' };
const timer: CartItem = { id: 'timer', title: 'Sand Timer', price: 18, quantity: 2, image: '', skuId: 'blue' };

const breakdown = (total: number) => ({
  subtotal: total,
  discount: 0,
  shipping: null,
  tax: 0,
  processingFee: 0,
  fee: 0,
  total,
  currency: 'USD' as const,
});

/** The server's answer to a body: every line at its stored price, codes refused unless OK10 (10% off). */
function answer(body: Body, id = 'pi_1') {
  const lines = body.items.map((item) => {
    const price = item.id === 'lamp' ? 2499 : 1800;
    const unitPrice = body.discountCodes.includes('OK10') ? Math.round(price * 0.9) : price;
    return {
      key: `${item.id}:${item.skuId ?? ''}`,
      unitPrice,
      originalUnitPrice: price,
      lineTotal: unitPrice * item.quantity,
      appliedCode: unitPrice < price ? 'OK10' : null,
    };
  });
  const total = lines.reduce((sum, line) => sum + line.lineTotal, 0);
  return {
    id,
    clientSecret: `${id}_secret`,
    breakdown: breakdown(total),
    lines,
    refusedCodes: body.discountCodes
      .filter((code) => code !== 'OK10')
      .map((code) => ({ code, message: `Code "${code}" does not improve the price for Moon Lamp` })),
  };
}

async function loadStore() {
  vi.resetModules();
  const sync = await import('./cart-sync.ts');
  const storage = await import('./cart-storage.ts');
  // The store's own copy of the class (modules were reset).
  const { ApiRequestError } = await import('#web/common/api-client.ts');
  const unsubscribe = sync.cartSyncStore.subscribe(() => {});
  return { ...sync, ...storage, ApiRequestError, state: sync.cartSyncStore.getSnapshot, unsubscribe };
}

/** Runs the debounce and lets the answers arrive. */
async function settle() {
  await vi.advanceTimersByTimeAsync(400);
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('window', { addEventListener() {}, removeEventListener() {} });
  call.mockReset();
  call.mockImplementation(async (_target, { body }) => answer(body));
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the cart and payment sync', () => {
  test('a cart with lines is priced by the server once the debounce has passed, and its payment id kept', async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp, timer]));
    const store = await loadStore();
    expect(store.state()).toMatchObject({ ready: true, syncing: true, priced: false, clientSecret: null });
    expect(call).not.toHaveBeenCalled();
    await settle();
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]?.[1].body).toEqual({
      items: [
        { id: 'lamp', quantity: 1 },
        { id: 'timer', quantity: 2, skuId: 'blue' },
      ],
      email: '',
      shipping: null,
      billing: null,
      newsletter: false,
      discountCodes: [],
      metaVersion: 2,
      reason: 'subtotal_or_codes',
    });
    expect(store.state()).toMatchObject({
      paymentIntentId: 'pi_1',
      clientSecret: 'pi_1_secret',
      priced: true,
      syncing: false,
      breakdown: { total: 2499 + 3600 },
    });
    expect(localStorage.getItem('stillwater.paymentIntentId')).toBe('pi_1');
  });

  test('quick changes make one sync, which names the stored payment', async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    localStorage.setItem('stillwater.paymentIntentId', 'pi_old');
    const store = await loadStore();
    store.setQuantity('lamp:', 2);
    await vi.advanceTimersByTimeAsync(200);
    store.setQuantity('lamp:', 3);
    expect(store.state().priced).toBe(false);
    await settle();
    expect(call).toHaveBeenCalledTimes(1);
    expect(call.mock.calls[0]?.[1].body).toMatchObject({
      items: [{ id: 'lamp', quantity: 3 }],
      paymentIntentId: 'pi_old',
    });
  });

  test('a change while a sync is on its way waits for its answer and updates the same payment', async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    let release: () => void = () => {};
    call.mockImplementationOnce(
      (_target, { body }) => new Promise((resolve) => (release = () => resolve(answer(body, 'pi_new')))),
    );
    const store = await loadStore();
    await settle();
    store.setQuantity('lamp:', 4);
    await settle();
    expect(call).toHaveBeenCalledTimes(1);
    release();
    await settle();
    expect(call).toHaveBeenCalledTimes(2);
    expect(call.mock.calls[1]?.[1].body).toMatchObject({ paymentIntentId: 'pi_new', items: [{ quantity: 4 }] });
    expect(store.state()).toMatchObject({ priced: true, breakdown: { total: 4 * 2499 } });
  });

  test('codes are normalised, ignored when empty or applied, and a refused one is removed with its message', async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    const store = await loadStore();
    await settle();
    expect(store.applyCode('  ok10 ')).toBe(true);
    expect(store.applyCode('OK10')).toBe(false);
    expect(store.applyCode('   ')).toBe(false);
    expect(store.applyCode('nope')).toBe(true);
    expect(store.state().codes).toEqual(['OK10', 'NOPE']);
    await settle();
    expect(call).toHaveBeenCalledTimes(2);
    expect(call.mock.calls[1]?.[1].body.discountCodes).toEqual(['OK10', 'NOPE']);
    const state = store.state();
    expect(state.codes).toEqual(['OK10']);
    expect(state.refusal?.codes).toEqual([
      { code: 'NOPE', message: 'Code "NOPE" does not improve the price for Moon Lamp' },
    ]);
    expect(state.lines['lamp:']).toMatchObject({ unitPrice: 2249, appliedCode: 'OK10' });
    // The prices stand without the refused code: nothing more to sync.
    expect(state.priced).toBe(true);
    await settle();
    expect(call).toHaveBeenCalledTimes(2);
    expect(JSON.parse(localStorage.getItem('stillwater.discountCodes') ?? '[]')).toEqual(['OK10']);
  });

  test('a failed sync is only logged; the server refusing the cart keeps its sentence', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    call.mockRejectedValueOnce(new TypeError('Failed to fetch'));
    const store = await loadStore();
    await settle();
    expect(log).toHaveBeenCalledTimes(1);
    expect(store.state()).toMatchObject({ priced: false, clientSecret: null, syncError: null, syncing: false });
    call.mockRejectedValueOnce(new store.ApiRequestError(400, 'Only 3 of Moon Lamp left in stock', 'invalid'));
    store.setQuantity('lamp:', 9);
    await settle();
    expect(store.state()).toMatchObject({ priced: false, syncError: 'Only 3 of Moon Lamp left in stock' });
    // No retry by itself.
    await settle();
    expect(call).toHaveBeenCalledTimes(2);
    log.mockRestore();
  });

  test('an empty cart clears the client secret; clearCart also forgets the payment and the codes', async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    const store = await loadStore();
    await settle();
    store.applyCode('OK10');
    await settle();
    store.removeItem('lamp:');
    expect(store.state()).toMatchObject({ items: [], clientSecret: null, breakdown: null, priced: false });
    expect(store.state().paymentIntentId).toBe('pi_1');
    store.setQuantity('lamp:', 2);
    store.clearCart();
    expect(localStorage.getItem('stillwater.paymentIntentId')).toBeNull();
    expect(localStorage.getItem('stillwater.discountCodes')).toBeNull();
    expect(store.state()).toMatchObject({ items: [], codes: [], paymentIntentId: null, clientSecret: null });
    await settle();
    expect(call).toHaveBeenCalledTimes(2);
  });

  test("the checkout's details ride along, each change with its reason", async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    const store = await loadStore();
    await settle();
    store.setCheckoutDetails({ email: 'calm@example.com' });
    await settle();
    const address = {
      name: 'A',
      street: '1 Main',
      line2: '',
      city: 'Town',
      state: 'CA',
      zipCode: '90001',
      country: 'US',
    };
    store.setCheckoutDetails({ shipping: address });
    await settle();
    store.setCheckoutDetails({ newsletter: true });
    await settle();
    const bodies = call.mock.calls.map(([, input]) => input.body);
    expect(bodies.map((body) => body.reason)).toEqual([
      'subtotal_or_codes',
      'email_update',
      'shipping_update',
      'subtotal_or_codes',
    ]);
    expect(bodies[3]).toMatchObject({ email: 'calm@example.com', shipping: address, newsletter: true });
  });

  test('changes of different kinds within the debounce each get their own sync, in order', async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    const store = await loadStore();
    await settle();
    store.setCheckoutDetails({ email: 'quick@example.com' });
    store.setCheckoutDetails({
      billing: { name: 'B', street: '2 Main', line2: '', city: 'Town', state: 'NY', zipCode: '10001', country: 'US' },
    });
    await settle();
    const reasons = call.mock.calls.map(([, input]) => input.body.reason);
    expect(reasons).toEqual(['subtotal_or_codes', 'email_update', 'billing_update']);
  });

  test('an answer obtained elsewhere is kept with setIntent', async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    const store = await loadStore();
    await settle();
    store.setIntent({ id: 'pi_2', clientSecret: 'pi_2_secret', breakdown: breakdown(2999) });
    expect(store.state()).toMatchObject({ paymentIntentId: 'pi_2', clientSecret: 'pi_2_secret', priced: true });
    expect(localStorage.getItem('stillwater.paymentIntentId')).toBe('pi_2');
  });

  test('syncNow sends at once and resolves with the answer', async () => {
    localStorage.setItem('stillwater.cart', JSON.stringify([lamp]));
    const store = await loadStore();
    const state = await store.syncNow();
    expect(call).toHaveBeenCalledTimes(1);
    expect(state).toMatchObject({ clientSecret: 'pi_1_secret', priced: true, syncing: false });
  });
});
