import { randomBytes } from 'node:crypto';
import { connect, createServer, type Socket } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { verifyPassword } from '#server/features/accounts/passwords.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { postgresUrl } from '#server/testing/test-environment.ts';
import { type Database, executeRows, openDatabase, POOL_SETTINGS } from './client.ts';

/**
 * Issue 16: PostgreSQL goes away under load (its backends terminated, or the server refusing or
 * ignoring connections for a while) and comes back. Every answer is a success, a client error or
 * a 503 with Retry-After, never a 500; no request outlives REQUEST_BOUND_MS; an account is either
 * stored whole or not at all; and the shop serves again within RECOVERY_BOUND_MS of the database.
 */

/** A request waits at most the pool's connection timeout for each connection: twice that is plenty. */
const REQUEST_BOUND_MS = 2 * POOL_SETTINGS.connectionTimeoutMillis;
const RECOVERY_BOUND_MS = 5_000;
const READERS = 10;
const WRITERS = 4;
const PASSWORD = 'Quiet-Water-42';

/**
 * A TCP proxy between the shop and PostgreSQL that the test controls: it can drop every
 * connection, refuse new ones (its port closed) or accept them and never answer, and then let
 * them through again: the database down and back, as the shop sees it across a network.
 */
async function databaseProxy(target: { host: string; port: number }) {
  const sockets = new Set<Socket>();
  let silent = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = createServer((client) => {
    track(client);
    if (silent) return;
    const upstream = connect(target.port, target.host);
    track(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        server.off('error', reject);
        const address = server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      });
    });
  const port = await listen(0);
  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port,
    /** Drops every open connection (the server restarted, a network path broke). */
    cutAll,
    /** Drops every connection and refuses new ones (ECONNREFUSED) until `open`. */
    async refuse() {
      const closed = new Promise((resolve) => server.close(resolve));
      cutAll();
      await closed;
    },
    /** Drops every connection; new ones are accepted and never answered until `open`. */
    goSilent() {
      silent = true;
      cutAll();
    },
    async open() {
      silent = false;
      if (!server.listening) await listen(port);
    },
    async close() {
      const closed = new Promise((resolve) => server.close(resolve));
      cutAll();
      await closed;
    },
  };
}

type Outcome = {
  kind: 'read' | 'register';
  /** The status, or 'timeout' when the client gave up after REQUEST_BOUND_MS. */
  status: number | 'timeout' | 'network';
  retryAfter: string | null;
  code: string | null;
  ms: number;
  startedAt: number;
  email?: string;
  username?: string;
};

// After every test's app has closed (the apps close when their test ends).
const proxies: { close(): Promise<void> }[] = [];
const directDatabases: Database[] = [];
afterAll(async () => {
  for (const proxy of proxies) await proxy.close();
  for (const database of directDatabases) await database.close();
});

/** The demo shop on its own database, reached through a proxy, served on a real port. */
async function shopBehindProxy() {
  const direct = await createTestDatabase();
  directDatabases.push(direct);
  const directUrl = new URL(direct.pool?.options.connectionString ?? '');
  const proxy = await databaseProxy({ host: directUrl.hostname, port: Number(directUrl.port || 5432) });
  proxies.push(proxy);
  const applicationName = `stillwater_cuts_${randomBytes(4).toString('hex')}`;
  const appUrl = new URL(directUrl);
  appUrl.hostname = '127.0.0.1';
  appUrl.port = String(proxy.port);
  appUrl.searchParams.set('application_name', applicationName);
  const log: string[] = [];
  const database = await openDatabase({ kind: 'postgres', url: appUrl.toString() });
  const shop = await buildTestApp({
    database,
    // Each request from an address of its own (X-Forwarded-For from loopback is believed), so
    // that rate limits count nothing here.
    env: { TRUST_PROXY: 'loopback', LOG_LEVEL: 'warn' },
    logStream: { write: (line) => void log.push(line) },
  });
  await shop.app.listen({ port: 0, host: '127.0.0.1' });
  const address = shop.app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
  const csrf = await fetch(`${base}/api/auth/csrf-token`);
  const csrfCookie = csrf.headers.getSetCookie().find((cookie) => cookie.startsWith('sw_csrf='));
  const csrfToken = ((await csrf.json()) as { token: string }).token;
  if (!csrfCookie) throw new Error('no CSRF cookie');

  let counter = 0;
  const nextAddress = () => {
    counter += 1;
    return `10.16.${Math.floor(counter / 250) % 250}.${(counter % 250) + 1}`;
  };

  async function request(kind: Outcome['kind']): Promise<Outcome> {
    const name = `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;
    const headers: Record<string, string> = { 'user-agent': 'connection-cuts-test', 'x-forwarded-for': nextAddress() };
    const startedAt = performance.now();
    const outcome: Outcome = { kind, status: 'network', retryAfter: null, code: null, ms: 0, startedAt };
    let init: RequestInit = { headers };
    // A search term of its own: every read goes to the database, past the in-memory cache.
    let url = `${base}/api/products/search/water${name}`;
    if (kind === 'register') {
      outcome.email = `cut.${name}@example.com`;
      outcome.username = `cut_${name}`;
      url = `${base}/api/auth/register`;
      init = {
        method: 'POST',
        headers: {
          ...headers,
          'content-type': 'application/json',
          'x-csrf-token': csrfToken,
          cookie: csrfCookie?.split(';')[0] ?? '',
        },
        body: JSON.stringify({ username: outcome.username, email: outcome.email, password: PASSWORD }),
      };
    }
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(REQUEST_BOUND_MS) });
      outcome.status = response.status;
      outcome.retryAfter = response.headers.get('retry-after');
      const body = (await response.json().catch(() => null)) as { code?: string } | null;
      outcome.code = body?.code ?? null;
    } catch (error) {
      outcome.status = (error as Error).name === 'TimeoutError' ? 'timeout' : 'network';
    }
    outcome.ms = performance.now() - startedAt;
    return outcome;
  }

  /** READERS + WRITERS clients each sending one request after another until `stop()`. */
  function startLoad() {
    const outcomes: Outcome[] = [];
    let running = true;
    const client = async (kind: Outcome['kind']) => {
      while (running) {
        const outcome = await request(kind);
        outcomes.push(outcome);
        // A client told to come back later pauses a little (not Retry-After's seconds: the test wants traffic).
        if (outcome.status !== 200 && outcome.status !== 201) await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const clients = [
      ...Array.from({ length: READERS }, () => client('read')),
      ...Array.from({ length: WRITERS }, () => client('register')),
    ];
    return {
      outcomes,
      async stop() {
        running = false;
        await Promise.all(clients);
        return outcomes;
      },
    };
  }

  /** How long after now a request of this kind first succeeds (polled every 100 ms). */
  async function timeToSuccess(kind: Outcome['kind'], limitMs = 3 * RECOVERY_BOUND_MS) {
    const started = performance.now();
    while (performance.now() - started < limitMs) {
      const outcome = await request(kind);
      if (outcome.status === 200 || outcome.status === 201) return performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return Number.POSITIVE_INFINITY;
  }

  /** Backends of the shop's pool (and its LISTEN connection), as PostgreSQL lists them. */
  async function terminateBackends() {
    const rows = await executeRows<{ terminated: boolean }>(
      direct.db,
      sql`SELECT pg_terminate_backend(pid) AS terminated FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid() AND application_name = ${applicationName}`,
    );
    return rows.filter((row) => row.terminated).length;
  }

  /** Connections of the shop's pool lent out now (none once no request is under way). */
  const lentOut = () => (database.pool ? database.pool.totalCount - database.pool.idleCount : 0);

  return { shop, base, proxy, direct, log, request, startLoad, timeToSuccess, terminateBackends, lentOut };
}

type Shop = Awaited<ReturnType<typeof shopBehindProxy>>;

/** No connection stays lent out once the requests are over (the background work may hold one a moment). */
async function expectNoneLentOut(shop: Shop) {
  const deadline = performance.now() + 5000;
  while (shop.lentOut() > 0 && performance.now() < deadline) await sleep(50);
  expect(shop.lentOut()).toBe(0);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function tally(outcomes: Outcome[]) {
  const counts: Record<string, number> = {};
  for (const { kind, status } of outcomes) counts[`${kind} ${status}`] = (counts[`${kind} ${status}`] ?? 0) + 1;
  counts['slowest ms'] = Math.round(Math.max(...outcomes.map((outcome) => outcome.ms)));
  return counts;
}

/** The contract of every answer under the cuts. */
function expectOnlyAllowedAnswers(outcomes: Outcome[]) {
  const wrong = outcomes.filter(
    (outcome) =>
      !(
        (typeof outcome.status === 'number' && outcome.status >= 200 && outcome.status < 500) ||
        (outcome.status === 503 && Number(outcome.retryAfter) > 0 && outcome.code === 'database_unavailable')
      ),
  );
  expect(wrong, JSON.stringify(tally(outcomes))).toEqual([]);
  expect(Math.max(...outcomes.map((outcome) => outcome.ms))).toBeLessThan(REQUEST_BOUND_MS);
}

/**
 * Every account the load tried to open is stored whole (its password verifies) or not at all;
 * every one that was answered 201 is stored.
 */
async function expectNoHalfWrittenAccount({ direct }: Shop, outcomes: Outcome[]) {
  const attempts = outcomes.filter((outcome) => outcome.kind === 'register');
  const emails = attempts.map((attempt) => attempt.email ?? '');
  const stored = await executeRows<{
    email: string;
    username: string;
    password_hash: string | null;
    email_verified_at: Date | null;
  }>(
    direct.db,
    sql`SELECT email, username, password_hash, email_verified_at FROM users WHERE email IN (${sql.join(
      emails.map((email) => sql`${email}`),
      sql`, `,
    )})`,
  );
  const byEmail = new Map(stored.map((row) => [row.email, row]));
  for (const attempt of attempts) {
    const row = byEmail.get(attempt.email ?? '');
    if (attempt.status === 201) expect(row, `answered 201 but not stored: ${attempt.email}`).toBeDefined();
    if (!row) continue;
    expect(row.username).toBe(attempt.username);
    expect(row.email_verified_at).not.toBeNull();
    expect(row.password_hash && (await verifyPassword(PASSWORD, row.password_hash))).toBe(true);
  }
  return { attempted: attempts.length, stored: stored.length };
}

/** The log: no 500 was logged, and the warnings name the failure without any request's data. */
function expectQuietLog({ log }: Shop, outcomes: Outcome[]) {
  const entries = log.map((line) => JSON.parse(line) as { level: number; msg: string });
  expect(entries.filter((entry) => entry.msg === 'request failed')).toEqual([]);
  const warnings = log.filter((line) => line.includes('"database unavailable"'));
  const emails = outcomes.flatMap((outcome) => (outcome.email ? [outcome.email] : []));
  for (const line of warnings) {
    expect(line).not.toContain(PASSWORD);
    for (const email of emails) expect(line).not.toContain(email);
  }
  return warnings.length;
}

describe.skipIf(!postgresUrl)('PostgreSQL connections cut under load', () => {
  test('backends terminated by the server: 503 with Retry-After, nothing half-written, service continues', async () => {
    const shop = await shopBehindProxy();
    const load = shop.startLoad();
    await sleep(1000);
    let terminated = 0;
    for (let round = 0; round < 3; round++) {
      terminated += await shop.terminateBackends();
      await sleep(700);
    }
    const cutAt = performance.now();
    await sleep(1500);
    const outcomes = await load.stop();
    console.info('terminated backends:', terminated, tally(outcomes));

    expect(terminated).toBeGreaterThan(0);
    expectOnlyAllowedAnswers(outcomes);
    expect(outcomes.filter((outcome) => outcome.status === 503).length).toBeGreaterThan(0);
    // The pool opens new connections for the next requests: the shop kept serving.
    expect(outcomes.filter((outcome) => outcome.status === 200 && outcome.startedAt > cutAt).length).toBeGreaterThan(0);
    expect(await shop.timeToSuccess('register')).toBeLessThan(RECOVERY_BOUND_MS);
    console.info('accounts:', await expectNoHalfWrittenAccount(shop, outcomes));
    console.info('warnings logged:', expectQuietLog(shop, outcomes));
    expect((await fetch(`${shop.base}/readyz`)).status).toBe(200);
    // Every connection the cuts broke went back to the pool (Drizzle's BEGIN on a dead one kept it lent out for good).
    await expectNoneLentOut(shop);
  }, 120_000);

  test('the database refuses connections for 3 s, then returns: 503s meanwhile, full service within 5 s', async () => {
    const shop = await shopBehindProxy();
    const load = shop.startLoad();
    await sleep(1000);
    await shop.proxy.refuse();
    const downAt = performance.now();
    await sleep(1000);
    const duringOutage = await shop.request('read');
    expect(duringOutage).toMatchObject({ status: 503, code: 'database_unavailable' });
    expect(Number(duringOutage.retryAfter)).toBeGreaterThan(0);
    expect((await fetch(`${shop.base}/readyz`)).status).toBe(503);
    await sleep(2000);
    await shop.proxy.open();
    const upAt = performance.now();
    const [readBack, registerBack] = await Promise.all([shop.timeToSuccess('read'), shop.timeToSuccess('register')]);
    await sleep(1000);
    const outcomes = await load.stop();
    console.info(
      'back after (ms):',
      { read: Math.round(readBack), register: Math.round(registerBack) },
      tally(outcomes),
    );

    expectOnlyAllowedAnswers(outcomes);
    const whileDown = outcomes.filter((o) => o.startedAt > downAt + 200 && o.startedAt + o.ms < upAt);
    expect(whileDown.length).toBeGreaterThan(0);
    expect(whileDown.every((outcome) => outcome.status === 503)).toBe(true);
    expect(readBack).toBeLessThan(RECOVERY_BOUND_MS);
    expect(registerBack).toBeLessThan(RECOVERY_BOUND_MS);
    // Once back, the load's own requests succeed again (none failing from a stale connection).
    const afterRecovery = outcomes.filter((o) => o.startedAt > upAt + Math.max(readBack, registerBack));
    expect(afterRecovery.length).toBeGreaterThan(0);
    expect(afterRecovery.every((o) => o.status === 200 || o.status === 201)).toBe(true);
    console.info('accounts:', await expectNoHalfWrittenAccount(shop, outcomes));
    console.info('warnings logged:', expectQuietLog(shop, outcomes));
    await expect.poll(async () => (await fetch(`${shop.base}/readyz`)).status).toBe(200);
  }, 120_000);

  test('the database accepts connections and never answers: requests end with 503 by the connection timeout', async () => {
    const shop = await shopBehindProxy();
    shop.proxy.goSilent();
    const outcomes = await Promise.all(
      Array.from({ length: 6 }, (_, index) => shop.request(index % 2 ? 'register' : 'read')),
    );
    console.info('silent database (ms):', outcomes.map((outcome) => Math.round(outcome.ms)).join(', '));
    for (const outcome of outcomes) {
      expect(outcome).toMatchObject({ status: 503, code: 'database_unavailable' });
      expect(outcome.ms).toBeGreaterThanOrEqual(POOL_SETTINGS.connectionTimeoutMillis - 100);
    }
    expectOnlyAllowedAnswers(outcomes);
    await shop.proxy.open();
    expect(await shop.timeToSuccess('read')).toBeLessThan(RECOVERY_BOUND_MS);
    await expectNoHalfWrittenAccount(shop, outcomes);
  }, 120_000);
});
