import { and, eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import type { AdminSale } from '#common/contracts/admin/sales.ts';
import { newId } from '#server/db/ids.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { categories, products } from '#server/features/catalog/catalog.tables.ts';
import { storedEventsAbout } from '#server/features/events/stored-events.testing.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { sales } from './marketing.tables.ts';

const { app, database } = await buildTestApp();
const { db } = database;
let counter = 0;

/** A browser signed in with a role, and a PATCH carrying the session and a fresh CSRF token as the admin app does. */
async function signedIn(role: UserRole = 'admin', permissions: AdminPermissions = { uploadProducts: true }) {
  const { browser, id } = await signedInAs(app, db, role, permissions);
  counter += 1;
  const remoteAddress = `10.78.${Math.floor(counter / 200)}.${counter % 200}`;
  async function patch(url: string, payload?: unknown, { csrf = true } = {}) {
    const token = (await browser.get('/api/auth/csrf-token')).json().token as string;
    const cookie = `sw_session=${browser.cookie('sw_session')}; sw_csrf=${browser.cookie('sw_csrf')}`;
    return app.inject({
      method: 'PATCH',
      url,
      remoteAddress,
      headers: { cookie, ...(csrf ? { 'x-csrf-token': token } : {}) },
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
  }
  return { browser, patch, id };
}

const day = 24 * 60 * 60 * 1000;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`.toUpperCase();

/** A valid create-sale form, as the tab sends it (money in cents, dates in ISO 8601). */
function saleForm(overrides: Record<string, unknown> = {}) {
  return {
    name: 'Quiet Week',
    description: 'Everything a little calmer.',
    type: 'global',
    targetId: null,
    discountType: 'percentage',
    discountValue: 15,
    couponCode: null,
    startDate: new Date(Date.now() - day).toISOString(),
    endDate: new Date(Date.now() + 7 * day).toISOString(),
    usageLimit: null,
    minimumPurchase: 0,
    ...overrides,
  };
}

const auditOf = (id: string) =>
  db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.entityType, 'sale'), eq(auditLog.entityId, id)));

describe('GET /api/sales', () => {
  test('lists every sale with the spec fields, its usage, and the paid orders that used it in the range', async () => {
    const { browser } = await signedIn();
    const response = await browser.get('/api/sales?dateRange=30d');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const body = response.json() as { sales: AdminSale[]; dateRange: string };
    expect(body.dateRange).toBe('30d');
    const welcome = body.sales.find((sale) => sale.couponCode === 'WELCOME10');
    expect(welcome).toMatchObject({
      name: 'Welcome Offer',
      type: 'global',
      targetId: null,
      discountType: 'percentage',
      discountValue: 10,
      usageLimit: 1000,
      active: true,
    });
    expect(welcome?._id).toBe(welcome?.id);
    const fountains = body.sales.find((sale) => sale.couponCode === 'CALM15');
    expect(fountains).toMatchObject({ type: 'category', targetName: 'Fountains', minimumPurchase: 7500 });
    // The demo shop's orders that used WELCOME10: counted in the whole history at least as in 30 days.
    const all = (await browser.get('/api/sales?dateRange=all')).json() as { sales: AdminSale[] };
    const welcomeAll = all.sales.find((sale) => sale.couponCode === 'WELCOME10');
    expect(welcomeAll?.orders).toBeGreaterThan(0);
    expect(welcomeAll?.revenue).toBeGreaterThan(0);
    expect(welcomeAll?.orders).toBeGreaterThanOrEqual(welcome?.orders ?? 0);
    // Without a range: 30 days (spec 9).
    expect((await browser.get('/api/sales')).json().dateRange).toBe('30d');
  });

  test('pages: up to 100 sales without a page, as the spec client asks; the tab reads pages of 10', async () => {
    const { browser } = await signedIn();
    const whole = (await browser.get('/api/sales')).json() as { sales: AdminSale[]; pagination: { total: number } };
    expect(whole.sales).toHaveLength(Math.min(100, whole.pagination.total));
    expect(whole.pagination).toMatchObject({ page: 1, limit: 100 });
    const first = (await browser.get('/api/sales?limit=2')).json();
    const second = (await browser.get('/api/sales?limit=2&page=2')).json();
    expect(first.pagination).toEqual({
      page: 1,
      limit: 2,
      total: whole.pagination.total,
      pages: Math.ceil(whole.pagination.total / 2),
    });
    expect([...first.sales, ...second.sales].map((sale: AdminSale) => sale.id)).toEqual(
      whole.sales.slice(0, 4).map((sale) => sale.id),
    );
    for (const query of ['limit=101', 'limit=0', 'page=0', 'page=x']) {
      expect((await browser.get(`/api/sales?${query}`)).statusCode, query).toBe(400);
    }
  });

  test('an unknown range is a 400 naming it', async () => {
    const { browser } = await signedIn();
    const response = await browser.get('/api/sales?dateRange=2w');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field: 'dateRange' });
  });

  test('admins without uploadProducts are refused with the spec sentence; visitors need to sign in', async () => {
    const { browser } = await signedIn('admin', { downloadXlsx: true, manageUsers: true, manageNewsletters: true });
    const refused = await browser.get('/api/sales');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("You don't have permission to manage products.");
    const created = await browser.post('/api/sales', saleForm());
    expect(created.statusCode).toBe(403);
    const visitor = testClient(app, { remoteAddress: '10.78.250.1' });
    expect((await visitor.get('/api/sales')).statusCode).toBe(401);
  });
});

describe('POST /api/sales', () => {
  test('creates a sale (off until activated), trims and upper-cases its code, audits it and tells the live stream', async () => {
    const { browser, id: adminId } = await signedIn('owner', {});
    const code = `calm${unique()}`.toLowerCase();
    const [category] = await db.select().from(categories).limit(1);
    const response = await browser.post(
      '/api/sales',
      saleForm({
        name: '  Lantern Evenings  ',
        type: 'category',
        targetId: category?.id,
        discountType: 'fixed_amount',
        discountValue: 500,
        couponCode: `  ${code} `,
        usageLimit: 3,
        minimumPurchase: 2500,
      }),
    );
    expect(response.statusCode).toBe(201);
    const { sale, message } = response.json() as { sale: AdminSale; message: string };
    expect(message).toBe('Sale created');
    expect(sale).toMatchObject({
      name: 'Lantern Evenings',
      type: 'category',
      targetId: category?.id,
      targetName: category?.name,
      discountType: 'fixed_amount',
      discountValue: 500,
      couponCode: code.toUpperCase(),
      usageCount: 0,
      usageLimit: 3,
      minimumPurchase: 2500,
      active: false,
      orders: 0,
      revenue: 0,
    });
    const listed = (await browser.get('/api/sales')).json().sales as AdminSale[];
    expect(listed.find((row) => row.id === sale.id)).toEqual(sale);
    const [audited] = await auditOf(sale.id);
    expect(audited).toMatchObject({
      action: 'sale.created',
      actorUserId: adminId,
      details: { before: null, after: { name: 'Lantern Evenings', couponCode: code.toUpperCase() } },
    });
    const [event] = await storedEventsAbout<{ sale: AdminSale }>(db, sale.id, 1);
    expect(event).toMatchObject({ type: 'sale_created', collection: 'sales', data: { sale: { id: sale.id } } });
  });

  test('a global sale keeps no target; empty code means none', async () => {
    const { browser } = await signedIn();
    const response = await browser.post('/api/sales', saleForm({ targetId: 'ignored', couponCode: '   ' }));
    expect(response.statusCode).toBe(201);
    expect(response.json().sale).toMatchObject({ targetId: null, couponCode: null, targetName: null });
  });

  const later = new Date(Date.now() + 2 * day).toISOString();
  test.each([
    ['no name', { name: '  ' }, 'name'],
    ['an unknown type', { type: 'weekly' }, 'type'],
    ['a category sale without its target', { type: 'category', targetId: null }, 'targetId'],
    ['an unknown discount type', { discountType: 'bogo' }, 'discountType'],
    ['a negative discount', { discountValue: -1 }, 'discountValue'],
    ['a percentage over 100', { discountValue: 101 }, 'discountValue'],
    ['a discount given as text', { discountValue: '10' }, 'discountValue'],
    ['a fractional amount of cents', { discountType: 'fixed_amount', discountValue: 9.5 }, 'discountValue'],
    ['an end before the start', { startDate: later, endDate: new Date().toISOString() }, 'endDate'],
    ['an end equal to the start', { startDate: later, endDate: later }, 'endDate'],
    ['a date that is not a date', { startDate: 'next tuesday' }, 'startDate'],
    ['a usage limit of 0', { usageLimit: 0 }, 'usageLimit'],
    ['a negative minimum purchase', { minimumPurchase: -100 }, 'minimumPurchase'],
    ['a minimum purchase in fractions of a cent', { minimumPurchase: 12.5 }, 'minimumPurchase'],
    ['a code with spaces inside', { couponCode: 'TWO WORDS' }, 'couponCode'],
    ['a flash sale that is not on one product', { isFlashSale: true }, 'isFlashSale'],
    [
      'a flash sale behind a coupon code',
      { isFlashSale: true, type: 'product', targetId: newId(), couponCode: 'FLASH10' },
      'isFlashSale',
    ],
    [
      'a flash sale with a minimum purchase',
      { isFlashSale: true, type: 'product', targetId: newId(), minimumPurchase: 5000 },
      'isFlashSale',
    ],
  ])('refuses %s with a 400 naming the field', async (_, overrides, field) => {
    const { browser } = await signedIn();
    const response = await browser.post('/api/sales', saleForm(overrides));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field });
  });

  test.each([
    ['category', 'No category'],
    ['product', 'No product'],
    ['sku', 'No SKU'],
  ])('a %s target that does not exist is a 400 naming the target', async (type, message) => {
    const { browser } = await signedIn();
    const response = await browser.post('/api/sales', saleForm({ type, targetId: newId() }));
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ field: 'targetId', error: expect.stringContaining(message) });
  });

  test('a NUL byte, a missing CSRF token and an odd body are refused, never a 500', async () => {
    const { browser } = await signedIn();
    const nul = await browser.post('/api/sales', saleForm({ name: 'Calm\u0000Week' }));
    expect(nul.statusCode).toBe(400);
    const noToken = await browser.post('/api/sales', saleForm(), { csrf: false });
    expect(noToken.statusCode).toBe(403);
    const array = await browser.post('/api/sales', [saleForm()]);
    expect(array.statusCode).toBe(400);
  });

  test('a code already used by another sale is a 409 naming it, also when two admins save it at once', async () => {
    const { browser } = await signedIn();
    const code = `TWIN${unique()}`;
    const [first, second] = await Promise.all([
      browser.post('/api/sales', saleForm({ couponCode: code })),
      browser.post('/api/sales', saleForm({ couponCode: code.toLowerCase() })),
    ]);
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([201, 409]);
    const refused = [first, second].find((response) => response?.statusCode === 409);
    expect(refused?.json()).toEqual({
      code: 'coupon_code_taken',
      error: `Coupon code "${code}" is already used by another sale`,
    });
    const again = await browser.post('/api/sales', saleForm({ couponCode: code }));
    expect(again.statusCode).toBe(409);
    expect(await db.select().from(sales).where(eq(sales.couponCode, code))).toHaveLength(1);
  });
});

describe('PATCH and DELETE /api/sales/:id', () => {
  test('edit writes the whole form, audited with before and after; a code taken by another sale is a 409', async () => {
    const { browser, patch } = await signedIn();
    const created = (await browser.post('/api/sales', saleForm({ couponCode: `EDIT${unique()}` }))).json()
      .sale as AdminSale;
    const [product] = await db.select({ id: products.id, title: products.title }).from(products).limit(1);
    const edited = await patch(
      `/api/sales/${created.id}`,
      saleForm({
        name: 'Quiet Week, longer',
        type: 'product',
        targetId: product?.id,
        discountType: 'fixed_price',
        discountValue: 1999,
        couponCode: null,
        usageLimit: 10,
      }),
    );
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({
      message: 'Sale updated',
      sale: {
        id: created.id,
        name: 'Quiet Week, longer',
        type: 'product',
        targetName: product?.title,
        discountType: 'fixed_price',
        discountValue: 1999,
        couponCode: null,
        usageLimit: 10,
      },
    });
    const audited = await auditOf(created.id);
    expect(audited.map((row) => row.action)).toEqual(['sale.created', 'sale.updated']);
    expect(audited[1]?.details).toMatchObject({
      before: { name: 'Quiet Week', couponCode: created.couponCode },
      after: { name: 'Quiet Week, longer', couponCode: null },
    });

    const taken = await patch(`/api/sales/${created.id}`, saleForm({ couponCode: 'WELCOME10' }));
    expect(taken.statusCode).toBe(409);
    expect(taken.json().error).toBe('Coupon code "WELCOME10" is already used by another sale');
    const bad = await patch(`/api/sales/${created.id}`, saleForm({ discountValue: 150 }));
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('discountValue');
  });

  test('activate and deactivate switch the sale, each audited and announced; an edit leaves it as it is', async () => {
    const { browser, patch } = await signedIn();
    const created = (await browser.post('/api/sales', saleForm())).json().sale as AdminSale;
    const on = await patch(`/api/sales/${created.id}/activate`);
    expect(on.statusCode).toBe(200);
    expect(on.json()).toMatchObject({ message: 'Sale activated', sale: { active: true } });
    const edited = await patch(`/api/sales/${created.id}`, saleForm({ name: 'Still on', active: false }));
    expect(edited.json().sale).toMatchObject({ name: 'Still on', active: true });
    const off = await patch(`/api/sales/${created.id}/deactivate`);
    expect(off.json()).toMatchObject({ message: 'Sale deactivated', sale: { active: false } });
    expect((await auditOf(created.id)).map((row) => row.action)).toEqual([
      'sale.created',
      'sale.activated',
      'sale.updated',
      'sale.deactivated',
    ]);
    const events = await storedEventsAbout(db, created.id, 4);
    expect(events.map((event) => event.type)).toEqual(['sale_created', 'sale_updated', 'sale_updated', 'sale_updated']);
    const noToken = await patch(`/api/sales/${created.id}/activate`, undefined, { csrf: false });
    expect(noToken.statusCode).toBe(403);
  });

  test('delete removes the sale; unknown and malformed ids are 404 and 400', async () => {
    const { browser, patch } = await signedIn();
    const created = (await browser.post('/api/sales', saleForm())).json().sale as AdminSale;
    const removed = await browser.delete(`/api/sales/${created.id}`);
    expect(removed.statusCode).toBe(200);
    expect(removed.json()).toEqual({ message: 'Sale deleted' });
    expect(await db.select().from(sales).where(eq(sales.id, created.id))).toEqual([]);
    expect((await auditOf(created.id)).map((row) => row.action)).toEqual(['sale.created', 'sale.deleted']);
    expect((await storedEventsAbout(db, created.id, 2))[1]?.type).toBe('sale_deleted');

    for (const response of [
      await browser.delete(`/api/sales/${created.id}`),
      await patch(`/api/sales/${created.id}/activate`),
      await patch(`/api/sales/${created.id}`, saleForm()),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe(`Sale not found: ${created.id}`);
    }
    const malformed = await browser.delete('/api/sales/not-a-sale');
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json().field).toBe('id');
  });
});

describe('GET /api/sales/targets', () => {
  test('finds categories, products and SKUs by name for the form', async () => {
    const { browser } = await signedIn();
    const found = await browser.get('/api/sales/targets?type=category&search=fount');
    expect(found.statusCode).toBe(200);
    expect(found.json().targets).toEqual([{ id: expect.any(String), name: 'Fountains' }]);
    const productsFound = (await browser.get('/api/sales/targets?type=product')).json().targets;
    expect(productsFound.length).toBeGreaterThan(0);
    const skus = (await browser.get('/api/sales/targets?type=sku')).json().targets;
    expect(skus.length).toBeGreaterThan(0);
    // A % is literal, not a wildcard.
    expect((await browser.get('/api/sales/targets?type=category&search=%25')).json().targets).toEqual([]);
    expect((await browser.get('/api/sales/targets?type=global')).statusCode).toBe(400);
  });
});
