/**
 * A production shop server on a PostgreSQL database of the benchmark's own (created, then
 * dropped), with the owner signed in, and admin reads timed one request after another: what the
 * PostgreSQL benchmarks (the dashboard, the admin lists) share.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import pg from 'pg';
import { throwawayShopEnv } from '../../server/testing/throwaway-shop.ts';
import { nextClientAddress } from './client-address.ts';
import { freePort, hasExited, startShopProcess, stopProcess } from './processes.ts';

/** The server and its default database (only used to create and drop the benchmark's own). */
export const postgresServerUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export const benchOwner = { email: 'owner@stillwater.test', password: 'bench-owner-password' };

export type PostgresShop = { url: string; databaseUrl: string; process: ReturnType<typeof startShopProcess> };

export function withDatabase(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.href;
}

export async function onServer<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

/**
 * Creates the database `name`, runs the shop on it (migrated, the owner created, no demo content)
 * for `run`, then stops the shop and drops the database whatever happened.
 */
export async function withPostgresShop<T>(name: string, run: (shop: PostgresShop) => Promise<T>): Promise<T> {
  const databaseUrl = withDatabase(postgresServerUrl, name);
  await onServer(postgresServerUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${name}`);
  });
  const dataDir = await mkdtemp(path.join(tmpdir(), `stillwater-${name}-`));
  let shop: PostgresShop | null = null;
  try {
    shop = await startShop(databaseUrl, dataDir);
    return await run(shop);
  } finally {
    if (shop) await stopProcess(shop.process);
    await rm(dataDir, { recursive: true, force: true });
    await onServer(postgresServerUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

/** The production server (server/start.js) on the benchmark's database. */
async function startShop(databaseUrl: string, dataDir: string): Promise<PostgresShop> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...throwawayShopEnv(dataDir, { password: benchOwner.password }),
    DATABASE_URL: databaseUrl,
    SEED_DEMO_DATA: 'false',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    // Each request comes from its own address (X-Forwarded-For), so the admin limit (50 a minute
    // per address) never refuses one: it is paid for, as for any admin.
    TRUST_PROXY: '127.0.0.1',
  };
  const child = startShopProcess(env);
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`the shop exited with code ${child.exitCode ?? child.signalCode}`);
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok) return { url, databaseUrl, process: child };
    } catch {
      // Not listening yet.
    }
    await delay(250);
  }
  await stopProcess(child);
  throw new Error('the shop was not ready within 120 s');
}

/** Signs the owner in; answers the session's cookies. */
/** Signs the bench's owner in from a client address of its own: the session's cookies and that address. */
export async function ownerSession(
  baseUrl: string,
  owner: { email: string; password: string } = benchOwner,
): Promise<{ cookie: string; address: string }> {
  const jar = new Map<string, string>();
  const address = nextClientAddress();
  const cookies = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
  const send = async (pathname: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', address);
    headers.set('cookie', cookies());
    const response = await fetch(new URL(pathname, baseUrl), { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const split = pair.indexOf('=');
      jar.set(pair.slice(0, split), pair.slice(split + 1));
    }
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${pathname} answered ${response.status}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const { token } = await send('/api/auth/csrf-token');
  await send('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': String(token) },
    body: JSON.stringify(owner),
  });
  return { cookie: cookies(), address };
}

/** The owner's session cookies (see ownerSession). */
export async function ownerCookie(baseUrl: string): Promise<string> {
  return (await ownerSession(baseUrl)).cookie;
}

export type Latency = {
  name: string;
  requests: number;
  failed: number;
  meanMs: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  /** The last answer's body, parsed, for the caller to check the data was there. */
  lastAnswer: unknown;
};

/** One admin read, one request after another: a warm-up, then the measured requests. */
export async function measureSequential(
  baseUrl: string,
  cookie: string,
  name: string,
  pathname: string,
  { warmup, requests }: { warmup: number; requests: number },
): Promise<Latency> {
  const url = new URL(pathname, baseUrl).href;
  const once = async () => {
    const started = performance.now();
    const response = await fetch(url, { headers: { cookie, 'x-forwarded-for': nextClientAddress() } });
    const body = await response.text();
    return { ms: performance.now() - started, ok: response.status === 200, body };
  };
  for (let i = 0; i < warmup; i += 1) await once();
  const times: number[] = [];
  let failed = 0;
  let last = '';
  for (let i = 0; i < requests; i += 1) {
    const { ms, ok, body } = await once();
    if (ok) {
      times.push(ms);
      last = body;
    } else failed += 1;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => round(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? Number.NaN);
  return {
    name,
    requests,
    failed,
    meanMs: round(times.reduce((sum, ms) => sum + ms, 0) / Math.max(1, times.length)),
    p50Ms: at(0.5),
    p99Ms: at(0.99),
    maxMs: round(times.at(-1) ?? Number.NaN),
    lastAnswer: last ? JSON.parse(last) : null,
  };
}

const round = (ms: number) => Math.round(ms * 10) / 10;
