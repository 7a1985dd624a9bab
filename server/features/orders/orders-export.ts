import type { EventEmitter } from 'node:events';
import type { Writable } from 'node:stream';
import type ExcelJS from 'exceljs';
import type { ExportBatch, ExportLine, ExportOrder } from './admin-orders.service.ts';
import { CSV_BOM, type CsvValue, csvRecord } from './csv.ts';

/** A batch of orders with their lines, in the list's order (AdminOrdersService.batches). */
export type OrderBatches = AsyncIterable<Pick<ExportBatch[number], 'order' | 'lines'>[]>;

type Kind = 'text' | 'int' | 'money' | 'date';

/** The export's columns: one row per order line, the order's fields repeated on each of its lines. */
const columns: { header: string; kind: Kind; width: number }[] = [
  { header: 'Order number', kind: 'text', width: 14 },
  // Dates are written in UTC (the sheet has no time zone of its own), and the header says so.
  { header: 'Date (UTC)', kind: 'date', width: 18 },
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
  // Subtotal − discount + shipping + tax + processing fee = total.
  { header: 'Discount', kind: 'money', width: 12 },
  { header: 'Processing fee', kind: 'money', width: 14 },
  { header: 'Discount codes', kind: 'text', width: 18 },
];

export const exportHeaders = columns.map((column) => column.header);

/** Cents as dollars: the spreadsheet's numbers carry a currency format (2 decimals, exact for cents). */
const dollars = (cents: number) => cents / 100;

type Cell = string | number | Date | null;

/** The rows of one order: its lines, or one row without a product when it has none. */
export function exportRowsOf(order: ExportOrder, lines: ExportLine[]): Cell[][] {
  const address = order.shippingAddress;
  const row = (line: ExportLine | null): Cell[] => [
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
    dollars(order.discount),
    dollars(order.fee),
    order.discountCodes.join(' ') || null,
  ];
  return lines.length === 0 ? [row(null)] : lines.map(row);
}

/** Resolves on the first of these events, then stops listening to all of them (no listener left behind). */
function firstOf(events: [EventEmitter, string][]): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      for (const [emitter, name] of events) emitter.off(name, done);
      resolve();
    };
    for (const [emitter, name] of events) emitter.once(name, done);
  });
}

/**
 * Waits until `out` has room again (its reader is slower than the database), or it has closed
 * (the client went away): at most one batch is ever held in memory.
 */
async function roomIn(out: Writable) {
  if (!out.writableNeedDrain || out.destroyed) return;
  await firstOf([
    [out, 'drain'],
    [out, 'close'],
  ]);
}

/**
 * What exceljs's worksheet writer streams its XML into: the zip's entry for the sheet, a
 * readable-stream 2 PassThrough that feeds the deflate (neither is in exceljs's types).
 */
type SheetStream = { pipes?: unknown };
type ZipEntryInput = EventEmitter & {
  destroyed?: boolean;
  writableNeedDrain?: boolean;
  _writableState?: { needDrain?: boolean };
};

/** Whether the zip's entry holds more than its buffer's worth of XML (readable-stream 2 has no writableNeedDrain). */
const needsDrain = (input: ZipEntryInput) => input.writableNeedDrain ?? input._writableState?.needDrain ?? false;

/**
 * Waits until the zip has taken in the rows written so far, or `out` has closed. exceljs writes
 * the sheet's XML into the zip without waiting (its StreamBuf ignores backpressure) while the
 * deflate moves one chunk per turn of the event loop: without this wait the uncompressed sheet
 * piled up in memory (+107 MB of buffers for 100,000 orders). The deflate's reader is `out`, so a
 * slow client holds the next batch back too.
 */
async function zipCaughtUp(sheet: ExcelJS.Worksheet, out: Writable) {
  const { pipes } = (sheet as unknown as { stream: SheetStream }).stream;
  const input = Array.isArray(pipes) ? (pipes[0] as ZipEntryInput | undefined) : undefined;
  if (!input || typeof input.once !== 'function') {
    // Not the exceljs this was written for: only the client's backpressure can be honoured.
    await new Promise((resolve) => setImmediate(resolve));
    return roomIn(out);
  }
  while (needsDrain(input) && !input.destroyed && !out.destroyed) {
    await firstOf([
      [input, 'drain'],
      [input, 'close'],
      [input, 'error'],
      [out, 'close'],
    ]);
  }
  // A zip that failed never drains: the export fails (the route then cuts the download short).
  if (input.destroyed && !out.destroyed) throw new Error('the zip stopped before the sheet was written');
}

/** The number format of each kind of column: currency for money, a date and time for dates. */
const numFmtOf: Record<Kind, string | null> = {
  text: null,
  int: '0',
  money: '"$"#,##0.00',
  date: 'yyyy-mm-dd hh:mm',
};

/** exceljs, loaded by the first export rather than at start: it and its zip libraries are ~500 modules. */
export async function loadExcel() {
  return (await import('exceljs')).default;
}

/** orders.xlsx, streamed: each row is committed (written out) as it is added. */
export async function writeOrdersXlsx(batches: OrderBatches, out: Writable) {
  // Fast compression: the zip's deflate is most of the export's time at the default level, for a
  // file a few percent larger. For a slow client the zip (archiver) holds 64 kB of its output, not
  // its default of 1 MB (an archiver option that exceljs passes on but does not declare).
  const zip = { zlib: { level: 1 }, highWaterMark: 64 * 1024 };
  const Excel = await loadExcel();
  const workbook = new Excel.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
    zip,
  });
  const sheet = workbook.addWorksheet('Orders', { views: [{ state: 'frozen', ySplit: 1 }] });
  // One style object per kind of column, shared by all its cells: exceljs recognises a style
  // object it has seen (a WeakMap), where the fresh copy each cell gets cost it an XML rendering
  // per cell to find the style's id (a third of the export's time). The columns carry the number
  // formats too, for cells typed later in the spreadsheet.
  const styleOf = Object.fromEntries(
    Object.entries(numFmtOf).map(([kind, numFmt]) => [kind, numFmt ? { numFmt } : {}]),
  ) as Record<Kind, Partial<ExcelJS.Style>>;
  const styles = columns.map(({ kind }) => styleOf[kind]);
  sheet.columns = columns.map(({ header, width, kind }) => ({ header, width, style: styleOf[kind] }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  for await (const batch of batches) {
    if (out.destroyed) return;
    for (const { order, lines } of batch) {
      for (const values of exportRowsOf(order, lines)) {
        // Empty cells are left out (undefined) rather than written as empty cells.
        const row = sheet.addRow(values.map((value) => value ?? undefined));
        values.forEach((value, index) => {
          if (value !== null) row.getCell(index + 1).style = styles[index] as Partial<ExcelJS.Style>;
        });
        row.commit();
      }
    }
    await zipCaughtUp(sheet, out);
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
