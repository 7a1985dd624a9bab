import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import { type Database, openDatabase } from '#server/db/client.ts';
import { settings } from '#server/features/settings/settings.tables.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { postgresUrl, redisUrl } from '#server/testing/test-environment.ts';
import { createDomainEvents, type DomainEvent, type StoredEvent, shopRedisPrefix } from './domain-events.ts';

// Several shops on one Redis (issue 16): each shop's live events, signals and rate-limit counters
// stay its own. A shop is a database; its instances share that database.

const product = (id: string): DomainEvent => ({ type: 'product_updated', data: { collection: 'products', id } });

async function until(condition: () => boolean, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const clients: Redis[] = [];
afterAll(() => {
  for (const client of clients) client.disconnect();
});
async function redis() {
  // As server/main.ts opens it.
  const client = new Redis(redisUrl as string, { maxRetriesPerRequest: 2, enableOfflineQueue: false });
  clients.push(client);
  await new Promise((resolve) => client.once('ready', resolve));
  return client;
}

async function shop(): Promise<Database> {
  const database = await createTestDatabase();
  onTestFinished(() => database.close());
  return database;
}

describe("a shop's Redis prefix", () => {
  test('is the same for every instance of the shop and differs between shops', async () => {
    const [one, two] = [await shop(), await shop()];
    const prefix = await shopRedisPrefix(one.db);
    expect(prefix).toMatch(/^sw:[0-9a-f]{16}:$/);
    expect(await shopRedisPrefix(one.db)).toBe(prefix);
    expect(await shopRedisPrefix(two.db)).not.toBe(prefix);
  });

  test.skipIf(!postgresUrl)(
    'is the same through another connection to the database, as another instance opens',
    async () => {
      const one = await shop();
      const url = one.pool?.options.connectionString;
      const other = await openDatabase({ kind: 'postgres', url: url as string });
      onTestFinished(() => other.close());
      expect(await shopRedisPrefix(other.db)).toBe(await shopRedisPrefix(one.db));
    },
  );
});

describe.skipIf(!postgresUrl || !redisUrl)("live events of two shops on one Redis (the shops' own databases)", () => {
  /** An instance of the shop on `database` (a pool of its own), fanning out through Redis. */
  async function instance(database: Database) {
    const url = database.pool?.options.connectionString;
    const own = await openDatabase({ kind: 'postgres', url: url as string });
    const logged: string[] = [];
    const events = createDomainEvents({
      database: own,
      redis: { client: await redis(), prefix: await shopRedisPrefix(own.db) },
      log: (message) => logged.push(message),
    });
    await events.start();
    onTestFinished(async () => {
      await events.close();
      await own.close();
    });
    const heard: DomainEvent[] = [];
    const stored: StoredEvent[] = [];
    let signals = 0;
    events.subscribe((event) => heard.push(event));
    events.subscribeStored((event) => stored.push(event));
    events.onInternal('settings_changed', () => {
      signals += 1;
    });
    return { events, heard, stored, logged, signals: () => signals };
  }

  test("an event of one shop never reaches the other's subscribers, and the same id in both drops neither's own", async () => {
    const [first, second] = [await shop(), await shop()];
    // Both shops' next event gets the same id, as happens to shops alike in age.
    for (const database of [first, second]) {
      await database.db.execute(sql`SELECT setval(pg_get_serial_sequence('live_events', 'id'), 500000)`);
    }
    const firstShop = await instance(first);
    const [writer, reader] = [await instance(second), await instance(second)];

    // The first shop's event is stored and published before the second shop's with the same id.
    firstShop.events.publish(product('first-shop-product'));
    await firstShop.events.settled();
    writer.events.publish(product('second-shop-product'));
    await writer.events.settled();

    await until(() => reader.stored.length === 1, "the second shop's other instance has its event");
    expect(firstShop.stored[0]?.id).toBe(reader.stored[0]?.id);
    expect(reader.stored).toEqual([{ ...product('second-shop-product'), id: 500001 }]);
    expect(reader.heard).toEqual([product('second-shop-product')]);
    // Redis delivers in the order it published: the first shop's event would have come first.
    expect(writer.stored).toEqual(reader.stored);
    expect(writer.heard).toEqual([product('second-shop-product')]);
    expect(firstShop.stored).toEqual([{ ...product('first-shop-product'), id: 500001 }]);
    expect(firstShop.heard).toEqual([product('first-shop-product')]);
    for (const { logged } of [firstShop, writer, reader]) expect(logged).toEqual([]);
  });

  test('a signal of one shop (settings changed) reaches its own instances only', async () => {
    const [first, second] = [await shop(), await shop()];
    const [firstOne, firstTwo] = [await instance(first), await instance(first)];
    const [secondOne, secondTwo] = [await instance(second), await instance(second)];
    firstOne.events.notifyInternal('settings_changed');
    await until(() => firstTwo.signals() === 1, "the first shop's other instance hears the signal");
    secondOne.events.notifyInternal('settings_changed');
    // An event after each shop's signal: an instance that has it has had every message sent before
    // it (one subscribing connection hears Redis's messages in the order Redis took them).
    secondOne.events.publish(product('after-the-signals'));
    await until(() => secondTwo.stored.length === 1, "the second shop's other instance has the event");
    firstOne.events.publish(product('after-the-signals'));
    await until(() => firstTwo.stored.length === 1, "the first shop's other instance has the event");
    expect([firstOne, firstTwo, secondOne, secondTwo].map((instance) => instance.signals())).toEqual([1, 1, 1, 1]);
  });
});

describe.skipIf(!redisUrl)('rate limits of two shops on one Redis', () => {
  async function limitedShop(generalRateLimit: number) {
    const database = await shop();
    await database.db.insert(settings).values({ key: 'generalRateLimit', value: generalRateLimit });
    return database;
  }
  const client = () => `10.${randomBytes(3).join('.')}`;
  const get = (app: Awaited<ReturnType<typeof buildTestApp>>['app'], remoteAddress: string) =>
    app.inject({ method: 'GET', url: '/api/categories', remoteAddress }).then((res) => res.statusCode);

  test("one shop's counters never count against the other's; its own instances share theirs", async () => {
    const [first, second] = [await limitedShop(2), await limitedShop(2)];
    const firstOne = (await buildTestApp({ database: first, redis: await redis() })).app;
    const firstTwo = (await buildTestApp({ database: first, redis: await redis() })).app;
    const secondShop = (await buildTestApp({ database: second, redis: await redis() })).app;
    const address = client();

    expect(await get(firstOne, address)).toBe(200);
    expect(await get(firstTwo, address)).toBe(200);
    // The first shop's limit is spent on both of its instances...
    expect(await get(firstOne, address)).toBe(429);
    expect(await get(firstTwo, address)).toBe(429);
    // ... and the second shop's is untouched.
    expect(await get(secondShop, address)).toBe(200);
    expect(await get(secondShop, address)).toBe(200);
    expect(await get(secondShop, address)).toBe(429);
  });

  test("the counters are stored under the shop's prefix", async () => {
    const database = await limitedShop(100);
    const connection = await redis();
    const { app } = await buildTestApp({ database, redis: connection });
    const address = client();
    expect(await get(app, address)).toBe(200);
    const prefix = await shopRedisPrefix(database.db);
    expect(await connection.keys(`${prefix}rate-*${address}`)).toHaveLength(1);
    expect(await connection.keys(`sw-rate-*${address}`)).toEqual([]);
  });
});
