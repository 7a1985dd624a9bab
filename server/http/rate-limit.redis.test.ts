import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, test } from 'vitest';
import { settings } from '#server/features/settings/settings.tables.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { redisUrl } from '#server/testing/test-environment.ts';

// Several instances behind a load balancer share their counters through Redis (REDIS_URL).

describe.skipIf(!redisUrl)('rate limits across instances (Redis)', () => {
  const clients: Redis[] = [];
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });

  /** Two instances of one shop: on one database (another shop on the same Redis counts apart). */
  async function instances(limits: Record<string, number>) {
    const database = await createTestDatabase();
    for (const [key, value] of Object.entries(limits)) await database.db.insert(settings).values({ key, value });
    const instance = async () => {
      const redis = new Redis(redisUrl as string, { maxRetriesPerRequest: 1 });
      clients.push(redis);
      return (await buildTestApp({ database, redis })).app;
    };
    return [await instance(), await instance()] as const;
  }

  test('the strict sign-in limit counts requests made to any instance', async () => {
    const [one, two] = await instances({ strictRateLimit: 4 });
    // A client address of its own, so earlier runs against the same Redis do not count.
    const address = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    const first = testClient(one, { remoteAddress: address });
    const second = testClient(two, { remoteAddress: address });
    const attempt = (browser: ReturnType<typeof testClient>) =>
      browser.post('/api/auth/login', { email: 'nobody@example.com', password: 'x' });
    expect((await attempt(first)).statusCode).toBe(401);
    expect((await attempt(second)).statusCode).toBe(401);
    expect((await attempt(first)).statusCode).toBe(401);
    expect((await attempt(second)).statusCode).toBe(401);
    const limited = await attempt(first);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
  });

  test('the general limit too', async () => {
    const [one, two] = await instances({ generalRateLimit: 3 });
    const remoteAddress = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
    expect((await one.inject({ method: 'GET', url: '/api/categories', remoteAddress })).statusCode).toBe(200);
    expect((await two.inject({ method: 'GET', url: '/api/categories', remoteAddress })).statusCode).toBe(200);
    expect((await one.inject({ method: 'GET', url: '/api/categories', remoteAddress })).statusCode).toBe(200);
    expect((await two.inject({ method: 'GET', url: '/api/categories', remoteAddress })).statusCode).toBe(429);
  });
});
