import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import type { PgBoss } from 'pg-boss';
import { expect, onTestFinished, test } from 'vitest';
import { refreshMarketplaceData } from '#common/contracts/admin/marketplace.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { currentRequestId, requestIdLogOptions, trackRequestIds } from './request-context.ts';

type LogLine = Record<string, unknown>;

/** Log lines as written (to count fields) and as objects. */
function captureLog() {
  const raw: string[] = [];
  return {
    raw,
    lines: () => raw.map((line) => JSON.parse(line) as LogLine),
    stream: { write: (line: string) => void raw.push(line) },
  };
}

/** A bare Fastify app with the shop's request-id logging, listening on a free port. */
async function listeningApp() {
  const log = captureLog();
  const app = Fastify({ logger: { level: 'info', ...requestIdLogOptions, stream: log.stream } });
  trackRequestIds(app);
  onTestFinished(() => app.close());
  return { app, log };
}

function port(app: { server: http.Server }) {
  return (app.server.address() as AddressInfo).port;
}

/** A POST over a real socket whose body arrives in two parts, the second after `delayMs`. */
function postSlowly(at: number, path: string, body: string, delayMs: number) {
  return new Promise<number>((resolve, reject) => {
    const request = http.request(
      { port: at, method: 'POST', path, headers: { 'content-type': 'application/json' } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.write(body.slice(0, 3));
    setTimeout(() => request.end(body.slice(3)), delayMs);
  });
}

test('lines written through app.log while serving carry the request id once; lines outside carry none', async () => {
  const { app, log } = await listeningApp();
  app.get('/work', async (request) => {
    app.log.info('through app.log');
    app.log.child({ service: 'mail' }).warn('through a service logger');
    request.log.info('through request.log');
    app.log.info({ reqId: 'given' }, 'naming its own id');
    return {};
  });
  await app.ready();
  app.log.info('before any request');
  const response = await app.inject({ method: 'GET', url: '/work' });
  expect(response.statusCode).toBe(200);
  app.log.info('after the request');

  const byMessage = new Map(log.lines().map((line) => [line.msg, line]));
  const reqId = byMessage.get('incoming request')?.reqId;
  expect(reqId).toMatch(/^req-/);
  for (const msg of ['through app.log', 'through a service logger', 'through request.log', 'request completed']) {
    expect(byMessage.get(msg)?.reqId, msg).toBe(reqId);
  }
  expect(byMessage.get('naming its own id')?.reqId).toBe('given');
  expect(byMessage.get('before any request')).not.toHaveProperty('reqId');
  expect(byMessage.get('after the request')).not.toHaveProperty('reqId');
  // Never twice on one line (request.log binds the id itself).
  for (const line of log.raw) expect(line.split('"reqId":').length, line).toBeLessThanOrEqual(2);
});

test('concurrent requests over real sockets, one body trickling in, keep their own ids', async () => {
  const { app, log } = await listeningApp();
  // Both requests are inside their handlers before either goes on: their work interleaves.
  let arrived = 0;
  let bothArrived!: () => void;
  const barrier = new Promise<void>((resolve) => {
    bothArrived = resolve;
  });
  app.post<{ Body: { name: string } }>('/work', async (request) => {
    const { name } = request.body;
    app.log.info({ name, seen: currentRequestId() === request.id }, 'started');
    arrived += 1;
    if (arrived === 2) bothArrived();
    await barrier;
    await new Promise((resolve) => setTimeout(resolve, name === 'a' ? 20 : 5));
    app.log.info({ name }, 'finished');
    // Work the request leaves running after answering still belongs to it.
    setTimeout(() => app.log.info({ name }, 'left running'), 30);
    return {};
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const at = port(app);
  const statuses = await Promise.all([
    postSlowly(at, '/work', JSON.stringify({ name: 'a' }), 60),
    postSlowly(at, '/work', JSON.stringify({ name: 'b' }), 1),
  ]);
  expect(statuses).toEqual([200, 200]);
  await expect.poll(() => log.lines().filter((line) => line.msg === 'left running').length).toBe(2);

  const lines = log.lines();
  for (const name of ['a', 'b']) {
    const ownLines = lines.filter((line) => line.name === name);
    expect(ownLines.map((line) => line.msg)).toEqual(['started', 'finished', 'left running']);
    const ids = new Set(ownLines.map((line) => line.reqId));
    expect(ids.size, name).toBe(1);
    expect(ownLines[0]?.seen).toBe(true);
  }
  const [a] = lines.filter((line) => line.name === 'a');
  const [b] = lines.filter((line) => line.name === 'b');
  expect(a?.reqId).not.toBe(b?.reqId);
});

test("a request's context ends with it: neither the server's other listeners nor an inject's caller inherit it", async () => {
  const { app, log } = await listeningApp();
  app.get('/inner', async () => {
    app.log.info('inner');
    return {};
  });
  // As the server rendering does: the page's handler calls the API in process.
  app.get('/outer', async () => {
    const inner = app.inject({ method: 'GET', url: '/inner' });
    app.log.info('outer, inner under way');
    await inner;
    app.log.info('outer, inner done');
    return {};
  });
  const seenByOtherListener: (string | undefined)[] = [];
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.server.on('request', () => seenByOtherListener.push(currentRequestId()));
  const response = await fetch(`http://127.0.0.1:${port(app)}/outer`);
  expect(response.status).toBe(200);

  const byMessage = new Map(log.lines().map((line) => [line.msg, line]));
  const outerId = log.lines().find((line) => (line.req as { url?: string } | undefined)?.url === '/outer')?.reqId;
  const innerId = log.lines().find((line) => (line.req as { url?: string } | undefined)?.url === '/inner')?.reqId;
  expect(outerId).toBeDefined();
  expect(innerId).not.toBe(outerId);
  expect(byMessage.get('inner')?.reqId).toBe(innerId);
  expect(byMessage.get('outer, inner under way')?.reqId).toBe(outerId);
  expect(byMessage.get('outer, inner done')?.reqId).toBe(outerId);
  expect(seenByOtherListener).toEqual([undefined]);
});

test('through the whole app: a service writing through app.log while serving a request logs its reqId', async () => {
  const log = captureLog();
  // The queue refuses every job: the marketplace refresh logs that through app.log, in the request.
  const jobs = createJobs();
  jobs.attachQueue({
    boss: { send: async () => Promise.reject(new Error('the queue is down')) } as unknown as PgBoss,
    stop: async () => {},
  });
  const { app } = await buildTestApp({ jobs, env: { LOG_LEVEL: 'info' }, logStream: log.stream });
  app.log.info('outside any request');
  const response = await app.inject({ method: 'GET', url: refreshMarketplaceData.path });
  expect(response.statusCode).toBe(202);
  expect(response.json()).toEqual({ started: true });

  await expect
    .poll(() => log.lines().some((line) => line.msg === 'The marketplace refresh could not be queued'))
    .toBe(true);
  const lines = log.lines();
  const reqId = lines.find(
    (line) => (line.req as { url?: string } | undefined)?.url === refreshMarketplaceData.path,
  )?.reqId;
  expect(reqId).toMatch(/^req-/);
  expect(lines.find((line) => line.msg === 'The marketplace refresh could not be queued')).toMatchObject({
    reqId,
    level: 40,
    err: { message: 'the queue is down' },
  });
  expect(lines.find((line) => line.msg === 'outside any request')).not.toHaveProperty('reqId');
  for (const line of log.raw) expect(line.split('"reqId":').length, line).toBeLessThanOrEqual(2);
});

test('bad input still gets its 4xx, and its log lines their id', async () => {
  const log = captureLog();
  const { app } = await buildTestApp({ env: { LOG_LEVEL: 'info' }, logStream: log.stream });
  const response = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    headers: { 'content-type': 'application/json' },
    payload: '{"email":',
  });
  expect(response.statusCode).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  const lines = log.lines();
  expect(lines.length).toBeGreaterThan(0);
  const reqId = lines[0]?.reqId;
  expect(reqId).toMatch(/^req-/);
  for (const line of lines) expect(line.reqId, String(line.msg)).toBe(reqId);
});
