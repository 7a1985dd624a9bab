/**
 * A CSV writer (RFC 4180) for spreadsheet apps: fields quoted when they hold a comma, a quote, CR
 * or LF (quotes doubled), records ended by CRLF, and the file starts with a UTF-8 byte order mark
 * so that Excel reads it as UTF-8.
 */

/** The byte order mark that opens the file. */
export const CSV_BOM = '\uFEFF';

export type CsvValue = string | number | null | undefined;

/**
 * Text that a spreadsheet would run as a formula (= + - @, or a leading tab or CR that some apps
 * strip first) gets a leading apostrophe, which shows the text as typed (OWASP's advice on CSV
 * injection). Numbers are written as numbers: a negative amount is not text.
 */
export function neutralised(text: string): string {
  return /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** One field: numbers as they are, text neutralised, then quoted when RFC 4180 needs it. */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  const text = neutralised(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** One record, CRLF included. */
export function csvRecord(values: readonly CsvValue[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}

/**
 * Reads a CSV written by `csvRecord` back into records of text (the tests' round trip, and a check
 * that the writer's quoting is the standard's). A leading BOM is skipped.
 */
export function parseCsv(input: string): string[][] {
  const text = input.startsWith(CSV_BOM) ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const character = text[i];
    if (quoted) {
      if (character === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else {
        field += character;
      }
      i += 1;
      continue;
    }
    if (character === '"' && field === '') {
      quoted = true;
    } else if (character === ',') {
      record.push(field);
      field = '';
    } else if (character === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i += 1;
    } else {
      field += character;
    }
    i += 1;
  }
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records;
}
