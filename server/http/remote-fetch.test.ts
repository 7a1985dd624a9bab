import type { LookupAddress } from 'node:dns';
import { once } from 'node:events';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { selfSignedCertificate } from '#server/testing/self-signed-certificate.ts';
import { fetchRemoteImage, imageTypeOf, marketplaceImageHosts, type RemoteFetchOptions } from './remote-fetch.ts';

/*
 * Real HTTPS against local servers with a certificate made for the test: the image host on
 * 127.0.0.1 and an "internal" server on 127.0.0.2 that no fetch may ever reach. Test names
 * resolve through a table, and the address policy admits 127.0.0.1 only (the default policy,
 * which admits neither, has tests of its own).
 */

const names = ['images.test', 'other.test', 'internal.test', 'mixed.test', 'flip.test', 'localhost'];
const certificate = selfSignedCertificate([...names, '127.0.0.1', '::1']);

type Recorder = { server: Server; port: number; connections: number; paths: string[] };

async function start(host: string, handler: Parameters<typeof createServer>[1]): Promise<Recorder> {
  const server = createServer(certificate, handler);
  const recorder: Recorder = { server, port: 0, connections: 0, paths: [] };
  server.on('connection', () => recorder.connections++);
  server.on('request', (req) => recorder.paths.push(req.url ?? ''));
  server.listen(0, host);
  await once(server, 'listening');
  recorder.port = (server.address() as AddressInfo).port;
  return recorder;
}

let host: Recorder;
let internal: Recorder;
let png: Buffer;
let jpeg: Buffer;
let webp: Buffer;
const maxBytes = 64 * 1024;

beforeAll(async () => {
  const pixels = sharp({ create: { width: 4, height: 4, channels: 3, background: '#4a7c59' } });
  [png, jpeg, webp] = await Promise.all([
    pixels.clone().png().toBuffer(),
    pixels.clone().jpeg().toBuffer(),
    pixels.clone().webp().toBuffer(),
  ]);
  host = await start('127.0.0.1', (req, res) => {
    const url = new URL(req.url ?? '/', 'https://images.test');
    const path = url.pathname;
    if (path === '/photo.png') return res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    if (path === '/photo.jpg') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end(jpeg);
    // Mislabelled: the content decides.
    if (path === '/photo.webp') return res.writeHead(200, { 'content-type': 'text/plain' }).end(webp);
    if (path === '/page') return res.writeHead(200, { 'content-type': 'image/jpeg' }).end('<!doctype html><p>hello');
    if (path === '/tiny') return res.writeHead(200, { 'content-type': 'image/png' }).end(png.subarray(0, 4));
    if (path === '/missing') return res.writeHead(404).end();
    if (path === '/declared-large')
      return res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(maxBytes + 1) }).write(png);
    if (path === '/streamed-large') {
      // No Content-Length: an image's start, then more than the limit.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(png.subarray(0, 16));
      const chunk = Buffer.alloc(16 * 1024);
      for (let sent = 0; sent <= maxBytes; sent += chunk.length) res.write(chunk);
      return res.end();
    }
    if (path === '/large-page') {
      res.writeHead(200, { 'content-type': 'image/jpeg' });
      return res.write(Buffer.alloc(1024, 'x')); // never ends: the type is judged from the start
    }
    if (path === '/hang') return; // no answer at all
    if (path === '/trickle') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.write(png.subarray(0, 16)); // headers and a start, then nothing
    }
    if (path.startsWith('/hops/')) {
      const left = Number(path.slice('/hops/'.length));
      return res.writeHead(302, { location: left > 0 ? `/hops/${left - 1}` : '/photo.png' }).end();
    }
    if (path === '/to') return res.writeHead(301, { location: url.searchParams.get('location') ?? '' }).end();
    if (path === '/nowhere') return res.writeHead(302).end();
    res.writeHead(500).end();
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
  'images.test': ['127.0.0.1'],
  'other.test': ['127.0.0.1'],
  'internal.test': ['127.0.0.2'],
  'mixed.test': ['127.0.0.1', '127.0.0.2'],
};
const resolve = async (hostname: string): Promise<LookupAddress[]> => {
  const addresses = table[hostname];
  if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses.map((address) => ({ address, family: 4 }));
};

/** The image host's options: test names, the test CA, 127.0.0.1 admitted, the servers' ports. */
const options = (overrides: RemoteFetchOptions = {}): RemoteFetchOptions => ({
  allowedHosts: ['images.test', '*.images.test', 'internal.test', 'mixed.test', 'flip.test'],
  ports: [host.port, internal.port],
  ca: certificate.cert,
  resolve,
  isAllowedAddress: (address) => address === '127.0.0.1',
  maxBytes,
  timeoutMs: 2000,
  ...overrides,
});
const at = (path: string, name = 'images.test', port = host.port) => `https://${name}:${port}${path}`;

describe('fetchRemoteImage: the good path', () => {
  test.each([
    ['/photo.png', 'image/png', () => png],
    ['/photo.jpg', 'image/jpeg', () => jpeg],
    ['/photo.webp', 'image/webp', () => webp],
  ])('%s answers its bytes and its type by content', async (path, type, bytes) => {
    const answer = await fetchRemoteImage(at(path), options());
    expect(answer).toEqual({ ok: true, url: at(path), contentType: type, bytes: bytes() });
  });

  test('redirects are followed, relative ones too, up to the limit, and the final URL is answered', async () => {
    const answer = await fetchRemoteImage(at('/hops/1'), options({ maxRedirects: 3 }));
    expect(answer).toMatchObject({ ok: true, url: at('/photo.png'), contentType: 'image/png' });
  });

  test('the name is resolved once per connection, so the address checked is the address connected to', async () => {
    // A rebinding name: the first answer is admitted, every later one points inside.
    let calls = 0;
    const rebinding = async (hostname: string) => {
      calls++;
      return [{ address: calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }].filter(() => hostname === 'flip.test');
    };
    const before = internal.connections;
    const answer = await fetchRemoteImage(at('/photo.png', 'flip.test'), options({ resolve: rebinding }));
    expect(answer).toMatchObject({ ok: true, contentType: 'image/png' });
    expect(calls).toBe(1);
    expect(internal.connections).toBe(before);
  });
});

describe('fetchRemoteImage: refusals', () => {
  test.each([
    ['not a url', 'invalid_url'],
    ['https://user:secret@images.test/photo.png', 'invalid_url'],
    ['http://images.test/photo.png', 'not_https'],
    ['ftp://images.test/photo.png', 'not_https'],
    ['file:///etc/passwd', 'not_https'],
    ['https://evil.test/photo.png', 'host_not_allowed'],
    ['https://images.test.evil.test/photo.png', 'host_not_allowed'],
    ['https://notimages.test/photo.png', 'host_not_allowed'],
    ['https://images.test./photo.png', 'host_not_allowed'],
  ])('%s is refused before any connection: %s', async (url, reason) => {
    const before = host.connections;
    const answer = await fetchRemoteImage(url.replace('images.test/', `images.test:${host.port}/`), options());
    expect(answer).toMatchObject({ ok: false, reason });
    expect(host.connections).toBe(before);
  });

  test('a port not on the list is refused', async () => {
    const answer = await fetchRemoteImage(at('/photo.png'), options({ ports: [443] }));
    expect(answer).toMatchObject({
      ok: false,
      reason: 'host_not_allowed',
      message: `Port ${host.port} is not allowed`,
    });
  });

  test("the default allow list is the marketplace's image hosts, on port 443 only", async () => {
    expect(marketplaceImageHosts).toEqual(['*.alicdn.com', '*.aliexpress-media.com']);
    for (const url of [
      'https://alicdn.com/kf/a.jpg',
      'https://ae01.alicdn.com.evil.test/kf/a.jpg',
      'https://evilalicdn.com/kf/a.jpg',
      'https://ae01.alicdn.com:8443/kf/a.jpg',
      'https://aliexpress-media.com/kf/a.jpg',
    ])
      expect(await fetchRemoteImage(url)).toMatchObject({ ok: false, reason: 'host_not_allowed' });
  });

  test('a name that resolves to a refused address is never connected to', async () => {
    const before = internal.connections;
    const answer = await fetchRemoteImage(at('/photo.png', 'internal.test', internal.port), options());
    expect(answer).toMatchObject({
      ok: false,
      reason: 'private_address',
      message: 'internal.test resolves to 127.0.0.2, which is not a public address',
    });
    expect(internal.connections).toBe(before);
  });

  test('a name with one refused address among its answers is refused', async () => {
    const answer = await fetchRemoteImage(at('/photo.png', 'mixed.test'), options());
    expect(answer).toMatchObject({ ok: false, reason: 'private_address' });
  });

  test('by default, loopback is refused after real name resolution (localhost) and as an IP literal', async () => {
    const defaults = { allowedHosts: ['localhost', '127.0.0.1', '::1', '::ffff:7f00:1'], ports: [host.port] };
    const before = host.connections;
    for (const url of [
      `https://localhost:${host.port}/photo.png`,
      `https://127.0.0.1:${host.port}/photo.png`,
      `https://[::1]:${host.port}/photo.png`,
      `https://[::ffff:127.0.0.1]:${host.port}/photo.png`,
    ])
      expect(await fetchRemoteImage(url, { ...defaults, ca: certificate.cert })).toMatchObject({
        ok: false,
        reason: 'private_address',
      });
    // The default policy refuses the names the test table maps to loopback too.
    expect(await fetchRemoteImage(at('/photo.png'), options({ isAllowedAddress: undefined }))).toMatchObject({
      ok: false,
      reason: 'private_address',
    });
    expect(host.connections).toBe(before);
  });

  test('every redirect is checked again: scheme, host, port and resolved address', async () => {
    const via = (location: string) => at(`/to?location=${encodeURIComponent(location)}`);
    const beforeInternal = internal.connections;
    expect(await fetchRemoteImage(via(`http://images.test:${host.port}/photo.png`), options())).toMatchObject({
      ok: false,
      reason: 'not_https',
      url: `http://images.test:${host.port}/photo.png`,
    });
    expect(await fetchRemoteImage(via(`https://other.test:${host.port}/photo.png`), options())).toMatchObject({
      ok: false,
      reason: 'host_not_allowed',
    });
    expect(await fetchRemoteImage(via('https://images.test:1/photo.png'), options())).toMatchObject({
      ok: false,
      reason: 'host_not_allowed',
    });
    expect(await fetchRemoteImage(via(`https://internal.test:${internal.port}/photo.png`), options())).toMatchObject({
      ok: false,
      reason: 'private_address',
    });
    expect(await fetchRemoteImage(via(`https://127.0.0.2:${internal.port}/photo.png`), options())).toMatchObject({
      ok: false,
      reason: 'host_not_allowed',
    });
    expect(await fetchRemoteImage(via('https://[bad'), options())).toMatchObject({ ok: false, reason: 'invalid_url' });
    expect(internal.connections).toBe(beforeInternal);
  });

  test('a rebinding name is resolved and checked again on every hop', async () => {
    let calls = 0;
    const rebinding = async () => [{ address: ++calls === 1 ? '127.0.0.1' : '127.0.0.2', family: 4 }];
    const before = internal.connections;
    const next = `https://flip.test:${internal.port}/photo.png`;
    const answer = await fetchRemoteImage(
      at(`/to?location=${encodeURIComponent(next)}`, 'flip.test'),
      options({ resolve: rebinding }),
    );
    expect(answer).toMatchObject({ ok: false, reason: 'private_address', url: next });
    expect(calls).toBe(2);
    expect(internal.connections).toBe(before);
  });

  test('more redirects than the limit are refused', async () => {
    // /hops/n answers n + 1 redirects before the image.
    expect(await fetchRemoteImage(at('/hops/2'), options({ maxRedirects: 3 }))).toMatchObject({ ok: true });
    expect(await fetchRemoteImage(at('/hops/3'), options({ maxRedirects: 3 }))).toMatchObject({
      ok: false,
      reason: 'too_many_redirects',
    });
    expect(await fetchRemoteImage(at('/hops/0'), options({ maxRedirects: 0 }))).toMatchObject({
      ok: false,
      reason: 'too_many_redirects',
    });
  });

  test('a redirect without a Location and an error status are refused as upstream answers', async () => {
    expect(await fetchRemoteImage(at('/nowhere'), options())).toMatchObject({ ok: false, reason: 'upstream_status' });
    expect(await fetchRemoteImage(at('/missing'), options())).toMatchObject({
      ok: false,
      reason: 'upstream_status',
      message: 'The image host answered 404',
    });
  });

  test('a body over the limit is refused, whether its length is declared or only streamed', async () => {
    expect(await fetchRemoteImage(at('/declared-large'), options())).toMatchObject({ ok: false, reason: 'too_large' });
    expect(await fetchRemoteImage(at('/streamed-large'), options())).toMatchObject({ ok: false, reason: 'too_large' });
    expect(await fetchRemoteImage(at('/photo.png'), options({ maxBytes: png.length - 1 }))).toMatchObject({
      ok: false,
      reason: 'too_large',
    });
    expect(await fetchRemoteImage(at('/photo.png'), options({ maxBytes: png.length }))).toMatchObject({ ok: true });
  });

  test('an answer that is not an image by its content is refused, whatever its Content-Type says', async () => {
    expect(await fetchRemoteImage(at('/page'), options())).toMatchObject({ ok: false, reason: 'not_an_image' });
    expect(await fetchRemoteImage(at('/tiny'), options())).toMatchObject({ ok: false, reason: 'not_an_image' });
    // Judged from its first bytes: a body that never ends is refused without waiting for it.
    expect(await fetchRemoteImage(at('/large-page'), options({ timeoutMs: 5000 }))).toMatchObject({
      ok: false,
      reason: 'not_an_image',
    });
  });

  test('a host that does not answer, or answers too slowly, is refused at the deadline', async () => {
    for (const path of ['/hang', '/trickle']) {
      const started = Date.now();
      expect(await fetchRemoteImage(at(path), options({ timeoutMs: 300 }))).toMatchObject({
        ok: false,
        reason: 'too_slow',
      });
      expect(Date.now() - started).toBeLessThan(2000);
    }
  });

  test('the deadline covers the whole fetch, redirects included', async () => {
    const hang = at('/hang');
    const answer = await fetchRemoteImage(at(`/to?location=${encodeURIComponent(hang)}`), options({ timeoutMs: 300 }));
    expect(answer).toMatchObject({ ok: false, reason: 'too_slow', url: hang });
  });

  test('a certificate the client does not trust, or an unknown name, is unreachable', async () => {
    expect(await fetchRemoteImage(at('/photo.png'), options({ ca: undefined }))).toMatchObject({
      ok: false,
      reason: 'unreachable',
      message: 'The image host could not be reached (DEPTH_ZERO_SELF_SIGNED_CERT)',
    });
    expect(await fetchRemoteImage(at('/photo.png', 'cdn.images.test'), options())).toMatchObject({
      ok: false,
      reason: 'unreachable',
      message: 'The image host could not be reached (ENOTFOUND)',
    });
  });
});

describe('imageTypeOf', () => {
  test('reads JPEG, PNG and WebP signatures and nothing else', async () => {
    expect(imageTypeOf(png)).toBe('image/png');
    expect(imageTypeOf(jpeg)).toBe('image/jpeg');
    expect(imageTypeOf(webp)).toBe('image/webp');
    const gif = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } })
      .gif()
      .toBuffer();
    expect(imageTypeOf(gif)).toBeNull();
    expect(imageTypeOf(Buffer.from('RIFF\0\0\0\0WAVEfmt '))).toBeNull();
    expect(imageTypeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeNull();
    expect(imageTypeOf(new Uint8Array())).toBeNull();
  });
});
