import Fastify from 'fastify';
import { expect, test } from 'vitest';
import { createPublicCache } from './public-cache.ts';

async function appWithCache(ttlMs = 60_000) {
  const cache = createPublicCache({ ttlMs });
  let loads = 0;
  let value = 'first';
  const app = Fastify();
  app.get('/thing', (request, reply) =>
    cache.respond(request, reply, {
      key: 'thing',
      schema: { parse: (v: unknown) => v },
      maxAge: 60,
      load: async () => {
        loads++;
        return { value };
      },
    }),
  );
  return { app, cache, loads: () => loads, set: (next: string) => (value = next) };
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
