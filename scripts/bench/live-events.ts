/**
 * The live events at scale (issue 11): one shop server process holds 1,000 open admin streams
 * (GET /api/atlas/events, each from its own client address, all with the owner's session) with
 * under 50 MB of extra memory, and delivers an event to all of them within 1 s. The extra memory
 * is the server's resident set with the streams open less before them (read from /proc, after a
 * warm-up); the delivery time runs from sending an admin write (a permission change in admin
 * management, a user_updated event) until the last of the 1,000 clients has read its message. On
 * the embedded database, and on PostgreSQL (LISTEN/NOTIFY) when DATABASE_URL is set.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { LIVE_EVENTS_PATH } from '../../common/live-events.ts';
import {
  type EventStream,
  openEventStream,
  type StreamFrame,
} from '../../server/features/events/event-stream-client.ts';
import { throwawayShopEnv } from '../../server/testing/throwaway-shop.ts';
import { nextClientAddress } from './client-address.ts';
import { freePort, startShopProcess, stopProcess, waitUntilReady } from './processes.ts';
import type { Target } from './report.ts';

export const liveEventsBench = {
  streams: 1000,
  /** Streams opened at the same time while connecting them all. */
  openConcurrency: 50,
  /** Events timed, one after another. */
  events: 5,
  /** The PostgreSQL server, when DATABASE_URL is set (the benchmark makes a database of its own on it). */
  serverUrl: process.env.DATABASE_URL || null,
  database: 'stillwater_bench_live_events',
  /** Exclusive. */
  extraMemoryTargetMb: 50,
  /** Inclusive: the slowest of the timed events, until the last client has it. */
  deliveryTargetMs: 1000,
};

export type LiveEventsRun = {
  database: 'pglite' | 'postgres';
  streams: number;
  /** Streams that did not open, or did not receive every timed event. */
  failedStreams: number;
  openSeconds: number;
  rssBeforeMb: number;
  rssWithStreamsMb: number;
  extraMb: number;
  extraKbPerStream: number;
  /** Per timed event: from sending the write until the last client had it, and until the write's answer. */
  deliveries: { allReceivedMs: number; answerMs: number }[];
  deliveryMaxMs: number;
  deliveryMedianMs: number;
};

export type LiveEventsBenchResult = { runs: LiveEventsRun[] };

const ownerEmail = 'owner@stillwater.test';
const ownerPassword = 'bench-owner-password';
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

/** Runs the benchmark on the embedded database, then on PostgreSQL when DATABASE_URL is set. */
export async function measureLiveEvents(): Promise<LiveEventsBenchResult> {
  const runs: LiveEventsRun[] = [await measureOn('pglite')];
  if (liveEventsBench.serverUrl) runs.push(await measureOn('postgres'));
  return { runs };
}

async function measureOn(kind: 'pglite' | 'postgres'): Promise<LiveEventsRun> {
  const { serverUrl, database } = liveEventsBench;
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stillwater-bench-live-'));
  const databaseUrl = kind === 'postgres' && serverUrl ? withDatabase(serverUrl, database) : null;
  if (databaseUrl && serverUrl) await recreateDatabase(serverUrl, database);
  let shop: Awaited<ReturnType<typeof startShop>> | null = null;
  const streams: EventStream[] = [];
  try {
    shop = await startShop(dataDir, databaseUrl);
    process.stdout.write(`  ${kind}: the shop serves on ${shop.url}\n`);
    return await measureShop(kind, shop, streams);
  } finally {
    await Promise.all(streams.map((stream) => stream.close()));
    if (shop) await stopProcess(shop.process);
    await rm(dataDir, { recursive: true, force: true });
    if (databaseUrl && serverUrl) await dropDatabase(serverUrl, database);
  }
}

async function measureShop(
  kind: 'pglite' | 'postgres',
  shop: { url: string; pid: number },
  streams: EventStream[],
): Promise<LiveEventsRun> {
  const { streams: count, openConcurrency, events } = liveEventsBench;
  const owner = await signIn(shop.url);
  const userId = await adminToChange(shop.url, owner);
  const open = async () => {
    const stream = await openEventStream(`${shop.url}${LIVE_EVENTS_PATH}`, {
      headers: { cookie: owner.cookie, 'x-forwarded-for': nextClientAddress() },
    });
    if (stream.status !== 200) throw new Error(`a stream answered ${stream.status}`);
    await stream.next((frame) => frame.kind === 'event' && frame.event === 'ready', 30_000);
    return stream;
  };

  // Warm-up: the first streams and events pay for compiling the code paths; then the baseline.
  const warm = await Promise.all(Array.from({ length: 20 }, open));
  await timedEvent(shop.url, owner, userId, warm, 0);
  await Promise.all(warm.map((stream) => stream.close()));
  await delay(1500);
  const before = await steadyRss(shop.pid);

  const opening = performance.now();
  for (let next = 0; next < count; next += openConcurrency) {
    const batch = Math.min(openConcurrency, count - next);
    streams.push(...(await Promise.all(Array.from({ length: batch }, open))));
  }
  const openSeconds = (performance.now() - opening) / 1000;
  process.stdout.write(`  ${kind}: ${streams.length} streams open in ${openSeconds.toFixed(1)} s\n`);
  await delay(2000);
  const withStreams = await steadyRss(shop.pid);

  const deliveries: LiveEventsRun['deliveries'] = [];
  let failedStreams = 0;
  for (let n = 1; n <= events; n += 1) {
    const timed = await timedEvent(shop.url, owner, userId, streams, n);
    deliveries.push({ allReceivedMs: timed.allReceivedMs, answerMs: timed.answerMs });
    failedStreams = Math.max(failedStreams, timed.missed);
    process.stdout.write(
      `  ${kind}: event ${n} reached all ${streams.length - timed.missed} streams in ${timed.allReceivedMs} ms (the write answered in ${timed.answerMs} ms)\n`,
    );
    await delay(300);
  }
  const after = Math.max(withStreams, await steadyRss(shop.pid));
  const sorted = deliveries.map((delivery) => delivery.allReceivedMs).sort((a, b) => a - b);
  return {
    database: kind,
    streams: streams.length,
    failedStreams: failedStreams + (count - streams.length),
    openSeconds: Math.round(openSeconds * 10) / 10,
    rssBeforeMb: mb(before),
    rssWithStreamsMb: mb(after),
    extraMb: mb(after - before),
    extraKbPerStream: Math.round((after - before) / 1024 / streams.length),
    deliveries,
    deliveryMaxMs: sorted.at(-1) ?? 0,
    deliveryMedianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
  };
}

/**
 * One admin write (the owner toggles the admin's manageUsers permission: a user_updated event),
 * timed until every stream has read it.
 */
async function timedEvent(baseUrl: string, owner: Session, userId: string, streams: EventStream[], n: number) {
  const manageUsers = n % 2 === 1;
  const isIt = (frame: StreamFrame) => {
    if (frame.kind !== 'event' || frame.event !== 'message') return false;
    const body = JSON.parse(frame.data) as { type: string; data: { id: string; user?: { adminPermissions?: object } } };
    return (
      body.type === 'user_updated' &&
      body.data.id === userId &&
      (body.data.user?.adminPermissions as { manageUsers?: boolean } | undefined)?.manageUsers === manageUsers
    );
  };
  const started = performance.now();
  const received = streams.map((stream) =>
    stream.next(isIt, 10_000).then(
      () => performance.now() - started,
      () => null,
    ),
  );
  const answer = await post(baseUrl, owner, '/api/admin-setup/update-permissions', {
    userId,
    permissions: { manageUsers },
  });
  const answerMs = performance.now() - started;
  if (!answer.ok) throw new Error(`update-permissions answered ${answer.status}`);
  const times = await Promise.all(received);
  const arrived = times.filter((time): time is number => time !== null);
  return {
    allReceivedMs: Math.round(Math.max(0, ...arrived)),
    answerMs: Math.round(answerMs),
    missed: times.length - arrived.length,
  };
}

/** The median of a few readings of the server's resident set, a quarter of a second apart. */
async function steadyRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let n = 0; n < 5; n += 1) {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
    if (!Number.isFinite(kb)) throw new Error('no VmRSS in /proc');
    readings.push(kb * 1024);
    await delay(250);
  }
  readings.sort((a, b) => a - b);
  return readings[2] as number;
}

type Session = { cookie: string; csrfToken: string; address: string };

async function post(baseUrl: string, session: Session, pathname: string, body: unknown) {
  const response = await fetch(new URL(pathname, baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': session.csrfToken,
      'x-forwarded-for': session.address,
      cookie: session.cookie,
    },
    body: JSON.stringify(body),
  });
  await response.arrayBuffer();
  return response;
}

/** A browser session: its cookies and CSRF token, from one client address. */
async function browserSession(baseUrl: string): Promise<Session & { jar: Map<string, string> }> {
  const address = nextClientAddress();
  const response = await fetch(new URL('/api/auth/csrf-token', baseUrl), { headers: { 'x-forwarded-for': address } });
  const jar = new Map<string, string>();
  keepCookies(jar, response);
  const { token } = (await response.json()) as { token: string };
  return { jar, address, csrfToken: token, cookie: cookieHeader(jar) };
}

function keepCookies(jar: Map<string, string>, response: Response) {
  for (const cookie of response.headers.getSetCookie()) {
    const [pair = ''] = cookie.split(';');
    const split = pair.indexOf('=');
    jar.set(pair.slice(0, split), pair.slice(split + 1));
  }
}

const cookieHeader = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

/** Signs the owner in. */
async function signIn(baseUrl: string): Promise<Session> {
  const session = await browserSession(baseUrl);
  const response = await fetch(new URL('/api/auth/login', baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': session.csrfToken,
      'x-forwarded-for': session.address,
      cookie: session.cookie,
    },
    body: JSON.stringify({ email: ownerEmail, password: ownerPassword }),
  });
  if (!response.ok) throw new Error(`the owner's sign-in answered ${response.status}`);
  keepCookies(session.jar, response);
  await response.arrayBuffer();
  return { ...session, cookie: cookieHeader(session.jar) };
}

/** A registered user made an admin, whose permissions the timed writes change. */
async function adminToChange(baseUrl: string, owner: Session): Promise<string> {
  const visitor = await browserSession(baseUrl);
  const suffix = Date.now().toString(36);
  const response = await fetch(new URL('/api/auth/register', baseUrl), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-csrf-token': visitor.csrfToken,
      'x-forwarded-for': visitor.address,
      cookie: visitor.cookie,
    },
    body: JSON.stringify({
      username: `live_bench_${suffix}`,
      email: `live.bench.${suffix}@example.com`,
      password: 'Bench-Quiet-Water-42',
    }),
  });
  if (response.status !== 201) throw new Error(`the registration answered ${response.status}`);
  const { user } = (await response.json()) as { user: { id: string } };
  const promoted = await post(baseUrl, owner, '/api/admin-setup/create-admin', { userId: user.id, permissions: {} });
  if (!promoted.ok) throw new Error(`create-admin answered ${promoted.status}`);
  return user.id;
}

/** The production server (server/start.js), on PGlite in `dataDir` or on `databaseUrl`. */
async function startShop(dataDir: string, databaseUrl: string | null) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...throwawayShopEnv(dataDir, { password: ownerPassword }),
    // The owner is all the benchmark needs.
    SEED_DEMO_DATA: 'false',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    // Each stream comes from its own address (X-Forwarded-For), so the admin limit (50 a minute per
    // address) never refuses one: it is paid for, as for any admin.
    TRUST_PROXY: '127.0.0.1',
  };
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  // Redis would only matter to a PostgreSQL shop; this one measures LISTEN/NOTIFY.
  delete env.REDIS_URL;
  const child = startShopProcess(env);
  const pid = await waitUntilReady(child, url);
  return { url, process: child, pid };
}

function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}

async function onServer(url: string, statements: string[]) {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const statement of statements) await client.query(statement);
  } finally {
    await client.end();
  }
}

const recreateDatabase = (serverUrl: string, database: string) =>
  onServer(serverUrl, [`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`, `CREATE DATABASE ${database}`]);
const dropDatabase = (serverUrl: string, database: string) =>
  onServer(serverUrl, [`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`]);

/** The targets, for each database measured. */
export function liveEventsTargets(result: LiveEventsBenchResult | null): Target[] {
  const { streams, extraMemoryTargetMb, deliveryTargetMs } = liveEventsBench;
  const runs: (LiveEventsRun | null)[] = result?.runs.length ? result.runs : [null];
  return runs.flatMap((run) => {
    const where = run ? ` (${run.database})` : '';
    return [
      {
        name: `${streams} open admin streams: the server's extra memory${where}`,
        goal: `< ${extraMemoryTargetMb} MB`,
        actual: run ? `${run.extraMb} MB (${run.extraKbPerStream} kB a stream)` : 'not measured',
        met: run !== null && run.streams === streams && run.extraMb < extraMemoryTargetMb,
      },
      {
        name: `an event reaches all ${streams} streams${where}`,
        goal: `≤ ${deliveryTargetMs} ms`,
        actual: run ? `${run.deliveryMaxMs} ms (median ${run.deliveryMedianMs} ms)` : 'not measured',
        met: run !== null && run.failedStreams === 0 && run.deliveryMaxMs <= deliveryTargetMs,
      },
    ];
  });
}

export function liveEventsText(result: LiveEventsBenchResult | null): string {
  if (!result) return '';
  const rows = result.runs.map(
    (run) =>
      `  ${run.database.padEnd(8)} ${run.streams} streams (opened in ${run.openSeconds} s, ${run.failedStreams} failed): RSS ${run.rssBeforeMb} → ${run.rssWithStreamsMb} MB, +${run.extraMb} MB (${run.extraKbPerStream} kB a stream); event to all streams ${run.deliveries.map((delivery) => delivery.allReceivedMs).join(', ')} ms (writes answered in ${run.deliveries.map((delivery) => delivery.answerMs).join(', ')} ms)`,
  );
  return ['Live events at scale: one server process, the owner on every stream', ...rows, ''].join('\n');
}
