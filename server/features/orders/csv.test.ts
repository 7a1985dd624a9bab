import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CSV_BOM, csvField, csvRecord, neutralised, parseCsv } from './csv.ts';

describe('the CSV writer', () => {
  test('RFC 4180: quoted only when needed, quotes doubled, CRLF after each record', () => {
    expect(csvRecord(['plain', 'a,b', 'say "hi"', 'two\nlines', 'cr\rhere', ''])).toBe(
      'plain,"a,b","say ""hi""","two\nlines","cr\rhere",\r\n',
    );
    expect(csvRecord([12, 0.5, null, undefined, -3])).toBe('12,0.5,,,-3\r\n');
  });

  test.each(['=1+1', '+1', '-1', '@SUM(A1)', '\tx', '\rx'])(
    'a formula-like text (%j) gets a leading apostrophe',
    (text) => {
      expect(neutralised(text)).toBe(`'${text}`);
      expect(parseCsv(csvRecord([text]))).toEqual([[`'${text}`]]);
    },
  );

  test('text that only contains the characters later is left alone; numbers stay numbers', () => {
    expect(csvField('a=b')).toBe('a=b');
    expect(csvField('1-2')).toBe('1-2');
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(Number.NaN)).toBe('');
  });

  test('the reader skips the byte order mark', () => {
    expect(parseCsv(`${CSV_BOM}a,b\r\n1,"2,3"\r\n`)).toEqual([
      ['a', 'b'],
      ['1', '2,3'],
    ]);
  });

  test('property: any records of any strings read back as written (neutralised)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'é', '😀', ',', '"', '\r', '\n', '\t', '=', '+', '-', '@', ' ', "'"),
    });
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.oneof(text, fc.string({ unit: 'binary' })), { minLength: 1, maxLength: 6 }), {
          maxLength: 8,
        }),
        (records) => {
          const written = CSV_BOM + records.map(csvRecord).join('');
          expect(parseCsv(written)).toEqual(records.map((record) => record.map(neutralised)));
        },
      ),
      { numRuns: 300 },
    );
  });
});
