import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import Fastify from 'fastify';
import { expect, test, vi } from 'vitest';
import { createRandom } from '#seed/random.ts';
import { createPublicCache, preferredCoding } from './public-cache.ts';

/** An app with one cached route; `hold` makes a load wait (with the value it read) until released. */
async function appWithCache(ttlMs = 60_000, hold: (load: number) => boolean = () => false) {
  const cache = createPublicCache({ ttlMs });
  let loads = 0;
  let value = 'first';
  let release = () => {};
  const app = Fastify();
  app.get('/thing', (request, reply) =>
    cache.respond(request, reply, {
      key: 'thing',
      schema: { parse: (v: unknown) => v },
      maxAge: 60,
      load: async () => {
        const seen = value;
        if (hold(++loads)) await new Promise<void>((resolve) => (release = resolve));
        return { value: seen };
      },
    }),
  );
  return { app, cache, loads: () => loads, set: (next: string) => (value = next), release: () => release() };
}

test('a cached read loads once, and invalidate() makes the next read load again', async () => {
  const { app, cache, loads, set } = await appWithCache();
  expect((await app.inject('/thing')).json()).toEqual({ value: 'first' });
  expect((await app.inject('/thing')).json()).toEqual({ value: 'first' });
  expect(loads()).toBe(1);
  set('second');
  cache.invalidate();
  expect((await app.inject('/thing')).json()).toEqual({ value: 'second' });
  expect(loads()).toBe(2);
});

test('concurrent misses share one load', async () => {
  const { app, loads } = await appWithCache();
  await Promise.all(Array.from({ length: 5 }, () => app.inject('/thing')));
  expect(loads()).toBe(1);
});

test('entries expire after their time to live', async () => {
  const { app, loads } = await appWithCache(0);
  await app.inject('/thing');
  await app.inject('/thing');
  expect(loads()).toBe(2);
});

test('a contract violation is an error, not a cached answer', async () => {
  const cache = createPublicCache();
  const app = Fastify();
  app.get('/bad', (request, reply) =>
    cache.respond(request, reply, {
      key: 'bad',
      schema: {
        parse: () => {
          throw new Error('response does not match its contract');
        },
      },
      maxAge: 60,
      load: async () => ({}),
    }),
  );
  expect((await app.inject('/bad')).statusCode).toBe(500);
});

async function appWithLargeAnswer() {
  const cache = createPublicCache();
  const items = Array.from({ length: 200 }, (_, n) => ({ slug: `product-${n}`, name: `Product number ${n}` }));
  const app = Fastify();
  app.get('/large', (request, reply) =>
    cache.respond(request, reply, {
      key: 'large',
      schema: { parse: (v: unknown) => v },
      maxAge: 60,
      load: async () => ({ items }),
    }),
  );
  return { app, items };
}

test('a large answer is sent in the coding the client accepts, each coding with its own tag', async () => {
  const { app, items } = await appWithLargeAnswer();
  const plain = await app.inject('/large');
  const br = await app.inject({ url: '/large', headers: { 'accept-encoding': 'gzip, deflate, br, zstd' } });
  const gzipped = await app.inject({ url: '/large', headers: { 'accept-encoding': 'gzip' } });
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.json()).toEqual({ items });
  expect(br.headers['content-encoding']).toBe('br');
  expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString())).toEqual({ items });
  expect(gzipped.headers['content-encoding']).toBe('gzip');
  expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString())).toEqual({ items });
  expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
  for (const response of [plain, br, gzipped]) expect(response.headers.vary).toBe('accept-encoding');
  expect(new Set([plain.headers.etag, br.headers.etag, gzipped.headers.etag]).size).toBe(3);
});

test('compressed quickly at first; a hot entry is compressed again at its best, same content, same tags', async () => {
  // Text like a product list's (words in varied order): brotli's best pays off on such bodies.
  const words = ['calm', 'ceramic', 'fountain', 'bamboo', 'lamp', 'soft', 'light', 'desk', 'stone', 'water'];
  const random = createRandom(7);
  const word = () => words[random.int(0, words.length - 1)];
  const items = Array.from({ length: 300 }, (_, n) => ({
    slug: `product-${n}`,
    description: Array.from({ length: 12 }, word).join(' '),
  }));
  const cache = createPublicCache();
  const app = Fastify();
  app.get('/large', (request, reply) =>
    cache.respond(request, reply, {
      key: 'large',
      schema: { parse: (v: unknown) => v },
      maxAge: 60,
      load: async () => ({ items }),
    }),
  );
  const read = () => app.inject({ url: '/large', headers: { 'accept-encoding': 'br' } });
  const first = await read();
  // Read three times from the cache: the third hit has the best compression made, off the loop.
  for (let hit = 0; hit < 3; hit++) await read();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const hot = await read();
  for (const response of [first, hot]) {
    expect(JSON.parse(brotliDecompressSync(response.rawPayload).toString())).toEqual({ items });
  }
  expect(hot.rawPayload.length).toBeLessThan(first.rawPayload.length);
  expect(hot.headers.etag).toBe(first.headers.etag);
  const revalidated = await app.inject({
    url: '/large',
    headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
  });
  expect(revalidated.statusCode).toBe(304);
});

test('a hot entry keeps its best brotli alone: read as it is or in gzip, it answers the same, and takes a third of the bytes', async () => {
  const items = Array.from({ length: 200 }, (_, n) => ({ slug: `product-${n}`, name: `Product number ${n}` }));
  const size = Buffer.byteLength(JSON.stringify({ items }));
  // Room for one entry as it is (and its brotli), or for several hot ones.
  const { app, loads } = appWithBudget(size + 2000, () => ({ items }));
  const read = (key: string, coding = 'gzip, deflate, br, zstd') =>
    app.inject({ url: `/${key}`, headers: { 'accept-encoding': coding } });
  const plain = await app.inject('/a');
  const quick = (await read('a')).rawPayload;
  // The third hit has the best brotli made, off the event loop: then it is what a read gets.
  for (let hit = 0; hit < 2; hit++) await read('a');
  await vi.waitFor(async () => expect((await read('a')).rawPayload.equals(quick)).toBe(false));
  expect((await read('b')).headers['content-encoding']).toBe('br');
  // 'b' fitted beside the hot 'a' (its body as it is dropped), and 'a' is still cached.
  const again = await app.inject('/a');
  const gzipped = await read('a', 'gzip');
  expect(loads).toEqual(['a', 'b']);
  expect(again.headers['content-encoding']).toBeUndefined();
  expect(again.headers.etag).toBe(plain.headers.etag);
  expect(again.rawPayload.equals(plain.rawPayload)).toBe(true);
  expect(gzipped.headers['content-encoding']).toBe('gzip');
  expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString())).toEqual({ items });
});

test('a copy in any coding is current: its tag gets 304, with the tag of the coding asked for', async () => {
  const { app } = await appWithLargeAnswer();
  const br = await app.inject({ url: '/large', headers: { 'accept-encoding': 'br' } });
  const revalidated = await app.inject({
    url: '/large',
    headers: { 'accept-encoding': 'gzip', 'if-none-match': `W/${br.headers.etag}` },
  });
  expect(revalidated.statusCode).toBe(304);
  expect(revalidated.headers.etag).toMatch(/-gz"$/);
  const stale = await app.inject({ url: '/large', headers: { 'if-none-match': '"something-else"' } });
  expect(stale.statusCode).toBe(200);
});

test('a small answer is sent as it is, whatever the client accepts', async () => {
  const { app } = await appWithCache();
  const response = await app.inject({ url: '/thing', headers: { 'accept-encoding': 'br' } });
  expect(response.headers['content-encoding']).toBeUndefined();
  expect(response.headers.vary).toBeUndefined();
  expect(response.json()).toEqual({ value: 'first' });
});

test('the preferred coding: brotli, else gzip, else none; q=0 refuses one, * stands for the rest', () => {
  expect(preferredCoding(undefined)).toBe('identity');
  expect(preferredCoding('gzip, deflate, br, zstd')).toBe('br');
  expect(preferredCoding('gzip, deflate')).toBe('gzip');
  expect(preferredCoding('br;q=0, gzip;q=0.5')).toBe('gzip');
  expect(preferredCoding('BR;q=0.1')).toBe('br');
  expect(preferredCoding('*;q=0.3')).toBe('br');
  expect(preferredCoding('*, br;q=0, gzip;q=0')).toBe('identity');
  expect(preferredCoding('identity')).toBe('identity');
});

/** An app caching one answer per key within `maxBytes`; `loads` lists the keys loaded, in order. */
function appWithBudget(maxBytes: number, body: () => unknown) {
  const cache = createPublicCache({ maxBytes });
  const loads: string[] = [];
  const app = Fastify();
  app.get<{ Params: { key: string } }>('/:key', (request, reply) =>
    cache.respond(request, reply, {
      key: request.params.key,
      schema: { parse: (v: unknown) => v },
      maxAge: 60,
      load: async () => {
        loads.push(request.params.key);
        return body();
      },
    }),
  );
  return { app, loads };
}

test('the cache keeps within its byte budget, dropping the oldest entries first', async () => {
  const { app, loads } = appWithBudget(2500, () => ({ text: 'x'.repeat(900) }));
  await app.inject('/a');
  await app.inject('/b');
  await app.inject('/c');
  expect(loads).toEqual(['a', 'b', 'c']);
  await app.inject('/c');
  expect(loads).toHaveLength(3);
  // 'a' went to make room for 'c'.
  await app.inject('/a');
  expect(loads).toEqual(['a', 'b', 'c', 'a']);
});

test('a coding made after its entry counts in the byte budget: the oldest other entry makes room', async () => {
  const random = createRandom(11);
  // Letters at random: brotli keeps most of their bytes.
  const { app, loads } = appWithBudget(2500, () => ({
    text: Array.from({ length: 1200 }, () => String.fromCharCode(97 + random.int(0, 25))).join(''),
  }));
  // Two entries of 1.2 kB fit as they are; brotli of 'a' (about 750 bytes) then does not.
  await app.inject('/a');
  await app.inject('/b');
  const compressed = await app.inject({ url: '/a', headers: { 'accept-encoding': 'br' } });
  expect(compressed.headers['content-encoding']).toBe('br');
  expect(loads).toEqual(['a', 'b']);
  await app.inject('/a');
  await app.inject('/b');
  expect(loads).toEqual(['a', 'b', 'b']);
});

test('a read after a write does not join a load that began before it; that load is used once, not kept', async () => {
  const { app, cache, loads, set, release } = await appWithCache(60_000, (load) => load === 1);
  const early = app.inject('/thing');
  await vi.waitFor(() => expect(loads()).toBe(1));
  set('after');
  cache.invalidate();
  expect((await app.inject('/thing')).json()).toEqual({ value: 'after' });
  release();
  expect((await early).json()).toEqual({ value: 'first' });
  expect((await app.inject('/thing')).json()).toEqual({ value: 'after' });
  expect(loads()).toBe(2);
});

test("the cache's invalidate() also drops what remember() keeps (remembered-values.ts)", async () => {
  const cache = createPublicCache();
  expect(await cache.remember('ranking', async () => 'before')).toBe('before');
  expect(await cache.remember('ranking', async () => 'unread')).toBe('before');
  cache.invalidate();
  expect(await cache.remember('ranking', async () => 'after')).toBe('after');
});
