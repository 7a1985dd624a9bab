import { once } from 'node:events';
import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { AdminOrderRow, OrderLine } from './admin-orders.service.ts';
import { CSV_BOM, type CsvValue, csvRecord } from './csv.ts';

/** A batch of orders with their lines, in the list's order (AdminOrdersService.batches). */
export type OrderBatches = AsyncIterable<{ order: AdminOrderRow; lines: OrderLine[] }[]>;

type Kind = 'text' | 'int' | 'money' | 'date';

/** The export's columns: one row per order line, the order's fields repeated on each of its lines. */
const columns: { header: string; kind: Kind; width: number }[] = [
  { header: 'Order number', kind: 'text', width: 14 },
  { header: 'Date', kind: 'date', width: 18 },
  { header: 'Status', kind: 'text', width: 12 },
  { header: 'Customer name', kind: 'text', width: 22 },
  { header: 'Customer email', kind: 'text', width: 28 },
  { header: 'Username', kind: 'text', width: 16 },
  { header: 'Product', kind: 'text', width: 32 },
  { header: 'Quantity', kind: 'int', width: 10 },
  { header: 'Unit price', kind: 'money', width: 12 },
  { header: 'Line total', kind: 'money', width: 12 },
  { header: 'Subtotal', kind: 'money', width: 12 },
  { header: 'Shipping', kind: 'money', width: 12 },
  { header: 'Tax', kind: 'money', width: 12 },
  { header: 'Total', kind: 'money', width: 12 },
  { header: 'Payment method', kind: 'text', width: 14 },
  { header: 'Street', kind: 'text', width: 28 },
  { header: 'City', kind: 'text', width: 16 },
  { header: 'State', kind: 'text', width: 10 },
  { header: 'Zip code', kind: 'text', width: 10 },
  { header: 'Country', kind: 'text', width: 8 },
  { header: 'AliExpress order id', kind: 'text', width: 20 },
  { header: 'Tracking number', kind: 'text', width: 20 },
];

export const exportHeaders = columns.map((column) => column.header);

/** Cents as dollars: the spreadsheet's numbers carry a currency format (2 decimals, exact for cents). */
const dollars = (cents: number) => cents / 100;

type Cell = string | number | Date | null;

/** The rows of one order: its lines, or one row without a product when it has none. */
export function exportRowsOf(order: AdminOrderRow, lines: OrderLine[]): Cell[][] {
  const address = order.shippingAddress;
  const row = (line: OrderLine | null): Cell[] => [
    order.orderNumber,
    order.createdAt,
    order.status,
    order.customerName,
    order.email,
    order.username,
    line?.productName ?? null,
    line?.quantity ?? null,
    line ? dollars(line.unitPrice) : null,
    line ? dollars(line.unitPrice * line.quantity) : null,
    dollars(order.subtotal),
    dollars(order.shipping),
    dollars(order.tax),
    dollars(order.total),
    order.paymentMethod,
    address?.street ?? null,
    address?.city ?? null,
    address?.state ?? null,
    address?.zipCode ?? null,
    address?.country ?? null,
    order.aliOrderId,
    order.aliTrackingNumber,
  ];
  return lines.length === 0 ? [row(null)] : lines.map(row);
}

/**
 * Waits until `out` has room again (its reader is slower than the database), or it has closed
 * (the client went away): at most one batch is ever held in memory.
 */
async function roomIn(out: Writable) {
  if (!out.writableNeedDrain || out.destroyed) return;
  await Promise.race([once(out, 'drain'), once(out, 'close')]);
}

/** orders.xlsx, streamed: each row is committed (written out) as it is added. */
export async function writeOrdersXlsx(batches: OrderBatches, out: Writable) {
  // Fast compression: the zip's deflate is most of the export's time at the default level, for a
  // file a few percent larger.
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
    zip: { zlib: { level: 1 } },
  });
  const sheet = workbook.addWorksheet('Orders', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = columns.map(({ header, kind, width }) => ({
    header,
    width,
    style:
      kind === 'money'
        ? { numFmt: '"$"#,##0.00' }
        : kind === 'date'
          ? { numFmt: 'yyyy-mm-dd hh:mm' }
          : kind === 'int'
            ? { numFmt: '0' }
            : {},
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const batch of batches) {
    if (out.destroyed) return;
    for (const { order, lines } of batch) {
      for (const values of exportRowsOf(order, lines)) sheet.addRow(values).commit();
    }
    // A turn for the zip to take in the committed rows before the next batch is read.
    await new Promise((resolve) => setImmediate(resolve));
    await roomIn(out);
  }
  sheet.commit();
  await workbook.commit();
}

const csvValue = (value: Cell, kind: Kind | undefined): CsvValue => {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'number' && kind === 'money') return value.toFixed(2);
  return value;
};

/** orders.csv, streamed: the same rows as the XLSX (dates in ISO 8601 UTC, money in dollars). */
export async function writeOrdersCsv(batches: OrderBatches, out: Writable) {
  out.write(CSV_BOM + csvRecord(exportHeaders));
  for await (const batch of batches) {
    if (out.destroyed) return;
    let chunk = '';
    for (const { order, lines } of batch) {
      for (const values of exportRowsOf(order, lines)) {
        chunk += csvRecord(values.map((value, index) => csvValue(value, columns[index]?.kind)));
      }
    }
    out.write(chunk);
    await roomIn(out);
  }
  out.end();
}
