import { X509Certificate } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { selfSignedCertificate, unsignedInteger } from './self-signed-certificate.ts';

describe('the tests’ self-signed certificate', () => {
  // A random serial starting with a zero byte (one in 128) once made OpenSSL refuse the
  // certificate ("illegal padding"), failing a suite at random.
  test.each([
    ['00 3a 01 02', '3A0102'],
    ['00 00 00 7f', '7F'],
    ['80 01', '8001'],
    ['00 80 01', '8001'],
  ])('a serial of bytes %s is encoded as DER asks, and read back as %s', (hex, serial) => {
    const bytes = Buffer.from(hex.replaceAll(' ', ''), 'hex');
    const certificate = new X509Certificate(selfSignedCertificate(['127.0.0.1', 'shop.test'], bytes).cert);
    expect(certificate.serialNumber).toBe(serial);
    expect(certificate.checkHost('shop.test')).toBe('shop.test');
    expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
  });

  test('an INTEGER has no leading zero byte unless its next byte has the high bit set', () => {
    expect(unsignedInteger(Buffer.from([0, 0, 0x7f]))).toEqual(Buffer.from([0x02, 1, 0x7f]));
    expect(unsignedInteger(Buffer.from([0, 0x80]))).toEqual(Buffer.from([0x02, 2, 0, 0x80]));
    expect(unsignedInteger(Buffer.from([0x80]))).toEqual(Buffer.from([0x02, 2, 0, 0x80]));
    expect(unsignedInteger(Buffer.from([0, 0]))).toEqual(Buffer.from([0x02, 1, 0]));
  });
});
