import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { handleError } from '#server/http/errors.ts';
import { mediaRoutes } from '#server/http/media.routes.ts';
import { describeObjectStorage } from './object-storage.behaviour.ts';
import { type ObjectStorage, ObjectStorageError } from './object-storage.ts';
import { createS3ObjectStorage, storageErrorOf } from './s3-object-storage.ts';
import { startS3StandIn } from './s3-stand-in.ts';

const credentials = {
  bucket: 'stillwater-media',
  region: 'us-east-1',
  accessKeyId: 'AKIASTANDIN0000TEST',
  secretAccessKey: 'wJalr-stand-in-SECRET-7f3a9c1d2e',
};
let standIn: Awaited<ReturnType<typeof startS3StandIn>>;
let storage: ObjectStorage;
beforeAll(async () => {
  standIn = await startS3StandIn(credentials);
  storage = createS3ObjectStorage({ ...credentials, endpoint: standIn.endpoint });
});
afterAll(() => standIn.close());

describeObjectStorage('s3 (local stand-in over HTTP)', () => storage);

/** Every text a failure could leave in a log: the message, the whole object as a logger prints it, JSON. */
function everythingSaidBy(error: unknown): string {
  return [String(error), inspect(error, { depth: 8, showHidden: true }), JSON.stringify(error)].join('\n');
}

async function failureOf(promise: Promise<unknown>): Promise<ObjectStorageError> {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ObjectStorageError);
  return error as ObjectStorageError;
}

describe('s3 object storage', () => {
  test('objects go to the bucket, path-style, with their type, signed with the key pair', async () => {
    standIn.requests.length = 0;
    await storage.put('products/wire/1.webp', Buffer.from('RIFF'), 'image/webp');
    const stored = standIn.objects.get('products/wire/1.webp');
    expect(stored?.contentType).toBe('image/webp');
    expect(stored?.body.toString()).toBe('RIFF');
    const [put] = standIn.requests;
    expect(put?.method).toBe('PUT');
    expect(put?.path).toBe('/stillwater-media/products/wire/1.webp');
    expect(put?.headers.authorization).toMatch(
      /^AWS4-HMAC-SHA256 Credential=AKIASTANDIN0000TEST\/\d{8}\/us-east-1\/s3\//,
    );
    // No checksum headers that some compatible servers refuse.
    expect(Object.keys(put?.headers ?? {}).filter((name) => name.startsWith('x-amz-checksum'))).toEqual([]);
  });

  test('an object stored by another client is read with its stored type', async () => {
    standIn.objects.set('products/other/2.avif', { body: Buffer.from('avif'), contentType: 'image/avif', etag: '"x"' });
    expect(await storage.get('products/other/2.avif')).toEqual({
      body: Buffer.from('avif'),
      contentType: 'image/avif',
    });
  });

  test('without S3_PUBLIC_URL objects are served by the shop under /media/', () => {
    expect(storage.publicUrl('products/a/1.webp')).toBe('/media/products/a/1.webp');
  });

  test('with a public URL (a CDN or the bucket) objects are loaded from there', () => {
    for (const publicUrl of ['https://cdn.example.com/shop', 'https://cdn.example.com/shop/']) {
      const onCdn = createS3ObjectStorage({ ...credentials, endpoint: standIn.endpoint, publicUrl });
      expect(onCdn.publicUrl('products/a/1.webp')).toBe('https://cdn.example.com/shop/products/a/1.webp');
    }
  });

  test('a wrong secret is refused by the store: every method throws refused, naming no secret', async () => {
    const wrongSecret = 'wrong-SECRET-d41d8cd98f00b204e98';
    const refused = createS3ObjectStorage({ ...credentials, secretAccessKey: wrongSecret, endpoint: standIn.endpoint });
    for (const call of [
      () => refused.put('products/r/1.webp', Buffer.from('x'), 'image/webp'),
      () => refused.get('products/wire/1.webp'),
      () => refused.delete('products/wire/1.webp'),
    ]) {
      const error = await failureOf(call());
      expect(error.reason).toBe('refused');
      expect(error.message).toMatch(/403 SignatureDoesNotMatch.*check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY/);
      const said = everythingSaidBy(error);
      expect(said).not.toContain(wrongSecret);
      expect(said).not.toContain(credentials.secretAccessKey);
    }
    // Nor does the store itself, should it be logged whole.
    expect(inspect(refused, { depth: 8, showHidden: true })).not.toContain(wrongSecret);
    // Nothing was written or removed.
    expect(standIn.objects.has('products/r/1.webp')).toBe(false);
    expect(standIn.objects.has('products/wire/1.webp')).toBe(true);
  });

  test('an unknown access key is refused', async () => {
    const unknown = createS3ObjectStorage({ ...credentials, accessKeyId: 'AKIAUNKNOWN', endpoint: standIn.endpoint });
    const error = await failureOf(unknown.get('products/wire/1.webp'));
    expect(error.reason).toBe('refused');
    expect(error.message).toContain('InvalidAccessKeyId');
    expect(everythingSaidBy(error)).not.toContain(credentials.secretAccessKey);
  });

  test('a missing bucket is a failure naming the bucket', async () => {
    const elsewhere = createS3ObjectStorage({ ...credentials, bucket: 'no-such-bucket', endpoint: standIn.endpoint });
    const error = await failureOf(elsewhere.put('products/a/1.webp', Buffer.from('x'), 'image/webp'));
    expect(error.reason).toBe('failed');
    expect(error.message).toBe(
      'S3 storage put of "products/a/1.webp" in bucket "no-such-bucket" failed: the bucket does not exist (check S3_BUCKET)',
    );
  });

  test('a server error is retried, then a failure', async () => {
    standIn.requests.length = 0;
    standIn.setFault('server-error');
    try {
      const error = await failureOf(storage.get('products/wire/1.webp'));
      expect(error.reason).toBe('failed');
      expect(error.message).toContain('(500 InternalError)');
      expect(standIn.requests).toHaveLength(3);
    } finally {
      standIn.setFault(null);
    }
  });

  test('an endpoint nobody listens on is unreachable', async () => {
    const closed = createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const nowhere = createS3ObjectStorage({ ...credentials, endpoint: `http://127.0.0.1:${port}` });
    for (const call of [
      () => nowhere.put('products/a/1.webp', Buffer.from('x'), 'image/webp'),
      () => nowhere.get('products/a/1.webp'),
      () => nowhere.delete('products/a/1.webp'),
    ]) {
      const error = await failureOf(call());
      expect(error.reason).toBe('unreachable');
      expect(error.message).toMatch(/got no answer \(ECONNREFUSED\): check S3_ENDPOINT/);
      expect(everythingSaidBy(error)).not.toContain(credentials.secretAccessKey);
    }
  });

  test('a store that never answers is unreachable after the timeout', async () => {
    standIn.setFault('hang');
    try {
      const slow = createS3ObjectStorage({
        ...credentials,
        endpoint: standIn.endpoint,
        requestTimeoutMs: 150,
        maxAttempts: 1,
      });
      const started = Date.now();
      const error = await failureOf(slow.get('products/wire/1.webp'));
      expect(error.reason).toBe('unreachable');
      expect(error.message).toContain('(timed out)');
      expect(Date.now() - started).toBeLessThan(5_000);
    } finally {
      standIn.setFault(null);
    }
  });

  test("the shop's media route logs a refused store without the secret, and answers a plain 500", async () => {
    const lines: string[] = [];
    const app = Fastify({ logger: { level: 'info', stream: { write: (line: string) => lines.push(line) } } });
    app.setErrorHandler(handleError);
    const refused = createS3ObjectStorage({
      ...credentials,
      secretAccessKey: 'other-SECRET-0123456789',
      endpoint: standIn.endpoint,
    });
    await app.register(mediaRoutes, { storage: refused });
    try {
      const response = await app.inject({ method: 'GET', url: '/media/products/wire/1.webp' });
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toMatch(/SECRET|S3/);
      const log = lines.join('');
      expect(log).toContain('ObjectStorageError');
      expect(log).toContain('SignatureDoesNotMatch');
      expect(log).not.toContain('other-SECRET-0123456789');
      expect(log).not.toContain(credentials.secretAccessKey);
    } finally {
      await app.close();
    }
  });
});

describe('s3 error mapping', () => {
  const where = { operation: 'get', key: 'k.webp', bucket: 'b' };
  test.each([
    [{ name: 'AccessDenied', $metadata: { httpStatusCode: 403 } }, 'refused', '403 AccessDenied'],
    [{ name: 'Unauthorized', $metadata: { httpStatusCode: 401 } }, 'refused', '401 Unauthorized'],
    [
      Object.assign(new Error('getaddrinfo ENOTFOUND s3.example'), { code: 'ENOTFOUND', $metadata: {} }),
      'unreachable',
      'ENOTFOUND',
    ],
    [{ name: 'TimeoutError', $metadata: {} }, 'unreachable', 'timed out'],
    [{ name: 'SlowDown', $metadata: { httpStatusCode: 503 } }, 'failed', '503 SlowDown'],
    [{ name: '<script>', $metadata: { httpStatusCode: 502 } }, 'failed', '502 UnknownError'],
  ])('%o is %s', (error, reason, words) => {
    const mapped = storageErrorOf(error, where);
    expect(mapped.reason).toBe(reason);
    expect(mapped.message).toContain(words);
  });
});
