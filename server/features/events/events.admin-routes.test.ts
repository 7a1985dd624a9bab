import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, onTestFinished, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import { LIVE_EVENTS_PATH } from '#common/live-events.ts';
import { createOutboxMailer } from '#server/adapters/email/outbox-mailer.ts';
import { createDiskObjectStorage } from '#server/adapters/storage/disk-object-storage.ts';
import { type App, buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import { type Database, openDatabase } from '#server/db/client.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { testSigningKey } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { postgresUrl, redisUrl, testMediaDir } from '#server/testing/test-environment.ts';
import { type EventStream, isEvent, openEventStream, type StreamFrame } from './event-stream-client.ts';
import { liveEvents } from './events.tables.ts';

/**
 * The live stream over real HTTP (each app listens on a port of its own and the stream is read
 * with fetch, as a browser would), with a short heartbeat so the tests need not wait 15 s.
 */
const HEARTBEAT_MS = 150;

/** The application as main.ts builds it, listening on a free port; closed after the file. */
async function liveApp({ database, redis = null }: { database?: Database; redis?: Redis | null } = {}) {
  const db = database ?? (await createTestDatabase());
  const jobs = createJobs();
  jobs.runInProcess(() => {});
  const app = await buildApp({
    config: loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/stillwater-test-data' }),
    database: db,
    signingKey: testSigningKey,
    storage: createDiskObjectStorage(testMediaDir),
    mailer: createOutboxMailer({ db: db.db, log: () => {}, printBodies: false }),
    adEventsApi: null,
    web: null,
    redis,
    jobs,
    liveHeartbeatMs: HEARTBEAT_MS,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the app is not listening');
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await jobs.idle();
    await app.close();
    if (!database) await db.close();
  };
  afterAll(close);
  return { app, db: db.db, database: db, url: `http://127.0.0.1:${address.port}`, close };
}

type Live = Awaited<ReturnType<typeof liveApp>>;
const live = await liveApp();
const { app, db } = live;

let counter = 0;
const address = () => `10.74.${Math.floor(++counter / 200)}.${counter % 200}`;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;

/** A signed-in browser's session cookie, for fetch. */
async function sessionOf(role: UserRole, permissions: AdminPermissions = {}, on: Live = live) {
  const { browser, id } = await signedInAs(on.app, on.db, role, permissions);
  return { id, browser, cookie: `sw_session=${browser.cookie('sw_session')}` };
}

/** Opens the stream; closed after the test. */
async function stream(
  cookie: string | null,
  { url = live.url, headers = {}, query = '' }: { url?: string; headers?: Record<string, string>; query?: string } = {},
) {
  const opened = await openEventStream(`${url}${LIVE_EVENTS_PATH}${query}`, {
    headers: { ...(cookie ? { cookie } : {}), ...headers },
  });
  onTestFinished(() => opened.close());
  return opened;
}

/** A stream that is live: its `ready` event received. Answers the id it resumes from. */
async function ready(opened: EventStream) {
  const frame = await opened.next(isEvent('ready'));
  return Number((frame as Extract<StreamFrame, { kind: 'event' }>).id);
}

/** The next spec message (type and data) of a stream, with its id. */
async function message(
  opened: EventStream,
  matches: (body: { type: string; data: Record<string, unknown> }) => boolean = () => true,
) {
  const frame = (await opened.next(
    (candidate) => isEvent()(candidate) && matches(JSON.parse(candidate.data)),
  )) as Extract<StreamFrame, { kind: 'event' }>;
  return { id: Number(frame.id), ...(JSON.parse(frame.data) as { type: string; data: Record<string, unknown> }) };
}

/**
 * Picks a message by the record it is about. Events are stored just after a write's answer, so
 * an account registered before a stream opened may still reach it: tests look for their own.
 */
const about = (id: string) => (body: { data: Record<string, unknown> }) => body.data.id === id;

/** A new shopper, registered through the API (a user_registered event). */
async function register(on: App = app) {
  const name = unique();
  const response = await testClient(on, { remoteAddress: address() }).post('/api/auth/register', {
    username: `live_${name}`,
    email: `live.${name}@example.com`,
    password: 'Quiet-Water-42',
  });
  expect(response.statusCode).toBe(201);
  return response.json().user as { id: string; username: string; email: string };
}

/** A shopper's review through the API (a review_created event, which every admin sees). */
async function writeReview() {
  const { browser } = await signedInAs(app, db, 'user');
  const response = await browser.post('/api/reviews', {
    productId: 'wireless-charger',
    rating: 4,
    title: 'Quiet',
    content: `Calm on the desk ${unique()}`,
  });
  expect(response.statusCode).toBe(201);
  return response.json().review as { id: string };
}

describe('who may open the stream', () => {
  test('a visitor gets 401 and a shopper 403, as JSON', async () => {
    const visitor = await stream(null);
    expect(visitor.status).toBe(401);
    expect(await visitor.json()).toEqual({ error: 'Authentication required', code: 'unauthorized' });
    const shopper = await sessionOf('user');
    const refused = await stream(shopper.cookie);
    expect(refused.status).toBe(403);
    expect(await refused.json()).toEqual({ error: 'Admin access required', code: 'forbidden' });
  });

  test('any admin may, the owner and an admin without permissions alike', async () => {
    for (const role of ['owner', 'admin'] as const) {
      const opened = await stream((await sessionOf(role)).cookie);
      expect(opened.status).toBe(200);
      await ready(opened);
    }
  });

  test('a bad Last-Event-ID, header or query, is a 400 naming it', async () => {
    const { cookie } = await sessionOf('owner');
    for (const bad of ['abc', '-1', '1.5', '1e3', '', '9'.repeat(16)]) {
      const header = await stream(cookie, { headers: { 'last-event-id': bad } });
      expect(header.status, bad).toBe(400);
      expect(await header.json()).toMatchObject({ code: 'invalid_input', field: 'last-event-id' });
    }
    const query = await stream(cookie, { query: '?lastEventId=x1' });
    expect(query.status).toBe(400);
    expect(await query.json()).toMatchObject({ code: 'invalid_input', field: 'lastEventId' });
  });

  test('an unknown path under /api/atlas/ is the admin scope’s 404, after its guard', async () => {
    expect((await fetch(`${live.url}/api/atlas/other`)).status).toBe(401);
    const { cookie } = await sessionOf('owner');
    expect((await fetch(`${live.url}/api/atlas/other`, { headers: { cookie } })).status).toBe(404);
  });
});

describe('what an admin receives', () => {
  test('a server-sent events stream, not compressed: retry, ready with an id, then each event as it happens', async () => {
    const { cookie } = await sessionOf('owner');
    const opened = await stream(cookie, { headers: { 'accept-encoding': 'br, gzip, deflate' } });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(opened.headers.get('content-encoding')).toBeNull();
    expect(opened.headers.get('cache-control')).toBe('no-store');
    expect(await opened.next()).toEqual({ kind: 'retry', ms: 5000 });
    const start = await ready(opened);
    expect(start).toBeGreaterThanOrEqual(0);

    // The event arrives while the stream stays open: nothing buffers it.
    const user = await register();
    const received = await message(opened, about(user.id));
    expect(received).toEqual({
      id: expect.any(Number),
      type: 'user_registered',
      data: {
        collection: 'users',
        id: user.id,
        user: {
          id: user.id,
          username: user.username,
          email: user.email,
          role: 'user',
          isAdmin: false,
          adminPermissions: {},
          createdAt: expect.any(String),
          lastLoginAt: null,
        },
      },
    });
    expect(received.id).toBeGreaterThan(start);
    expect(opened.ended).toBe(false);

    const review = await writeReview();
    const next = await message(opened, (body) => body.type === 'review_created');
    expect(next).toMatchObject({ type: 'review_created', data: { collection: 'reviews', id: review.id } });
    expect(next.id).toBeGreaterThan(received.id);
  });

  test('heartbeat comments keep a quiet stream open', async () => {
    const opened = await stream((await sessionOf('admin')).cookie);
    await ready(opened);
    expect(await opened.next((frame) => frame.kind === 'comment')).toEqual({ kind: 'comment', text: 'heartbeat' });
    expect(await opened.next((frame) => frame.kind === 'comment')).toEqual({ kind: 'comment', text: 'heartbeat' });
  });

  test("each admin gets only the collections their permissions show: users' events need manageUsers", async () => {
    const plain = await stream((await sessionOf('admin')).cookie);
    const users = await stream((await sessionOf('admin', { manageUsers: true })).cookie);
    await ready(plain);
    await ready(users);
    const user = await register();
    const review = await writeReview();
    // The admin without manageUsers gets the review (every admin sees reviews), and nothing before it.
    expect(await message(plain)).toMatchObject({ type: 'review_created', data: { id: review.id } });
    // The other gets the registrations (the reviewer's too), then the review.
    expect(await message(users, about(user.id))).toMatchObject({ type: 'user_registered' });
    expect(await message(users, (body) => body.type === 'review_created')).toMatchObject({ data: { id: review.id } });
    expect(plain.frames.filter(isEvent())).toHaveLength(1);
  });
});

describe('resuming', () => {
  test('with Last-Event-ID the missed events come first, in order, then ready; with lastEventId too', async () => {
    const { cookie } = await sessionOf('owner');
    const watcher = await stream(cookie);
    await ready(watcher);
    const first = await stream(cookie);
    const from = await ready(first);
    await first.close();
    const missed = [await register(), await register()];
    // Both stored (the watcher has them) before the client comes back.
    for (const user of missed) await message(watcher, about(user.id));

    const resumed = await stream(cookie, { headers: { 'last-event-id': String(from) } });
    const ours = (body: { data: Record<string, unknown> }) => missed.some((user) => about(user.id)(body));
    const replayed = [await message(resumed, ours), await message(resumed, ours)];
    expect(replayed.map((event) => event.data.id)).toEqual(missed.map((user) => user.id));
    expect(replayed[0]?.id).toBeGreaterThan(from);
    const at = await ready(resumed);
    expect(at).toBe(replayed[1]?.id);

    const byQuery = await stream(cookie, { query: `?lastEventId=${from}` });
    expect((await message(byQuery, ours)).data.id).toBe(missed[0]?.id);
    expect((await message(byQuery, ours)).data.id).toBe(missed[1]?.id);
    // Up to date: nothing to replay.
    const current = await stream(cookie, { query: `?lastEventId=${at}` });
    expect(await ready(current)).toBe(at);
    expect(current.frames.filter(isEvent())).toEqual([]);
  });

  test('an id older than the backlog, or one this server never gave, gets reload instead', async () => {
    const { cookie } = await sessionOf('owner');
    const watcher = await stream(cookie);
    await ready(watcher);
    const user = await register();
    await message(watcher, about(user.id));
    const newest = await ready(await stream(cookie));
    const future = await stream(cookie, { headers: { 'last-event-id': String(newest + 1000) } });
    const reload = (await future.next(isEvent('reload'))) as Extract<StreamFrame, { kind: 'event' }>;
    expect(Number(reload.id)).toBe(newest);
    expect(await ready(future)).toBe(newest);

    // The oldest events pruned away: a client that saw only those cannot be replayed to.
    await db.delete(liveEvents).where(sql`${liveEvents.id} < ${newest}`);
    const old = await stream(cookie, { headers: { 'last-event-id': '1' } });
    expect((await old.next(isEvent('reload'))).kind).toBe('event');
    expect(old.frames.filter(isEvent())).toEqual([]);
  });
});

describe('an open stream is closed when its session no longer belongs to an admin', () => {
  test('a demoted admin’s stream gets revoked and ends at once', async () => {
    const admin = await sessionOf('admin', { manageUsers: true });
    const owner = await sessionOf('owner');
    const opened = await stream(admin.cookie);
    await ready(opened);
    const removed = await owner.browser.post('/api/admin-setup/remove-admin', { userId: admin.id });
    expect(removed.statusCode).toBe(200);
    await opened.next(isEvent('revoked'));
    await opened.finished;
    expect(opened.ended).toBe(true);
    // And cannot come back.
    expect((await stream(admin.cookie)).status).toBe(403);
  });

  test('changed permissions apply to the open stream at once', async () => {
    const admin = await sessionOf('admin');
    const owner = await sessionOf('owner');
    const opened = await stream(admin.cookie);
    await ready(opened);
    const updated = await owner.browser.post('/api/admin-setup/update-permissions', {
      userId: admin.id,
      permissions: { manageUsers: true },
    });
    expect(updated.statusCode).toBe(200);
    // Its own change, which it may now see.
    expect(await message(opened, (body) => body.type === 'user_updated')).toMatchObject({ data: { id: admin.id } });
    const user = await register();
    expect(await message(opened, about(user.id))).toMatchObject({ type: 'user_registered' });
    expect(opened.ended).toBe(false);
  });

  test('a signed-out session’s stream ends at the next heartbeat', async () => {
    const admin = await sessionOf('admin');
    const opened = await stream(admin.cookie);
    await ready(opened);
    expect((await admin.browser.post('/api/auth/logout')).statusCode).toBe(200);
    await opened.next(isEvent('revoked'));
    await opened.finished;
    expect(opened.ended).toBe(true);
  });
});

test('closing the server ends its open streams cleanly', async () => {
  const own = await liveApp();
  const { cookie } = await sessionOf('owner', {}, own);
  const opened = await stream(cookie, { url: own.url });
  await ready(opened);
  await own.close();
  await opened.finished;
  expect(opened.ended).toBe(true);
});

describe.skipIf(!postgresUrl)('two instances on one PostgreSQL database', () => {
  /** A second instance: its own connections to the first one's database. */
  async function secondInstance(redis: Redis | null = null, first: Live = live) {
    const url = first.database.pool?.options.connectionString;
    if (!url) throw new Error('not a PostgreSQL database');
    const database = await openDatabase({ kind: 'postgres', url });
    const instance = await liveApp({ database, redis });
    onTestFinished(async () => {
      await instance.close();
      await database.close();
    });
    return instance;
  }

  test('an event published on one instance reaches a client of the other (LISTEN/NOTIFY)', async () => {
    const other = await secondInstance();
    const { cookie } = await sessionOf('owner');
    const opened = await stream(cookie, { url: other.url });
    await ready(opened);
    const user = await register(app);
    expect(await message(opened, about(user.id))).toMatchObject({ type: 'user_registered' });
    // ...and the other way round, to a client of the first.
    const here = await stream(cookie);
    await ready(here);
    const theirs = await register(other.app);
    expect(await message(here, about(theirs.id))).toMatchObject({ type: 'user_registered' });
  });

  describe.skipIf(!redisUrl)('through Redis', () => {
    const clients: Redis[] = [];
    afterAll(() => {
      for (const client of clients) client.disconnect();
    });

    test('an event published on one instance reaches a client of the other', async () => {
      const redis = () => {
        const client = new Redis(redisUrl as string, { maxRetriesPerRequest: 2 });
        clients.push(client);
        return client;
      };
      const database = await createTestDatabase();
      const first = await liveApp({ database, redis: redis() });
      onTestFinished(async () => {
        await first.close();
        await database.close();
      });
      const second = await secondInstance(redis(), first);
      const { cookie } = await sessionOf('owner', {}, first);
      const opened = await stream(cookie, { url: second.url });
      await ready(opened);
      const user = await register(first.app);
      expect(await message(opened, about(user.id))).toMatchObject({ type: 'user_registered' });
    });
  });
});
