import ExcelJS from 'exceljs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { AdminOrder } from '#common/contracts/admin/orders.ts';
import type { OrderStatus } from '#common/contracts/orders.ts';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { payments } from '#server/features/checkout/checkout.tables.ts';
import { fulfilments } from '#server/features/fulfilment/fulfilment.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { createAdminOrdersService } from './admin-orders.service.ts';
import { parseCsv } from './csv.ts';
import { orderItems, orders } from './orders.tables.ts';
import { exportHeaders } from './orders-export.ts';

/** The orders tab's API through the whole app, on a shop holding only the test's own orders. */
const { app, database } = await buildTestApp({ database: await createMigratedTestDatabase() });
const { db } = database;
const { id: adminId, account } = await signedInAs(app, db, 'admin', { downloadXlsx: true });
// The admin's requests, each from its own address: the tests make more than the admin rate limit allows.
const cookie = `sw_session=${await createSessionStore({ db }).create(adminId)}`;
let address = 0;
const admin = {
  get: (url: string) =>
    app.inject({ method: 'GET', url, headers: { cookie }, remoteAddress: `10.78.${++address >> 8}.${address & 255}` }),
};

const base = Date.UTC(2026, 0, 10, 12);
// Two orders share a time to the microsecond and two a total: ties keep the id's order.
const sameTime = new Date(base + 5 * 3_600_000);
const known: {
  orderNumber: string;
  customerName: string;
  email: string;
  status: OrderStatus;
  total: number;
  createdAt: Date;
  lines: [string, number, number][];
}[] = [
  {
    orderNumber: 'SW-100001',
    customerName: 'Ada Lovelace',
    email: 'ada@example.com',
    status: 'completed',
    total: 5400,
    createdAt: new Date(base),
    lines: [
      ['Calm lamp', 2, 2000],
      ['Tea set', 1, 1000],
    ],
  },
  {
    orderNumber: 'SW-100002',
    customerName: 'Grace Hopper',
    email: 'grace@example.org',
    status: 'shipped',
    total: 2100,
    createdAt: new Date(base + 3_600_000),
    lines: [['Desk fountain', 1, 2100]],
  },
  {
    orderNumber: 'SW-100003',
    customerName: '100% Cotton_Co',
    email: 'cotton@example.com',
    status: 'pending',
    total: 2100,
    createdAt: new Date(base + 2 * 3_600_000),
    lines: [['Throw', 1, 2100]],
  },
  {
    orderNumber: 'SW-100004',
    customerName: '=HYPERLINK("http://x.test","click")',
    email: 'formula@example.com',
    status: 'cancelled',
    total: 999,
    createdAt: new Date(base + 3 * 3_600_000),
    lines: [['Candle, "large"', 3, 333]],
  },
  {
    orderNumber: 'SW-100005',
    customerName: 'Édith Piaf',
    email: 'EDITH@Example.com',
    status: 'processing',
    total: 12000,
    createdAt: new Date(base + 4 * 3_600_000),
    lines: [],
  },
  {
    orderNumber: 'SW-100006',
    customerName: 'Alan Turing',
    email: 'alan@example.com',
    status: 'shipped',
    total: 700,
    createdAt: sameTime,
    lines: [['Stone', 1, 700]],
  },
  {
    orderNumber: 'SW-100007',
    customerName: '+Plus -Minus',
    email: 'plus@example.com',
    status: 'completed',
    total: 8800,
    createdAt: sameTime,
    lines: [['Pillow\nwith a newline', 4, 2200]],
  },
];
const ids = new Map<string, string>();
for (const order of known) {
  const [row] = await db
    .insert(orders)
    .values({
      orderNumber: order.orderNumber,
      customerName: order.customerName,
      email: order.email,
      status: order.status,
      subtotal: order.total - 100,
      tax: 100,
      total: order.total,
      createdAt: order.createdAt,
      userId: order.orderNumber === 'SW-100001' ? adminId : null,
      aliTrackingNumber: order.status === 'shipped' ? `LP00${order.orderNumber.slice(3)}` : null,
      shippingAddress: {
        name: order.customerName,
        street: '1 Quiet Lane',
        city: 'Portland',
        state: 'OR',
        zipCode: '97201',
        country: 'US',
      },
    })
    .returning({ id: orders.id });
  ids.set(order.orderNumber, row?.id ?? '');
  for (const [productName, quantity, unitPrice] of order.lines) {
    await db.insert(orderItems).values({ orderId: row?.id ?? '', productName, quantity, unitPrice });
  }
}
await db.insert(payments).values({
  provider: 'local',
  providerPaymentId: 'pi_test_1',
  status: 'succeeded',
  amount: 5400,
  breakdown: { subtotal: 5300, discount: 0, shipping: 0, tax: 100, processingFee: 0, total: 5400, currency: 'USD' },
  cart: { items: [], discountCodes: [], email: 'ada@example.com', newsletter: false, shipping: null, billing: null },
  orderId: ids.get('SW-100001') ?? null,
  cardBrand: 'visa',
  cardLast4: '4242',
});

const numbersOf = (list: AdminOrder[]) => list.map((order) => order.orderNumber);
async function listed(query: string): Promise<AdminOrder[]> {
  const response = await admin.get(`/api/admin/orders?limit=100&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json().orders;
}

describe('GET /api/admin/orders', () => {
  test('401 for visitors, 403 with the spec’s sentence without downloadXlsx, for the list and the export', async () => {
    const visitor = testClient(app, { remoteAddress: '10.77.0.1' });
    const { browser: other } = await signedInAs(app, db, 'admin', { manageUsers: true });
    for (const url of ['/api/admin/orders', '/api/admin/orders/export', '/api/admin/orders/export?format=csv']) {
      expect((await visitor.get(url)).statusCode).toBe(401);
      const refused = await other.get(url);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().error).toBe("You don't have permission to export data.");
    }
  });

  test.each([
    ['statusFilter=processing', 'statusFilter'],
    ['statusFilter=', 'statusFilter'],
    ['sortBy=customerName', 'sortBy'],
    ['sortOrder=up', 'sortOrder'],
    ['page=0', 'page'],
    ['limit=101', 'limit'],
    [`search=${'a'.repeat(101)}`, 'search'],
    ['search=ada%00', 'search'],
  ])('bad input (%s) is a 400 naming %s, for the list and the export', async (query, field) => {
    const paths = ['page', 'limit'].includes(field)
      ? ['/api/admin/orders']
      : ['/api/admin/orders', '/api/admin/orders/export'];
    for (const path of paths) {
      const response = await admin.get(`${path}?${query}`);
      expect(response.statusCode, `${path}?${query}`).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_input', field });
    }
    const format = await admin.get('/api/admin/orders/export?format=pdf');
    expect(format.statusCode).toBe(400);
    expect(format.json()).toMatchObject({ field: 'format' });
  });

  test('an order with every field of the spec, its card (brand and last 4 only) and its timeline', async () => {
    const [ada] = await listed('search=SW-100001');
    expect(ada).toEqual({
      id: ids.get('SW-100001'),
      orderNumber: 'SW-100001',
      customerInfo: { name: 'Ada Lovelace', email: 'ada@example.com' },
      // Lines keep one order (their ids'), not the order they were written in.
      items: expect.arrayContaining([
        { productName: 'Calm lamp', quantity: 2, price: 2000 },
        { productName: 'Tea set', quantity: 1, price: 1000 },
      ]),
      subtotal: 5300,
      discount: 0,
      discountCodes: [],
      shipping: 0,
      tax: 100,
      processingFee: 0,
      total: 5400,
      status: 'completed',
      createdAt: new Date(base).toISOString(),
      paymentMethod: 'Card',
      shippingAddress: { street: '1 Quiet Lane', city: 'Portland', state: 'OR', zipCode: '97201', country: 'US' },
      aliOrderId: null,
      aliTrackingNumber: null,
      user: { username: account.username },
      payment: { brand: 'visa', last4: '4242' },
      fulfilment: null,
      timeline: [
        { event: 'created', status: null, at: new Date(base).toISOString() },
        { event: 'paid', status: null, at: new Date(base).toISOString() },
        { event: 'status', status: 'completed', at: expect.any(String) },
      ],
    });
    expect(ada?.items).toHaveLength(2);
    const [grace] = await listed('search=grace');
    expect(grace).toMatchObject({ user: null, payment: null, aliTrackingNumber: 'LP00100002' });
    const [pending] = await listed('statusFilter=pending');
    expect(pending?.timeline.map((entry) => entry.event)).toEqual(['created']);
  });

  test('a supplier order that needs a person shows on the order, with the reason', async () => {
    const [grace] = await listed('search=grace');
    await db.insert(fulfilments).values({
      orderId: grace?.id as string,
      state: 'failed',
      attempts: 3,
      supplierStatus: 'FINISH',
      lastError: 'The supplier cancelled the order: refund the shopper or place it again by hand',
    });
    const [after] = await listed('search=grace');
    expect(after?.fulfilment).toMatchObject({
      state: 'failed',
      attempts: 3,
      supplierStatus: 'FINISH',
      lastError: 'The supplier cancelled the order: refund the shopper or place it again by hand',
    });
  });

  test('search: order number, name or email, case aside, % and _ literal', async () => {
    expect(numbersOf(await listed('search=100004'))).toEqual(['SW-100004']);
    expect(numbersOf(await listed('search=gRaCe%20HOP'))).toEqual(['SW-100002']);
    expect(numbersOf(await listed('search=example.ORG'))).toEqual(['SW-100002']);
    expect(numbersOf(await listed('search=edith@'))).toEqual(['SW-100005']);
    expect(numbersOf(await listed('search=%25'))).toEqual(['SW-100003']);
    expect(numbersOf(await listed('search=n_c'))).toEqual(['SW-100003']);
    expect(numbersOf(await listed('search=o_o'))).toEqual([]);
    expect(numbersOf(await listed('search=%20%20'))).toHaveLength(known.length);
  });

  test('status filter and every sort, ties in one order', async () => {
    expect(numbersOf(await listed('statusFilter=shipped&sortOrder=asc'))).toEqual(['SW-100002', 'SW-100006']);
    expect(numbersOf(await listed(''))).toEqual(
      [...known]
        .sort(
          (a, b) =>
            b.createdAt.getTime() - a.createdAt.getTime() ||
            (ids.get(b.orderNumber) ?? '').localeCompare(ids.get(a.orderNumber) ?? ''),
        )
        .map((o) => o.orderNumber),
    );
    const byTotal = await listed('sortBy=total&sortOrder=asc');
    expect(byTotal.map((order) => order.total)).toEqual(known.map((order) => order.total).sort((a, b) => a - b));
    const [first, second] = byTotal.filter((order) => order.total === 2100).map((order) => order.id);
    expect((first ?? '') < (second ?? '')).toBe(true);
    const byStatus = await listed('sortBy=status&sortOrder=desc');
    expect(byStatus.map((order) => order.status)).toEqual([
      'shipped',
      'shipped',
      'processing',
      'pending',
      'completed',
      'completed',
      'cancelled',
    ]);
  });

  test('pages of 10 by default, with the pagination', async () => {
    const response = await admin.get('/api/admin/orders?limit=3&page=3&sortBy=total');
    expect(response.json().pagination).toEqual({ page: 3, pages: 3, total: 7, limit: 3 });
    expect(response.json().orders).toHaveLength(1);
    const all = await admin.get('/api/admin/orders');
    expect(all.json().pagination).toEqual({ page: 1, pages: 1, total: 7, limit: 10 });
    expect(all.headers['cache-control']).toBe('private, no-store');
  });
});

/** The export's order numbers, one per line (an order without lines has one row). */
async function exportedXlsx(query: string) {
  const response = await admin.get(`/api/admin/orders/export?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(response.rawPayload as unknown as ArrayBuffer);
  const sheet = workbook.getWorksheet('Orders');
  const rows: ExcelJS.Row[] = [];
  sheet?.eachRow((row) => {
    rows.push(row);
  });
  return { response, rows };
}
async function exportedCsv(query: string) {
  const response = await admin.get(`/api/admin/orders/export?format=csv&${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return { response, records: parseCsv(response.body) };
}
const linesOf = (list: AdminOrder[]) =>
  list.flatMap((order) => (order.items.length ? order.items : [null]).map(() => order.orderNumber));

describe('GET /api/admin/orders/export', () => {
  test('orders.xlsx: a row per line, money as numbers in a currency format, dates as dates', async () => {
    const { response, rows } = await exportedXlsx('sortBy=total&sortOrder=desc');
    expect(response.headers['content-disposition']).toBe('attachment; filename="orders.xlsx"');
    expect(response.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    const [header, ...body] = rows;
    expect(header?.values).toEqual([undefined, ...exportHeaders]);
    expect(body.map((row) => row.getCell(1).value)).toEqual(linesOf(await listed('sortBy=total&sortOrder=desc')));
    const lamp = body.find((row) => row.getCell(7).value === 'Calm lamp');
    expect(lamp?.getCell(2).value).toEqual(new Date(base));
    expect(lamp?.getCell(2).numFmt).toBe('yyyy-mm-dd hh:mm');
    expect(lamp?.getCell(8).value).toBe(2);
    expect(lamp?.getCell(9).value).toBe(20);
    expect(lamp?.getCell(10).value).toBe(40);
    expect(lamp?.getCell(14).value).toBe(54);
    expect(lamp?.getCell(14).numFmt).toBe('"$"#,##0.00');
    expect(lamp?.getCell(6).value).toBe(account.username);
    const edith = body.find((row) => row.getCell(1).value === 'SW-100005');
    expect(edith?.getCell(7).value).toBeNull();
  });

  test('orders.csv: BOM, CRLF, RFC 4180 quoting, formulas neutralised, the same rows', async () => {
    const { response, records } = await exportedCsv('sortBy=createdAt&sortOrder=asc');
    expect(response.headers['content-disposition']).toBe('attachment; filename="orders.csv"');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    expect(response.body.endsWith('\r\n')).toBe(true);
    const [header, ...body] = records;
    expect(header).toEqual(exportHeaders);
    expect(body.map((record) => record[0])).toEqual(linesOf(await listed('sortBy=createdAt&sortOrder=asc')));
    expect(response.body).toContain(`,"'=HYPERLINK(""http://x.test"",""click"")",`);
    expect(response.body).toContain(',"Candle, ""large""",');
    expect(response.body).toContain(',"Pillow\nwith a newline",');
    const plus = body.find((record) => record[0] === 'SW-100007');
    expect(plus?.[3]).toBe("'+Plus -Minus");
    const lamp = body.find((record) => record[6] === 'Calm lamp');
    expect(lamp?.slice(1, 3)).toEqual([new Date(base).toISOString(), 'completed']);
    expect(lamp?.slice(7, 14)).toEqual(['2', '20.00', '40.00', '53.00', '0.00', '1.00', '54.00']);
  });

  test('property: for any filters, both exports hold exactly the list’s orders in its order', async () => {
    const filters = fc.record({
      search: fc.option(fc.constantFrom('sw-10000', 'example.com', '%', '_', 'a', 'É', 'zzz'), { nil: undefined }),
      statusFilter: fc.option(fc.constantFrom('pending', 'completed', 'cancelled', 'shipped'), { nil: undefined }),
      sortBy: fc.constantFrom('createdAt', 'total', 'status'),
      sortOrder: fc.constantFrom('asc', 'desc'),
    });
    await fc.assert(
      fc.asyncProperty(filters, async (chosen) => {
        const query = new URLSearchParams(
          Object.entries(chosen).flatMap(([key, value]): [string, string][] =>
            value === undefined ? [] : [[key, value]],
          ),
        ).toString();
        const expected = linesOf(await listed(query));
        const { records } = await exportedCsv(query);
        expect(records.slice(1).map((record) => record[0])).toEqual(expected);
        const { rows } = await exportedXlsx(query);
        expect(rows.slice(1).map((row) => row.getCell(1).value)).toEqual(expected);
      }),
      { numRuns: 12 },
    );
  });

  test('batches continue after ties to the microsecond, in both directions of every sort', async () => {
    const service = createAdminOrdersService({ db });
    for (const sortBy of ['createdAt', 'total', 'status'] as const) {
      for (const sortOrder of ['asc', 'desc'] as const) {
        const seen: string[] = [];
        for await (const batch of service.batches({ sortBy, sortOrder }, 2)) {
          seen.push(...batch.map(({ order }) => order.orderNumber));
        }
        expect(seen, `${sortBy} ${sortOrder}`).toEqual(
          numbersOf(await listed(`sortBy=${sortBy}&sortOrder=${sortOrder}`)),
        );
      }
    }
  });
});
