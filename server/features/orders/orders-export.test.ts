import { randomBytes } from 'node:crypto';
import { PassThrough, Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ExportLine, ExportOrder } from './admin-orders.service.ts';
import { parseCsv } from './csv.ts';
import { exportHeaders, loadExcel, type OrderBatches, writeOrdersCsv, writeOrdersXlsx } from './orders-export.ts';

/** The writers without a database: orders made here, in batches, each pull of a batch recorded. */
const created = new Date(Date.UTC(2026, 2, 1, 9, 30));

function order(n: number, productName: string | null): { order: ExportOrder; lines: ExportLine[] } {
  const id = n.toString(16).padStart(16, '0');
  return {
    order: {
      id,
      orderNumber: `SW-${300000 + n}`,
      customerName: `Buyer ${n}`,
      email: `buyer${n}@example.com`,
      subtotal: 1999,
      shipping: 499,
      tax: 0,
      total: 2498,
      status: 'completed',
      createdAt: created,
      paymentMethod: 'Card',
      shippingAddress:
        n % 2 === 0
          ? {
              name: `Buyer ${n}`,
              street: `${n} Quiet Lane`,
              city: 'Portland',
              state: 'OR',
              zipCode: '97201',
              country: 'US',
            }
          : null,
      aliOrderId: null,
      aliTrackingNumber: null,
      username: null,
      discount: 0,
      fee: 0,
      discountCodes: [],
    },
    lines: productName === null ? [] : [{ productName, quantity: 2, unitPrice: 1999 }],
  };
}

/**
 * `count` batches of `size` orders, each with one line named by `name`; `pulled(k)` runs when the
 * writer asks for batch k (0-based), before it is made.
 */
async function* batchesOf(
  count: number,
  size: number,
  name: (n: number) => string | null,
  pulled: (k: number) => void = () => {},
): OrderBatches {
  for (let k = 0; k < count; k += 1) {
    pulled(k);
    yield Array.from({ length: size }, (_, index) => order(k * size + index, name(k * size + index)));
  }
}

/** Everything written to a fast reader, and how much had come out at each moment asked. */
function reader() {
  const out = new PassThrough();
  const chunks: Buffer[] = [];
  let bytes = 0;
  out.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    bytes += chunk.length;
  });
  return { out, received: () => bytes, body: () => Buffer.concat(chunks) };
}

/** A reader that never reads: the writer fills its buffer once and then has to wait. */
const stalled = () =>
  new Writable({
    highWaterMark: 1024,
    write: () => {},
  });

describe('orders.xlsx', () => {
  // exceljs is loaded by the first export: loaded here, so the timed tests measure the export alone.
  beforeAll(() => loadExcel());

  test('money as numbers in a currency format, dates as dates, quantities as integers, empty cells left out', async () => {
    const { out, body } = reader();
    await writeOrdersXlsx(
      batchesOf(2, 3, (n) => (n === 4 ? null : `Lamp ${n}`)),
      out,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body() as unknown as ArrayBuffer);
    const sheet = workbook.getWorksheet('Orders');
    expect(sheet?.getRow(1).values).toEqual([undefined, ...exportHeaders]);
    expect(sheet?.getRow(1).getCell(1).font?.bold).toBe(true);
    const rows = [2, 3, 4, 5, 6, 7].map((number) => sheet?.getRow(number));
    for (const row of rows) {
      expect(row?.getCell(2).value).toEqual(created);
      expect(row?.getCell(2).numFmt).toBe('yyyy-mm-dd hh:mm');
      expect(row?.getCell(14).value).toBe(24.98);
      expect(row?.getCell(14).numFmt).toBe('"$"#,##0.00');
      expect(row?.getCell(13).value).toBe(0);
      expect(row?.getCell(13).numFmt).toBe('"$"#,##0.00');
      expect(row?.getCell(1).numFmt).toBeUndefined();
      expect(row?.getCell(21).value).toBeNull();
    }
    expect(rows[0]?.getCell(7).value).toBe('Lamp 0');
    expect(rows[0]?.getCell(8).value).toBe(2);
    expect(rows[0]?.getCell(8).numFmt).toBe('0');
    expect(rows[0]?.getCell(9).value).toBe(19.99);
    expect(rows[0]?.getCell(10).value).toBe(39.98);
    expect(rows[0]?.getCell(10).numFmt).toBe('"$"#,##0.00');
    expect(rows[0]?.getCell(16).value).toBe('0 Quiet Lane');
    expect(rows[1]?.getCell(16).value).toBeNull();
    // The order without lines: one row, no product, no line amounts.
    expect(rows[4]?.getCell(1).value).toBe('SW-300004');
    expect([7, 8, 9, 10].map((column) => rows[4]?.getCell(column).value)).toEqual([null, null, null, null]);
    expect(sheet?.getColumn(14).numFmt).toBe('"$"#,##0.00');
  });

  test('the zip takes in each batch before the next is read: the sheet never piles up in memory', async () => {
    // Product names of random hex, which deflate cannot shrink below 32 bytes a row: a batch of 500
    // rows is at least 16 kB of zip. Reading batch k, the reader must already hold most of the
    // batches before it; the writer that piled the sheet up read them all with ~nothing sent.
    const size = 500;
    const atPull: number[] = [];
    const { out, received } = reader();
    await writeOrdersXlsx(
      batchesOf(
        30,
        size,
        () => randomBytes(32).toString('hex'),
        () => atPull.push(received()),
      ),
      out,
    );
    const incompressible = size * 32;
    atPull.forEach((bytes, k) => {
      expect(bytes, `batch ${k}`).toBeGreaterThanOrEqual(Math.max(0, k - 2) * incompressible);
    });
  });

  test('a client that stops reading holds the batches back once the zip’s buffers are full; one that goes away ends the export', async () => {
    // Incompressible names again: each batch is at least 32 kB of zip, more than the zip streams
    // buffer between them, so the reads stop after a few batches instead of running to the end.
    const out = stalled();
    let pulls = 0;
    const writing = writeOrdersXlsx(
      batchesOf(
        100,
        1000,
        () => randomBytes(32).toString('hex'),
        () => {
          pulls += 1;
        },
      ),
      out,
    );
    // Until the pulls stop (on a loaded machine the first batches take a while), then still.
    const pause = () => new Promise((resolve) => setTimeout(resolve, 200));
    let stopped = -1;
    for (let waited = 0; waited < 50 && (pulls !== stopped || pulls === 0); waited += 1) {
      stopped = pulls;
      await pause();
    }
    expect(stopped).toBeLessThan(10);
    await pause();
    expect(pulls).toBe(stopped);
    out.destroy();
    await writing;
    expect(pulls).toBeLessThanOrEqual(stopped + 1);
  });
});

describe('orders.csv', () => {
  test('the same rows as the XLSX, money in dollars, dates in ISO 8601', async () => {
    const { out, body } = reader();
    await writeOrdersCsv(
      batchesOf(2, 3, (n) => (n === 4 ? null : `Lamp ${n}`)),
      out,
    );
    const [header, ...records] = parseCsv(body().toString('utf8'));
    expect(header).toEqual(exportHeaders);
    expect(records.map((record) => record[0])).toEqual([0, 1, 2, 3, 4, 5].map((n) => `SW-${300000 + n}`));
    expect(records[0]?.slice(1, 14)).toEqual([
      created.toISOString(),
      'completed',
      'Buyer 0',
      'buyer0@example.com',
      '',
      'Lamp 0',
      '2',
      '19.99',
      '39.98',
      '19.99',
      '4.99',
      '0.00',
      '24.98',
    ]);
    expect(records[4]?.slice(6, 10)).toEqual(['', '', '', '']);
  });

  test('waiting for a slow reader leaves no listener behind (one wait a batch, 60 batches)', async () => {
    const listeners: number[] = [];
    const out = new Writable({
      highWaterMark: 1024,
      write: (_chunk, _encoding, done) => setImmediate(done),
    });
    await writeOrdersCsv(
      batchesOf(
        60,
        20,
        (n) => `Lamp ${n}`,
        () => listeners.push(out.listenerCount('close') + out.listenerCount('drain')),
      ),
      out,
    );
    expect(Math.max(...listeners)).toBeLessThanOrEqual((listeners[0] ?? 0) + 1);
  });

  test('a client that stops reading holds the next batch back; one that goes away ends the export', async () => {
    const out = stalled();
    let pulls = 0;
    const writing = writeOrdersCsv(
      batchesOf(
        100,
        200,
        (n) => `Lamp ${n}`,
        () => {
          pulls += 1;
        },
      ),
      out,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(pulls).toBe(1);
    out.destroy();
    await writing;
    expect(pulls).toBeLessThanOrEqual(2);
  });
});
