import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createAliExpressMarketplace } from '#server/adapters/marketplace/aliexpress-marketplace.ts';
import { selfSignedCertificate } from '#server/testing/self-signed-certificate.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';

/*
 * SSRF payloads through POST /api/admin/upload-aliexpress-image, downloaded by the real AliExpress
 * adapter (remote-fetch under the marketplace's image-host allow list): real HTTPS against an
 * "image host" on 127.0.0.1 and an "internal" server on 127.0.0.2 that must never be reached.
 * The marketplace's host names resolve through a table, and the address policy admits 127.0.0.1
 * only (standing in for the public internet).
 */

const certificate = selfSignedCertificate([
  'ae01.alicdn.com',
  'internal.alicdn.com',
  'mixed.alicdn.com',
  'ae01.aliexpress-media.com',
  '127.0.0.1',
]);
const maxBytes = 64 * 1024;

type Recorder = { server: Server; port: number; connections: number };
async function start(host: string, handler: Parameters<typeof createServer>[1]): Promise<Recorder> {
  const server = createServer(certificate, handler);
  const recorder: Recorder = { server, port: 0, connections: 0 };
  server.on('connection', () => recorder.connections++);
  server.listen(0, host);
  await once(server, 'listening');
  recorder.port = (server.address() as AddressInfo).port;
  return recorder;
}

let host: Recorder;
let internal: Recorder;
let png: Buffer;

beforeAll(async () => {
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#4a7c59' } })
    .png()
    .toBuffer();
  host = await start('127.0.0.1', (req, res) => {
    const url = new URL(req.url ?? '/', 'https://ae01.alicdn.com');
    if (url.pathname === '/kf/photo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (url.pathname === '/kf/page.jpg')
      return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<!doctype html><script>alert(1)</script>');
    if (url.pathname === '/kf/huge.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(png.subarray(0, 16));
      const chunk = Buffer.alloc(16 * 1024);
      for (let sent = 0; sent <= maxBytes; sent += chunk.length) res.write(chunk);
      return res.end();
    }
    if (url.pathname === '/kf/hang.png') return;
    if (url.pathname === '/to') return res.writeHead(302, { location: url.searchParams.get('location') ?? '' }).end();
    res.writeHead(404).end();
  });
  internal = await start('127.0.0.2', (_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
});

afterAll(async () => {
  for (const { server } of [host, internal]) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

const table: Record<string, string[]> = {
  'ae01.alicdn.com': ['127.0.0.1'],
  'ae01.aliexpress-media.com': ['127.0.0.1'],
  'internal.alicdn.com': ['127.0.0.2'],
  // One admitted address and one private one: neither is trusted.
  'mixed.alicdn.com': ['127.0.0.1', '10.0.0.7'],
  // A public-looking name that resolves to the cloud metadata address.
  'metadata.alicdn.com': ['169.254.169.254'],
};
const resolve = async (hostname: string): Promise<LookupAddress[]> => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: 4 }));
};

const marketplace = createAliExpressMarketplace({
  appKey: '503123',
  appSecret: 'a1b2c3d4e5f6a7b8c9d0',
  accessToken: 'token-for-the-test',
  apiBase: 'https://127.0.0.1:9',
  imageFetch: {
    ca: certificate.cert,
    resolve,
    isAllowedAddress: (address) => address === '127.0.0.1',
    // The test servers' ports stand for 443.
    get ports() {
      return [host.port, internal.port];
    },
    maxBytes,
    timeoutMs: 1500,
  },
});
const { app, database } = await buildTestApp({ marketplace });

const at = (path: string, name = 'ae01.alicdn.com', port?: number) => `https://${name}:${port ?? host.port}${path}`;

async function upload(imageUrl: string) {
  const { browser } = await signedInAs(app, database.db, 'owner');
  return browser.post('/api/admin/upload-aliexpress-image', { aliId: '1005006384127590', imageUrl });
}

describe('importing a marketplace picture through the AliExpress adapter', () => {
  test('a picture on an allowed host is downloaded and stored', async () => {
    const response = await upload(at('/kf/photo.png'));
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({ width: 64, height: 48, name: 'photo' });
    expect((await upload(at('/kf/photo.png', 'ae01.aliexpress-media.com'))).statusCode).toBe(201);
  });

  test.each([
    // The URL itself.
    ['not a url', 400, 'invalid_url'],
    [() => at('/kf/photo.png').replace('https:', 'http:'), 400, 'not_https'],
    ['file:///etc/passwd', 400, 'not_https'],
    ['javascript:alert(1)', 400, 'not_https'],
    ['gopher://ae01.alicdn.com:70/_INFO', 400, 'not_https'],
    [() => at('/kf/photo.png').replace('https://', 'https://user:pw@'), 400, 'invalid_url'],
    // Hosts that are not the marketplace's.
    ['https://evil.example/kf/photo.png', 400, 'host_not_allowed'],
    ['https://alicdn.com.evil.example/x.png', 400, 'host_not_allowed'],
    ['https://127.0.0.1/kf/photo.png', 400, 'host_not_allowed'],
    ['https://169.254.169.254/latest/meta-data/', 400, 'host_not_allowed'],
    ['https://[::1]/kf/photo.png', 400, 'host_not_allowed'],
    ['https://10.0.0.1/kf/photo.png', 400, 'host_not_allowed'],
    ['https://ae01.alicdn.com:22/kf/photo.png', 400, 'host_not_allowed'],
    // Allowed names that resolve to private, loopback or link-local addresses.
    [() => at('/secret.png', 'internal.alicdn.com', internal.port), 400, 'private_address'],
    [() => at('/kf/photo.png', 'mixed.alicdn.com'), 400, 'private_address'],
    [() => at('/latest/meta-data/', 'metadata.alicdn.com'), 400, 'private_address'],
    // Redirects are checked hop by hop.
    [
      () => at(`/to?location=${encodeURIComponent(`https://127.0.0.1:${internal.port}/secret`)}`),
      400,
      'host_not_allowed',
    ],
    [
      () => at(`/to?location=${encodeURIComponent(at('/secret', 'internal.alicdn.com', internal.port))}`),
      400,
      'private_address',
    ],
    [() => at(`/to?location=${encodeURIComponent('http://ae01.alicdn.com/kf/photo.png')}`), 400, 'not_https'],
    // What comes back.
    [() => at('/kf/huge.png'), 413, 'too_large'],
    [() => at('/kf/page.jpg'), 422, 'not_an_image'],
    [() => at('/kf/hang.png'), 504, 'too_slow'],
    [() => at('/kf/missing.png'), 502, 'upstream_status'],
    [() => at('/kf/photo.png', 'ae02.alicdn.com'), 502, 'unreachable'],
  ])('%s is refused: %i %s', async (url, status, code) => {
    const response = await upload(typeof url === 'function' ? url() : url);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code, error: expect.any(String) });
  });

  test('the internal server was never reached', () => {
    expect(internal.connections).toBe(0);
  });
});
