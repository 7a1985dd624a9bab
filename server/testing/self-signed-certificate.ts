import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { isIP } from 'node:net';

/*
 * A throwaway TLS certificate for tests that serve real HTTPS on 127.0.0.1. Node's crypto makes
 * keys and signatures but no certificates, so the few DER structures of an X.509 v3 certificate
 * (RFC 5280) are written here: an ECDSA P-256 key, the names as subjectAltName, one day of
 * validity. It is self-signed, so a client trusts it only when handed it as its CA, which is
 * what lets a test prove that the client verifies certificates at all.
 */

/** One DER element: tag, definite length, content. */
function der(tag: number, ...content: Buffer[]): Buffer {
  const body = Buffer.concat(content);
  const length =
    body.length < 0x80
      ? Buffer.from([body.length])
      : body.length < 0x100
        ? Buffer.from([0x81, body.length])
        : Buffer.from([0x82, body.length >> 8, body.length & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

const sequence = (...content: Buffer[]) => der(0x30, ...content);

/**
 * A non-negative DER INTEGER of the given big-endian bytes, encoded as DER demands: no leading zero
 * byte unless the next byte's high bit is set (OpenSSL refuses anything else as "illegal padding").
 */
export function unsignedInteger(bytes: Buffer): Buffer {
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  const digits = bytes.subarray(start);
  return der(0x02, (digits[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), digits]) : digits);
}

function objectId(dotted: string): Buffer {
  const [first = 0, second = 0, ...rest] = dotted.split('.').map(Number);
  const bytes = [first * 40 + second];
  for (const arc of rest) {
    const groups = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) groups.unshift((value & 0x7f) | 0x80);
    bytes.push(...groups);
  }
  return der(0x06, Buffer.from(bytes));
}

/** UTCTime, YYMMDDHHMMSSZ (valid for years before 2050, which a one-day certificate is). */
function utcTime(date: Date): Buffer {
  return der(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`, 'latin1'));
}

/** The IPv4 or IPv6 address as the 4 or 16 bytes a subjectAltName iPAddress holds. */
function addressBytes(address: string): Buffer {
  if (isIP(address) === 4) return Buffer.from(address.split('.').map(Number));
  const [head = '', tail = ''] = address.split('::');
  const groups = (part: string) => (part ? part.split(':').map((group) => Number.parseInt(group, 16)) : []);
  const left = groups(head);
  const right = address.includes('::') ? groups(tail) : [];
  const words = [...left, ...new Array(8 - left.length - right.length).fill(0), ...right];
  return Buffer.from(words.flatMap((word) => [word >> 8, word & 0xff]));
}

const ecdsaWithSha256 = sequence(objectId('1.2.840.10045.4.3.2'));
const commonName = (name: string) =>
  sequence(der(0x31, sequence(objectId('2.5.4.3'), der(0x0c, Buffer.from(name, 'utf8')))));

/**
 * A key and a certificate (both PEM) valid for the given host names and IP addresses, for one day.
 * The serial number is random unless given.
 */
export function selfSignedCertificate(hosts: string[], serial = randomBytes(8)): { key: string; cert: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const name = commonName('Stillwater test server');
  const now = Date.now();
  const alternativeNames = sequence(
    ...hosts.map((host) => (isIP(host) ? der(0x87, addressBytes(host)) : der(0x82, Buffer.from(host, 'latin1')))),
  );
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))), // version 3
    unsignedInteger(serial),
    ecdsaWithSha256,
    name,
    sequence(utcTime(new Date(now - 60_000)), utcTime(new Date(now + 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
    der(
      0xa3,
      sequence(
        sequence(objectId('2.5.29.19'), der(0x01, Buffer.from([0xff])), der(0x04, sequence())), // basicConstraints: critical, not a CA
        sequence(objectId('2.5.29.17'), der(0x04, alternativeNames)),
      ),
    ),
  );
  const signature = sign('sha256', tbs, { key: privateKey, dsaEncoding: 'der' });
  const certificate = sequence(tbs, ecdsaWithSha256, der(0x03, Buffer.from([0]), signature));
  const pem = (label: string, bytes: Buffer) =>
    `-----BEGIN ${label}-----\n${bytes
      .toString('base64')
      .match(/.{1,64}/g)
      ?.join('\n')}\n-----END ${label}-----\n`;
  return {
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    cert: pem('CERTIFICATE', certificate),
  };
}
