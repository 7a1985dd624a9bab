import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import { type Database, openDatabase } from '#server/db/client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { postgresUrl, redisUrl } from '#server/testing/test-environment.ts';
import {
  BACKLOG_MAX_EVENTS,
  createDomainEvents,
  type DomainEvent,
  pruneLiveEvents,
  readBacklog,
  type StoredEvent,
  shopRedisPrefix,
} from './domain-events.ts';
import { liveEvents } from './events.tables.ts';

const review = (id: string): DomainEvent => ({ type: 'review_created', data: { collection: 'reviews', id } });

/** Waits for a condition that background work makes true (fails after a generous while, not a timing assertion). */
async function until(condition: () => boolean, what: string, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** An instance's events on a database, closed after the test; what it logs is kept. */
async function instance(database: Database, redis: Redis | null = null) {
  const logged: { message: string; error: unknown }[] = [];
  const events = createDomainEvents({
    database,
    // As app.ts does: the channels of the shop the database belongs to.
    redis: redis ? { client: redis, prefix: await shopRedisPrefix(database.db) } : null,
    log: (message, error) => logged.push({ message, error }),
  });
  await events.start();
  onTestFinished(() => events.close());
  const heard: DomainEvent[] = [];
  const stored: StoredEvent[] = [];
  events.subscribe((event) => heard.push(event));
  events.subscribeStored((event) => stored.push(event));
  return { events, heard, stored, logged };
}

/** Another connection pool on the same PostgreSQL database, as a second instance would open. */
async function sameDatabase(database: Database): Promise<Database> {
  const url = database.pool?.options.connectionString;
  if (!url) throw new Error('not a PostgreSQL database');
  const other = await openDatabase({ kind: 'postgres', url });
  onTestFinished(() => other.close());
  return other;
}

const database = await createTestDatabase();
afterAll(() => database.close());

describe('on one instance', () => {
  test('every subscriber hears each event at once; a failing one stops neither the others nor the publisher', async () => {
    const { events, heard, stored, logged } = await instance(database);
    events.subscribe(() => {
      throw new Error('subscriber failed');
    });
    events.publish(review('abc'));
    // Synchronous for this instance's subscribers (the public cache is dropped before the answer).
    expect(heard).toEqual([review('abc')]);
    expect(logged.map((entry) => entry.message)).toEqual(['event subscriber failed']);
    await until(() => stored.length === 1, 'the event is stored');
    expect(stored[0]).toEqual({ ...review('abc'), id: expect.any(Number) });
    expect(heard).toHaveLength(1);
  });

  test('stored events keep the order they were published in, with increasing ids, each once', async () => {
    const { events, stored } = await instance(database);
    for (let n = 0; n < 20; n += 1) events.publish(review(`r${n}`));
    await until(() => stored.length === 20, 'twenty events are stored');
    await events.settled();
    expect(stored.map((event) => event.data.id)).toEqual(Array.from({ length: 20 }, (_, n) => `r${n}`));
    const ids = stored.map((event) => event.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    expect(new Set(ids).size).toBe(20);
    expect(events.lastId()).toBe(ids.at(-1));
  });

  test('an internal signal reaches this instance at once; unsubscribing stops it', async () => {
    const { events } = await instance(database);
    let heard = 0;
    const stop = events.onInternal('settings_changed', () => {
      heard += 1;
    });
    events.notifyInternal('settings_changed');
    expect(heard).toBe(1);
    stop();
    events.notifyInternal('settings_changed');
    await events.settled();
    expect(heard).toBe(1);
  });

  test('events published before close are stored before it ends', async () => {
    const events = createDomainEvents({ database, log: () => {} });
    await events.start();
    const before = events.lastId();
    events.publish(review('last-words'));
    await events.close();
    const rows = await database.db.select().from(liveEvents).where(sql`${liveEvents.id} > ${before}`);
    expect(rows.map((row) => row.data.id)).toContain('last-words');
  });
});

describe('the backlog', () => {
  test('keeps the newest 1,000 events and none older than a day, but always the newest', async () => {
    const own = database;
    await own.db.delete(liveEvents);
    await own.db.execute(
      sql`INSERT INTO live_events (type, collection, data, created_at)
          SELECT 'review_created', 'reviews', jsonb_build_object('id', n::text), now() - interval '2 hours'
          FROM generate_series(1, 1500) AS n`,
    );
    await pruneLiveEvents(own.db);
    const rows = await own.db.select({ id: liveEvents.id, data: liveEvents.data }).from(liveEvents);
    expect(rows).toHaveLength(BACKLOG_MAX_EVENTS);
    expect(Math.min(...rows.map((row) => Number(row.data.id)))).toBe(501);

    // A day later, only the newest remains (a resume compares against it).
    await own.db.execute(sql`UPDATE live_events SET created_at = now() - interval '25 hours'`);
    await pruneLiveEvents(own.db);
    const left = await own.db.select({ data: liveEvents.data }).from(liveEvents);
    expect(left.map((row) => row.data.id)).toEqual(['1500']);
  });

  test('answers the events after an id, or reload when the id is older than the backlog or unknown', async () => {
    const own = database;
    const { events, stored } = await instance(own);
    for (let n = 0; n < 5; n += 1) events.publish(review(`b${n}`));
    await until(() => stored.length === 5, 'five events are stored');
    const ids = stored.map((event) => event.id);
    const [first = 0, second = 0, , , last = 0] = ids;

    const after = await events.backlog(second);
    expect(after).toEqual({ reload: false, events: stored.slice(2) });
    expect(await events.backlog(last)).toEqual({ reload: false, events: [] });
    // The id just before the oldest kept: nothing was pruned in between.
    expect(await readBacklog(own.db, first - 1)).toEqual({ reload: false, events: stored });
    // An id from the future (another database, or a reset) and one pruned away.
    expect(await events.backlog(last + 10)).toEqual({ reload: true, latestId: last });
    await own.db.delete(liveEvents).where(sql`${liveEvents.id} <= ${second}`);
    expect(await events.backlog(first)).toEqual({ reload: true, latestId: last });
    expect(await events.backlog(second)).toEqual({ reload: false, events: stored.slice(2) });
  });
});

describe.skipIf(!postgresUrl)('across instances on PostgreSQL (LISTEN/NOTIFY)', () => {
  test("an event published on one instance reaches the other's subscribers once, and its own once", async () => {
    const one = await instance(database);
    const two = await instance(await sameDatabase(database));
    one.events.publish(review('from-one'));
    two.events.publish(review('from-two'));
    await until(() => one.stored.length === 2 && two.stored.length === 2, 'both instances have both events');
    // Stored events arrive in id order on both, whichever instance published them.
    expect(one.stored).toEqual(two.stored);
    expect(one.stored.map((event) => event.id)).toEqual([...one.stored.map((event) => event.id)].sort((a, b) => a - b));
    await one.events.settled();
    await two.events.settled();
    // The public cache hears each event once on each instance: its own at publish, the other's on arrival.
    expect(one.heard.map((event) => event.data.id).sort()).toEqual(['from-one', 'from-two']);
    expect(two.heard.map((event) => event.data.id).sort()).toEqual(['from-one', 'from-two']);
  });

  test('an event too large for a notification is read from the table', async () => {
    const one = await instance(database);
    const two = await instance(await sameDatabase(database));
    const large: DomainEvent = {
      type: 'product_updated',
      data: { collection: 'products', id: 'p1', text: 'x'.repeat(10_000) },
    };
    one.events.publish(large);
    await until(() => two.stored.length === 1, 'the other instance has the event');
    expect(two.stored[0]).toEqual({ ...large, id: expect.any(Number) });
    expect(two.heard).toEqual([large]);
  });

  test("an internal signal reaches the other instance, and not its sender's twice", async () => {
    const one = await instance(database);
    const two = await instance(await sameDatabase(database));
    const counts = { one: 0, two: 0 };
    one.events.onInternal('settings_changed', () => (counts.one += 1));
    two.events.onInternal('settings_changed', () => (counts.two += 1));
    one.events.notifyInternal('settings_changed');
    await until(() => counts.two === 1, 'the other instance hears the signal');
    await one.events.settled();
    expect(counts).toEqual({ one: 1, two: 1 });
  });

  test('a dropped listening connection is opened again, and what was missed meanwhile is caught up', async () => {
    const one = await instance(database);
    const two = await instance(await sameDatabase(database));
    let resyncs = 0;
    two.events.onInternal('settings_changed', () => (resyncs += 1));
    // Ends both instances' listening connections, as a network failure or a restarted server would.
    await database.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE application_name = 'stillwater-live-events' AND datname = current_database()`,
    );
    one.events.publish(review('while-away'));
    await until(() => two.stored.some((event) => event.data.id === 'while-away'), 'the other instance catches up');
    expect(two.heard.map((event) => event.data.id)).toEqual(['while-away']);
    // Signals sent while away are unknown: every listener acts once on reconnecting.
    expect(resyncs).toBeGreaterThanOrEqual(1);
    expect(two.logged.map((entry) => entry.message)).toContain(
      'the live events connection to PostgreSQL was lost: reconnecting',
    );
    // And it listens again.
    one.events.publish(review('after'));
    await until(() => two.stored.some((event) => event.data.id === 'after'), 'the next event arrives');
  });
});

describe.skipIf(!postgresUrl || !redisUrl)('across instances through Redis', () => {
  const clients: Redis[] = [];
  afterAll(() => {
    for (const client of clients) client.disconnect();
  });
  const redis = () => {
    // As server/main.ts opens it: commands fail at once while Redis is away.
    const client = new Redis(redisUrl as string, { maxRetriesPerRequest: 2, enableOfflineQueue: false });
    clients.push(client);
    return client;
  };

  test("an event published on one instance reaches the other's subscribers once, and its own once", async () => {
    const first = redis();
    const second = redis();
    await Promise.all([first, second].map((client) => new Promise((resolve) => client.once('ready', resolve))));
    const one = await instance(database, first);
    const two = await instance(await sameDatabase(database), second);
    one.events.publish(review('redis-one'));
    two.events.publish(review('redis-two'));
    await until(() => one.stored.length === 2 && two.stored.length === 2, 'both instances have both events');
    expect(new Set(one.stored.map((event) => event.data.id))).toEqual(new Set(['redis-one', 'redis-two']));
    expect(two.stored.map((event) => event.id).sort()).toEqual(one.stored.map((event) => event.id).sort());
    await one.events.settled();
    await two.events.settled();
    expect(one.heard.map((event) => event.data.id).sort()).toEqual(['redis-one', 'redis-two']);
    expect(two.heard.map((event) => event.data.id).sort()).toEqual(['redis-one', 'redis-two']);

    const counts = { one: 0, two: 0 };
    one.events.onInternal('settings_changed', () => (counts.one += 1));
    two.events.onInternal('settings_changed', () => (counts.two += 1));
    two.events.notifyInternal('settings_changed');
    await until(() => counts.one === 1, 'the other instance hears the signal');
    expect(counts).toEqual({ one: 1, two: 1 });
  });
});
