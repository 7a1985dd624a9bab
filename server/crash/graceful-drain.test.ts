import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { LIVE_EVENTS_PATH, LIVE_READY_EVENT } from '#common/live-events.ts';
import { browser } from '#server/cluster/browser.ts';
import { SESSION_COOKIE } from '#server/http/session.ts';
import { databaseUrl, postgresUrl, redisUrl } from '#server/testing/test-environment.ts';
import { type ShopProcess, startShopProcess } from './server-process.ts';

/**
 * Issue 16, "graceful drain on SIGTERM": a real production process is sent SIGTERM while a
 * request is in flight (its body still arriving) and the owner's live event stream is open. The
 * request must get its full answer, the stream must end cleanly (the chunked answer finished, no
 * reset), new connections must be refused or answered 503 while it drains, and the process must
 * exit with code 0 within the shutdown's 10 s bound (server/main.ts).
 *
 * On PGlite by default; on PostgreSQL (a database of its own) and Redis when DATABASE_URL and
 * REDIS_URL are set.
 */

/** How long the in-flight request's body keeps arriving after the SIGTERM (ms). */
const BODY_DELAY_AFTER_SIGTERM_MS = 2_000;
/** The shutdown's own bound (server/main.ts exits with 1 after it). */
const SHUTDOWN_BOUND_MS = 10_000;

/** New connections tried together, again and again while the process drains. */
const PROBES_AT_ONCE = 4;

type Outcome = { at: number; result: string };

/** One request on a connection of its own (no keep-alive): its status, or the error's code. */
function freshRequest(url: string): Promise<string> {
  return new Promise((resolve) => {
    const request = http.get(url, { agent: false, timeout: 2000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.statusCode)));
      response.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    request.on('timeout', () => request.destroy(new Error('timeout')));
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

describe('graceful drain on SIGTERM', () => {
  let dir = '';
  let shop: ShopProcess | null = null;
  let database: string | null = null;
  const figures: Record<string, unknown> = {};

  afterAll(async () => {
    await shop?.kill();
    if (dir) await rm(dir, { recursive: true, force: true });
    if (database) {
      const admin = new pg.Client({ connectionString: postgresUrl ?? undefined });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
      await admin.end();
    }
    console.info('graceful drain:', JSON.stringify(figures));
  });

  test('in-flight requests finish, event streams end cleanly, new connections are refused, exit 0', {
    timeout: 180_000,
  }, async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'stillwater-crash-drain-'));
    let shopDatabaseUrl: string | undefined;
    if (postgresUrl) {
      database = `sw_drain_${randomBytes(6).toString('hex')}`;
      const admin = new pg.Client({ connectionString: postgresUrl });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${database}`);
      await admin.end();
      shopDatabaseUrl = databaseUrl(database);
    }
    shop = await startShopProcess({
      dataDir: path.join(dir, 'data'),
      ...(shopDatabaseUrl ? { databaseUrl: shopDatabaseUrl } : {}),
      env: { SEED_DEMO_DATA: 'false', LOG_LEVEL: 'info', ...(postgresUrl && redisUrl ? { REDIS_URL: redisUrl } : {}) },
    });
    const running = shop;
    figures.database = shopDatabaseUrl ? 'postgres' : 'pglite';

    // The owner signs in, as the back office does, and opens the live event stream.
    const owner = browser({ address: '127.0.0.1' });
    const signIn = await owner.write(running.url, 'POST', '/api/auth/login', running.owner);
    expect(signIn.status, signIn.text).toBe(200);
    const session = owner.cookie(SESSION_COOKIE);
    expect(session).toBeTruthy();
    const stream = await new Promise<{
      status: number;
      text: () => string;
      ended: Promise<{ complete: boolean; error: string | null; at: number }>;
    }>((resolve, reject) => {
      const request = http.get(`${running.url}${LIVE_EVENTS_PATH}`, {
        agent: false,
        headers: { accept: 'text/event-stream', cookie: `${SESSION_COOKIE}=${session}` },
      });
      request.on('error', reject);
      request.on('response', (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
        });
        // 'end' only comes when the chunked answer was finished by the server; a reset gives 'error' or 'aborted'.
        const ended = new Promise<{ complete: boolean; error: string | null; at: number }>((settle) => {
          let error: string | null = null;
          response.on('aborted', () => {
            error ??= 'aborted';
          });
          response.on('error', (cause: NodeJS.ErrnoException) => {
            error ??= cause.code ?? cause.message;
          });
          response.on('close', () => settle({ complete: response.complete, error, at: performance.now() }));
        });
        resolve({ status: response.statusCode ?? 0, text: () => text, ended });
      });
    });
    expect(stream.status).toBe(200);
    const readyBy = Date.now() + 10_000;
    while (!stream.text().includes(`event: ${LIVE_READY_EVENT}`)) {
      if (Date.now() > readyBy) throw new Error(`the stream sent no ready event: ${stream.text()}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }

    // The in-flight request: a sign-up whose body is still arriving when the SIGTERM comes.
    const csrfToken = await owner.csrfToken(running.url);
    const body = JSON.stringify({ email: 'in-flight@crash.test' });
    const half = Math.floor(body.length / 2);
    let sendRest = () => {};
    const inFlight = new Promise<{ status: number; text: string; complete: boolean; connection: string | undefined }>(
      (resolve, reject) => {
        const request = http.request(`${running.url}/api/newsletter/subscribe`, {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'x-csrf-token': csrfToken,
            cookie: `sw_csrf=${owner.cookie('sw_csrf')}`,
          },
        });
        request.on('error', reject);
        request.on('response', (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('error', reject);
          response.on('end', () =>
            resolve({
              status: response.statusCode ?? 0,
              text,
              complete: response.complete,
              connection: response.headers.connection,
            }),
          );
        });
        request.write(body.slice(0, half));
        sendRest = () => request.end(body.slice(half));
      },
    );
    // The first half is at the server before the signal.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const signalled = performance.now();
    const stopping = running.stop();
    let exitedAt = 0;
    void stopping.finally(() => {
      exitedAt = performance.now();
    });

    // New connections from the signal on, while the request is still in flight: several at once,
    // often in the first moments. While the process drains (server/http/drain.ts) each is answered
    // 503; once it has stopped listening each is refused. Only connections caught in the switch
    // between the two may be reset (the kernel resets what it had accepted for a listening socket
    // that closes): the drain waits for them to stop coming first.
    const outcomes: Outcome[] = [];
    const probing = (async () => {
      while (running.alive()) {
        const at = Math.round(performance.now() - signalled);
        const results = await Promise.all(
          Array.from({ length: PROBES_AT_ONCE }, () => freshRequest(`${running.url}/healthz`)),
        );
        outcomes.push(...results.map((result) => ({ at, result })));
        await new Promise((resolve) => setTimeout(resolve, at < 500 ? 5 : 100));
      }
    })();
    await new Promise((resolve) => setTimeout(resolve, BODY_DELAY_AFTER_SIGTERM_MS));
    sendRest();

    const answer = await inFlight;
    const answeredMs = Math.round(performance.now() - signalled);
    await probing;
    const streamEnd = await stream.ended;
    const exitCode = await stopping;
    const exitMs = Math.round(exitedAt - signalled);
    owner.close();
    const times = (result: string) => outcomes.filter((outcome) => outcome.result === result).map(({ at }) => at);
    const firstDrainedAt = Math.min(...times('503'));
    const lastDrainedAt = Math.max(...times('503'));
    const firstRefusedAt = Math.min(...times('ECONNREFUSED'));
    Object.assign(figures, {
      inFlight: { status: answer.status, answeredMs, connection: answer.connection },
      stream: { endedMs: Math.round(streamEnd.at - signalled), complete: streamEnd.complete, error: streamEnd.error },
      probes: outcomes.length,
      firstDrainedMs: firstDrainedAt,
      lastDrainedMs: lastDrainedAt,
      firstRefusedMs: firstRefusedAt,
      // What the connections caught in the switch from draining to closed got.
      inTheSwitch: outcomes
        .filter((outcome) => outcome.at >= lastDrainedAt && outcome.at <= firstRefusedAt)
        .map((outcome) => outcome.result),
      probeResults: Object.fromEntries(
        [...new Set(outcomes.map((outcome) => outcome.result))].map((result) => [
          result,
          outcomes.filter((outcome) => outcome.result === result).length,
        ]),
      ),
      exitCode,
      exitMs,
    });

    expect(answer.status, answer.text).toBe(200);
    expect(answer.complete).toBe(true);
    expect(JSON.parse(answer.text)).toMatchObject({ confirmationRequired: false });
    expect(streamEnd).toMatchObject({ complete: true, error: null });
    // The stream ends when the drain begins, not when the process goes.
    expect(streamEnd.at - signalled).toBeLessThan(BODY_DELAY_AFTER_SIGTERM_MS);
    // Answered 503 from the first moments of the drain (only connections the signal overtook
    // were served normally), then refused once the process stopped listening, for good.
    expect(firstDrainedAt, JSON.stringify(outcomes)).toBeLessThan(BODY_DELAY_AFTER_SIGTERM_MS / 4);
    expect(firstRefusedAt, JSON.stringify(outcomes)).toBeGreaterThanOrEqual(lastDrainedAt);
    // A batch of probes shares its start time: in the batch of the first 503, the signal may have
    // overtaken some connections and not others.
    for (const outcome of outcomes) {
      const allowed =
        outcome.at <= firstDrainedAt
          ? ['200', '503']
          : outcome.at < lastDrainedAt
            ? ['503']
            : outcome.at <= firstRefusedAt
              ? ['503', 'ECONNRESET', 'ECONNREFUSED']
              : ['ECONNREFUSED'];
      expect(allowed, JSON.stringify(outcome)).toContain(outcome.result);
    }
    expect(exitCode, running.logTail()).toBe(0);
    expect(exitMs).toBeLessThan(SHUTDOWN_BOUND_MS);
    shop = null;

    // The in-flight sign-up was written before the database closed.
    const query = 'SELECT count(*)::int AS n FROM newsletter_subscribers WHERE email = $1';
    if (shopDatabaseUrl) {
      const client = new pg.Client({ connectionString: shopDatabaseUrl });
      await client.connect();
      try {
        expect((await client.query(query, ['in-flight@crash.test'])).rows[0].n).toBe(1);
      } finally {
        await client.end();
      }
    } else {
      const pglite = await PGlite.create({ dataDir: path.join(dir, 'data', 'db'), extensions: { pg_trgm } });
      try {
        expect((await pglite.query<{ n: number }>(query, ['in-flight@crash.test'])).rows[0]?.n).toBe(1);
      } finally {
        await pglite.close();
      }
    }
  });
});
