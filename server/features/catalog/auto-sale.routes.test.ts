import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, test } from 'vitest';
import type { AdminSale } from '#common/contracts/admin/sales.ts';
import type { Product, ProductSummary } from '#common/contracts/catalog.ts';
import { discountedPrice } from '#common/pricing.ts';
import { home, type Intent, simpleProduct, variantProduct } from '#server/features/checkout/checkout-test-helpers.ts';
import { sales } from '#server/features/marketing/marketing.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { categories } from './catalog.tables.ts';

/**
 * Issue 12: a sale without a code shows on the storefront as the sale price (and so the sale
 * badge), as the checkout prices it. Sales are made through the sales tab's API, as an admin does.
 */
const { app, database } = await buildTestApp();
const { db } = database;
const { browser: admin } = await signedInAs(app, db, 'owner', {});
const day = 24 * 60 * 60 * 1000;
let counter = 0;
const shopper = () => testClient(app, { remoteAddress: `10.81.${Math.floor(++counter / 200)}.${counter % 200}` });

const made: string[] = [];
afterEach(async () => {
  for (const id of made.splice(0)) expect((await admin.delete(`/api/sales/${id}`)).statusCode).toBe(200);
});

async function sale(form: Record<string, unknown>) {
  const created = await admin.post('/api/sales', {
    name: 'Quiet Week',
    type: 'global',
    discountType: 'percentage',
    discountValue: 10,
    startDate: new Date(Date.now() - day).toISOString(),
    endDate: new Date(Date.now() + day).toISOString(),
    active: true,
    ...form,
  });
  expect(created.statusCode).toBe(201);
  const saved = created.json().sale as AdminSale;
  made.push(saved.id);
  return saved;
}

const listed = async () => {
  const response = await shopper().get('/api/products?limit=100');
  expect(response.statusCode).toBe(200);
  return new Map((response.json().products as ProductSummary[]).map((p) => [p.id, p]));
};
const product = async (slugOrId: string) => {
  const response = await shopper().get(`/api/products/${slugOrId}`);
  expect(response.statusCode).toBe(200);
  return response.json() as Product;
};
/** What the storefront charges for a unit: the sale price when below the price. */
const shown = (p: { price: number; salePrice: number | null }) =>
  p.salePrice !== null && p.salePrice < p.price ? p.salePrice : p.price;
/** The price a percentage sale gives, the lower of it and the own sale price winning. */
const expectedAfter = (percent: number, p: { price: number; salePrice: number | null }) =>
  Math.min(shown(p), discountedPrice({ kind: 'percentage', value: percent }, p.price));

describe('an automatic sale on the storefront', () => {
  test('a global sale lowers every listed price and the product page, variants included; the own lower sale price stays', async () => {
    const before = await listed();
    await sale({ discountValue: 25 });
    const after = await listed();
    expect(after.size).toBe(before.size);
    for (const [id, was] of before) {
      const now = after.get(id) as ProductSummary;
      expect(shown(now)).toBe(expectedAfter(25, was));
      now.skuVariants.forEach((variant, index) => {
        expect(shown(variant)).toBe(expectedAfter(25, was.skuVariants[index] as ProductSummary['skuVariants'][number]));
      });
    }
    // The fountain's own 77.99 is below 25% off its 129.98 (97.49); the search and the page agree.
    const fountain = await product('desktop-fountain');
    expect(fountain).toMatchObject({ price: 12998, salePrice: 7799 });
    const cheaper = [...before.values()].find((p) => p.salePrice === null && p.price > 0) as ProductSummary;
    const page = await product(cheaper.slug);
    expect(page.salePrice).toBe(discountedPrice({ kind: 'percentage', value: 25 }, cheaper.price));
    const found = await shopper().get(`/api/products/search/${encodeURIComponent(cheaper.title)}`);
    const hit = (found.json().products as ProductSummary[]).find((p) => p.id === cheaper.id);
    expect(hit?.salePrice).toBe(page.salePrice);
  });

  test('a category sale lowers only that category', async () => {
    const [decor] = await db.select().from(categories).where(eq(categories.slug, 'decor'));
    const before = await listed();
    await sale({ type: 'category', targetId: decor?.id, discountType: 'fixed_amount', discountValue: 500 });
    const after = await listed();
    let lowered = 0;
    for (const [id, was] of before) {
      const now = after.get(id) as ProductSummary;
      if (was.categories.includes('Decor')) {
        const expected = Math.min(shown(was), discountedPrice({ kind: 'fixed_amount', value: 500 }, was.price));
        expect(shown(now)).toBe(expected);
        if (expected < shown(was)) lowered++;
      } else {
        expect(now.salePrice).toBe(was.salePrice);
      }
    }
    expect(lowered).toBeGreaterThan(0);
  });

  test('a product sale lowers that product only; a SKU sale that variant only', async () => {
    const plain = await simpleProduct(db);
    const { product: withVariants, variant } = await variantProduct(db);
    const before = await listed();
    await sale({ type: 'product', targetId: plain.id, discountType: 'fixed_price', discountValue: 100 });
    await sale({ type: 'sku', targetId: variant.skuId, discountType: 'fixed_price', discountValue: 200 });
    const after = await listed();
    for (const [id, was] of before) {
      const now = after.get(id) as ProductSummary;
      if (id === plain.id) expect(now.salePrice).toBe(100);
      else if (id === withVariants.id) {
        expect(now.salePrice).toBe(was.salePrice);
        for (const v of now.skuVariants) {
          const old = was.skuVariants.find((w) => w.skuId === v.skuId);
          expect(v.salePrice).toBe(v.skuId === variant.skuId ? 200 : old?.salePrice);
        }
      } else expect(now).toEqual(was);
    }
    const page = await product(withVariants.id);
    expect(page.skuVariants.find((v) => v.skuId === variant.skuId)?.salePrice).toBe(200);
  });

  test('a coupon sale, a sale with a minimum purchase, an inactive sale, or one outside its dates changes nothing', async () => {
    const before = await listed();
    await sale({ couponCode: `QUIET${Date.now().toString(36).toUpperCase()}`, discountValue: 50 });
    await sale({ minimumPurchase: 100, discountValue: 50 });
    await sale({ active: false, discountValue: 50 });
    await sale({
      discountValue: 50,
      startDate: new Date(Date.now() + day).toISOString(),
      endDate: new Date(Date.now() + 2 * day).toISOString(),
    });
    await sale({
      discountValue: 50,
      startDate: new Date(Date.now() - 2 * day).toISOString(),
      endDate: new Date(Date.now() - day).toISOString(),
    });
    expect(await listed()).toEqual(before);
  });

  test('a sale at its usage limit shows no more', async () => {
    const plain = await simpleProduct(db);
    const limited = await sale({ type: 'product', targetId: plain.id, discountValue: 50, usageLimit: 3 });
    expect((await product(plain.id)).salePrice).toBe(discountedPrice({ kind: 'percentage', value: 50 }, plain.price));
    await db.update(sales).set({ usageCount: 3 }).where(eq(sales.id, limited.id));
    // Any sale's write is heard: the running sales are read again and the cache dropped.
    await sale({ active: false });
    expect((await product(plain.id)).salePrice).toBe(plain.salePrice);
  });

  test('a product with a single active variant is shown at the price of that variant, as the cart prices it', async () => {
    // The seed's River Stone Bookends have one active variant.
    const bookends = await product('river-stone-bookends');
    const only = bookends.skuVariants.filter((v) => v.isActive);
    expect(only).toHaveLength(1);
    const variant = only[0];
    if (!variant) throw new Error('no variant');
    await sale({ type: 'sku', targetId: variant.skuId, discountType: 'percentage', discountValue: 25 });
    const shown = discountedPrice({ kind: 'percentage', value: 25 }, variant.price);
    expect((await listed()).get(bookends.id)?.salePrice).toBe(shown);
    expect((await product(bookends.id)).salePrice).toBe(shown);
  });

  test('a sale starting or ending by its dates is seen without a write: the cache does not outlive it', async () => {
    const plain = await simpleProduct(db);
    const startsIn = 1500;
    await sale({
      type: 'product',
      targetId: plain.id,
      discountValue: 40,
      startDate: new Date(Date.now() + startsIn).toISOString(),
      endDate: new Date(Date.now() + 2 * startsIn).toISOString(),
    });
    const first = await shopper().get(`/api/products/${plain.id}`);
    expect(first.json().salePrice).toBe(plain.salePrice);
    // Browsers keep it no longer than until the start either, stale-while-revalidate included.
    const cacheControl = String(first.headers['cache-control']);
    const maxAge = Number(/max-age=(\d+)/.exec(cacheControl)?.[1]);
    const stale = Number(/stale-while-revalidate=(\d+)/.exec(cacheControl)?.[1]);
    expect(maxAge + stale).toBeLessThanOrEqual(2);
    await new Promise((resolve) => setTimeout(resolve, startsIn + 50));
    expect((await product(plain.id)).salePrice).toBe(discountedPrice({ kind: 'percentage', value: 40 }, plain.price));
    await new Promise((resolve) => setTimeout(resolve, startsIn + 50));
    expect((await product(plain.id)).salePrice).toBe(plain.salePrice);
  });

  test('the checkout charges exactly the price shown, for a product and a variant', async () => {
    const plain = await simpleProduct(db);
    const { product: withVariants, variant } = await variantProduct(db);
    await sale({ discountType: 'fixed_amount', discountValue: 333 });
    await sale({ type: 'sku', targetId: variant.skuId, discountValue: 30 });
    const page = await product(plain.id);
    const variantPage = (await product(withVariants.id)).skuVariants.find((v) => v.skuId === variant.skuId);
    expect(page.salePrice).toBe(discountedPrice({ kind: 'fixed_amount', value: 333 }, plain.price));
    const created = await shopper().post('/api/create-or-update-payment-intent', {
      metaVersion: 2,
      items: [
        { id: plain.id, quantity: 2 },
        { id: withVariants.id, skuId: variant.skuId, quantity: 1 },
      ],
      email: 'quiet.week@example.com',
      shipping: home,
      discountCodes: [],
    });
    expect(created.statusCode).toBe(200);
    const intent = created.json() as Intent;
    const variantShown = shown(variantPage as Product['skuVariants'][number]);
    const unitOf = new Map(intent.lines.map((line) => [line.key, line.unitPrice]));
    // The simple product may be priced through its one active variant (chosen implicitly): same price.
    const [plainLine] = intent.lines.filter((line) => line.key.startsWith(`${plain.id}:`));
    expect(plainLine?.unitPrice).toBe(shown(page));
    expect(unitOf.get(`${withVariants.id}:${variant.skuId}`)).toBe(variantShown);
    expect(intent.breakdown.subtotal).toBe(2 * shown(page) + variantShown);
  });
});
