import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { countRows } from '#server/db/row-counts.ts';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { payments } from '#server/features/checkout/checkout.tables.ts';
import { fulfilments } from '#server/features/fulfilment/fulfilment.tables.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp, csrfHeaders } from '#server/testing/test-app.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';

// An admin list's page is one statement: the page's ids read first (pageIdsOf), then their
// details joined to them, so nothing is read for the rows an offset skips, and nothing after.
const statements: string[] = [];
const database = await createTestDatabase({ logQuery: (sql) => statements.push(sql) });
const { app } = await buildTestApp({ database });
const { db } = database;
// The orders, products and users tabs take their permissions (common/permissions.ts).
const { id: adminId } = await signedInAs(app, db, 'admin', {
  downloadXlsx: true,
  uploadProducts: true,
  manageUsers: true,
});
const cookie = `sw_session=${await createSessionStore({ db }).create(adminId)}`;

for (let n = 1; n <= 3; n += 1) {
  const [order] = await db
    .insert(orders)
    .values({
      orderNumber: `SW-20000${n}`,
      customerName: 'Ada Lovelace',
      email: 'ada@example.com',
      status: 'processing',
      subtotal: 4000,
      total: 4000,
    })
    .returning({ id: orders.id });
  const orderId = order?.id as string;
  await db.insert(orderItems).values([
    { orderId, productName: 'Calm lamp', quantity: 1, unitPrice: 3000 },
    { orderId, productName: 'Tea set', quantity: 1, unitPrice: 1000 },
  ]);
  await db.insert(payments).values({
    provider: 'local',
    providerPaymentId: `pi_statements_${n}`,
    status: 'succeeded',
    amount: 4000,
    breakdown: { subtotal: 4000, discount: 0, shipping: 0, tax: 0, processingFee: 0, total: 4000, currency: 'USD' },
    cart: { items: [], discountCodes: [], email: 'ada@example.com', newsletter: false, shipping: null, billing: null },
    orderId,
    cardBrand: 'visa',
    cardLast4: '4242',
  });
  await db
    .insert(fulfilments)
    .values({ orderId, state: 'placed', attempts: 1, supplierStatus: 'WAIT_SELLER_SEND_GOODS' });
}

async function statementsOf(url: string) {
  const before = statements.length;
  const response = await app.inject({ method: 'GET', url, headers: { cookie } });
  expect(response.statusCode, url).toBe(200);
  return { body: response.json(), sql: statements.slice(before).filter((sql) => !/pgboss/i.test(sql)) };
}

test('a page of admin orders, at an offset, is read whole in one statement: its lines, card and supplier order too', async () => {
  const { body, sql } = await statementsOf(
    '/api/admin/orders?search=SW-20000&page=2&limit=2&sortBy=createdAt&sortOrder=asc',
  );
  const reads = sql.filter((text) => /order_items|payments|fulfilments/.test(text));
  // A search's page is looked for in the newest orders, then (too few there) in its matches:
  // each read is one statement, never one per order.
  expect(reads).toHaveLength(2);
  for (const read of reads) expect(read).toMatch(/page_ids/);
  const [order] = body.orders;
  expect(order).toMatchObject({
    orderNumber: 'SW-200003',
    // In the lines' id order, which is not the order they were written in.
    items: expect.arrayContaining([
      { productName: 'Calm lamp', quantity: 1, price: 3000 },
      { productName: 'Tea set', quantity: 1, price: 1000 },
    ]),
    payment: { brand: 'visa', last4: '4242' },
    fulfilment: { state: 'placed', attempts: 1, supplierStatus: 'WAIT_SELLER_SEND_GOODS', lastError: null },
  });
  expect(order.items).toHaveLength(2);
  expect(Date.parse(order.fulfilment.updatedAt)).toBeGreaterThan(Date.now() - 60_000);
});

test("a page of admin reviews, at an offset, reads its ids first and joins its rows' products and authors alone", async () => {
  const { body, sql } = await statementsOf('/api/admin/reviews?page=2&limit=3');
  const reads = sql.filter((text) => /"reviews"/.test(text) && /"products"/.test(text));
  expect(reads).toHaveLength(1);
  expect(reads[0]).toMatch(/page_ids/);
  expect(body.reviews).toHaveLength(3);
  expect(body.reviews[0].productTitle).toEqual(expect.any(String));
});

test('an unsearched first page of the admin size has its limit written in (planned once), and reads the same rows', async () => {
  for (const list of ['products', 'orders', 'reviews', 'users']) {
    const key = list as 'products' | 'orders' | 'reviews' | 'users';
    const first = await statementsOf(`/api/admin/${list}?page=1&limit=10&sortBy=createdAt&sortOrder=desc`);
    const [read] = first.sql.filter((text) => /page_ids/.test(text));
    expect(read, list).toMatch(/ limit 10\)/);
    // Another size is read through placeholders: its first ten rows are the same ones.
    const wider = await statementsOf(`/api/admin/${list}?page=1&limit=11&sortBy=createdAt&sortOrder=desc`);
    const [widerRead] = wider.sql.filter((text) => /page_ids/.test(text));
    expect(widerRead, list).toMatch(/ limit \$\d+/);
    const ids = (body: Record<typeof key, { id: string }[]>) => body[key].map((row) => row.id);
    expect(ids(first.body).length, list).toBeGreaterThan(0);
    expect(ids(first.body), list).toEqual(ids(wider.body).slice(0, 10));
    expect(first.body.pagination, list).toMatchObject({ total: wider.body.pagination.total });
  }
  // A search's first page keeps its placeholders: the pattern is a free value.
  const searched = await statementsOf('/api/admin/orders?page=1&limit=10&search=SW-20000');
  expect(searched.sql.filter((text) => /page_ids/.test(text) && / limit 10\)/.test(text))).toHaveLength(0);
});

test("an unfiltered page of each admin list carries the list's total from the rollup: one statement for both, the sum alone past the last page", async () => {
  const sums = (sql: string[]) => sql.filter((text) => /row_counts/.test(text));
  for (const list of ['products', 'orders', 'reviews', 'users']) {
    const key = list as 'products' | 'orders' | 'reviews' | 'users';
    const rows = await countRows(db, [list]);
    expect(rows, list).toBeGreaterThan(0);
    const page = await statementsOf(`/api/admin/${list}?page=1&limit=10`);
    expect(sums(page.sql), list).toHaveLength(1);
    expect(sums(page.sql)[0], list).toMatch(/page_ids/);
    expect(page.body[key].length, list).toBeGreaterThan(0);
    expect(page.body.pagination, list).toMatchObject({ page: 1, total: rows });
    // Past the end the page has no row to carry it: the sum is read apart.
    const past = await statementsOf(`/api/admin/${list}?page=1000&limit=10`);
    expect(past.body[key], list).toEqual([]);
    expect(past.body.pagination, list).toMatchObject({ total: rows });
    expect(
      sums(past.sql).filter((text) => !/page_ids/.test(text)),
      list,
    ).toHaveLength(1);
  }
  // Filtered by a status, the list's count still comes first: it decides how the page is read.
  const pending = await statementsOf('/api/admin/orders?page=1&limit=10&statusFilter=pending');
  expect(sums(pending.sql).filter((text) => !/page_ids/.test(text))).toHaveLength(1);
  expect(pending.body.pagination).toMatchObject({ total: await countRows(db, ['orders:pending']) });
});

test("a search read again reads its page's rows by id, their details afresh, until a change event makes it search again", async () => {
  const patterns = (sql: string[]) => sql.filter((text) => /page_ids/.test(text) && /like/i.test(text));
  const byIds = (sql: string[]) => sql.filter((text) => /page_ids/.test(text) && /= any\(/i.test(text));
  const ids = (rows: { id: string }[]) => rows.map((row) => row.id);
  const firstOf = async (list: string) => (await statementsOf(`/api/admin/${list}?page=1&limit=10`)).body[list][0];
  const searches = {
    orders: 'ada lovelace',
    products: (await firstOf('products')).title,
    reviews: (await firstOf('reviews')).customerName,
    users: (await firstOf('users')).username,
  };
  for (const [list, search] of Object.entries(searches)) {
    const url = `/api/admin/${list}?page=1&limit=10&search=${encodeURIComponent(search)}`;
    const first = await statementsOf(url);
    expect(patterns(first.sql).length, list).toBeGreaterThan(0);
    expect(ids(first.body[list]).length, list).toBeGreaterThan(0);
    const again = await statementsOf(url);
    expect(patterns(again.sql), list).toEqual([]);
    expect(byIds(again.sql), list).toHaveLength(1);
    expect(again.body, list).toEqual(first.body);
  }

  // Written without an event (as no feature writes): the rows' details are read afresh...
  const url = `/api/admin/orders?page=1&limit=10&search=${encodeURIComponent(searches.orders)}`;
  const before = (await statementsOf(url)).body;
  const [newest] = before.orders;
  await db.update(fulfilments).set({ attempts: 7 }).where(eq(fulfilments.orderId, newest.id));
  const [updated] = (await statementsOf(url)).body.orders;
  expect(updated).toMatchObject({ id: newest.id, fulfilment: { attempts: 7 } });
  // ...while which rows match stays as searched: a new order shows after the next change event.
  await db.insert(orders).values({
    orderNumber: 'SW-300001',
    customerName: 'Ada Lovelace',
    email: 'ada@example.com',
    subtotal: 100,
    total: 100,
  });
  const remembered = await statementsOf(url);
  expect(remembered.body.orders.map((order: { orderNumber: string }) => order.orderNumber)).not.toContain('SW-300001');
  expect(remembered.body.pagination.total).toBe(before.pagination.total);
  const subscribed = await app.inject({
    method: 'POST',
    url: '/api/newsletter/subscribe',
    headers: await csrfHeaders(app),
    payload: { email: 'event@example.com' },
  });
  expect(subscribed.statusCode).toBe(200);
  const searched = await statementsOf(url);
  expect(patterns(searched.sql).length).toBeGreaterThan(0);
  expect(searched.body.orders[0]).toMatchObject({ orderNumber: 'SW-300001' });
  expect(searched.body.pagination.total).toBe(before.pagination.total + 1);
});
