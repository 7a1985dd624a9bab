import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { refreshMarketplaceData } from '#common/contracts/admin/marketplace.ts';
import { type Marketplace, MarketplaceError } from '#server/adapters/marketplace/marketplace.ts';
import { sessions, users } from '#server/features/accounts/accounts.tables.ts';
import { pruneExpiredAccountsJob } from '#server/features/accounts/prune-expired.job.ts';
import { createSessionStore, hashToken } from '#server/features/accounts/sessions.ts';
import { currentRequestId, runInRequest } from '#server/http/request-context.ts';
import { buildTestApp, type TestApp } from '#server/testing/test-app.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { postgresUrl } from '#server/testing/test-environment.ts';
import { createJobs, SENT_BY_REQUEST_FIELD, startJobQueue } from './job-queue.ts';

test('a job sent to the queue runs in the background, and the prune job removes dead sessions', async () => {
  const database = await createTestDatabase();
  const { db } = database;
  const [user] = await db.select({ id: users.id }).from(users).limit(1);
  const accounts = createSessionStore({ db });
  const live = await accounts.create(user?.id as string);
  const dead = await accounts.create(user?.id as string);
  await db
    .update(sessions)
    .set({ expiresAt: new Date(Date.now() - 86_400_000) })
    .where(eq(sessions.idHash, hashToken(dead)));

  const errors: Error[] = [];
  const queue = await startJobQueue(database, [pruneExpiredAccountsJob(db)], {
    onError: (error) => errors.push(error),
    pollingIntervalSeconds: 0.5,
  });
  try {
    const id = await queue.boss.send('accounts.prune-expired', {});
    expect(id).toBeTruthy();
    await expect
      .poll(async () => (await queue.boss.getJobById('accounts.prune-expired', id as string))?.state, {
        timeout: 15_000,
      })
      .toBe('completed');
    const left = await db.select().from(sessions);
    expect(left).toHaveLength(1);
    expect(await accounts.findUser(live)).not.toBeNull();
    expect(errors).toEqual([]);
  } finally {
    await queue.stop();
    await database.close();
  }
});

/** A job that records what it was handed and which request it ran for. */
function recordingJobs() {
  const jobs = createJobs();
  const runs: { data: unknown; reqId: string | undefined }[] = [];
  const send = jobs.define<object>('testing.record', async (data) => {
    runs.push({ data, reqId: currentRequestId() });
    // A job the run sends goes on as part of the same request.
    if ('again' in data) await send({ chained: true });
  });
  return { jobs, runs, send };
}

test('in process, a job sent during a request runs as part of it, on exactly the data it was sent', async () => {
  const { jobs, runs, send } = recordingJobs();
  const errors: unknown[] = [];
  jobs.runInProcess((error) => errors.push(error));
  const sentOutside = { plain: 1 };
  await runInRequest('req-7', () => send({ a: 1, nested: { b: [2] }, again: true }));
  await send(sentOutside);
  await jobs.idle();
  expect(errors).toEqual([]);
  expect(runs).toEqual([
    { data: { a: 1, nested: { b: [2] }, again: true }, reqId: 'req-7' },
    { data: { plain: 1 }, reqId: undefined },
    { data: { chained: true }, reqId: 'req-7' },
  ]);
  // Sent outside any request, the data is handed on untouched.
  expect(runs[1]?.data).toBe(sentOutside);
});

test('through pg-boss, the id travels in the job and the run gets its data back without it', async () => {
  const database = await createTestDatabase();
  const { jobs, runs, send } = recordingJobs();
  const errors: Error[] = [];
  // As main.ts does: the queue starts when the first answer has gone out, still in that request's context.
  const queue = await runInRequest('req-first', () =>
    startJobQueue(database, jobs.definitions, { onError: (error) => errors.push(error), pollingIntervalSeconds: 0.5 }),
  );
  jobs.attachQueue(queue);
  try {
    await runInRequest('req-9', () => send({ a: 1 }));
    await send({ b: 2 });
    // A job sent with the field's name by someone else still runs, without it.
    await queue.boss.send('testing.record', { c: 3, [SENT_BY_REQUEST_FIELD]: 42 });
    await expect.poll(() => runs.length, { timeout: 15_000 }).toBe(3);
    expect(runs).toEqual(
      expect.arrayContaining([
        { data: { a: 1 }, reqId: 'req-9' },
        { data: { b: 2 }, reqId: undefined },
        { data: { c: 3 }, reqId: undefined },
      ]),
    );
    const [stored] = await queue.boss.findJobs('testing.record', { data: { a: 1 } });
    expect(stored?.data).toEqual({ a: 1, [SENT_BY_REQUEST_FIELD]: 'req-9' });
    expect(errors).toEqual([]);
  } finally {
    await queue.stop();
    await database.close();
  }
});

/** The shop's marketplace refresh, whose every product lookup fails: the job logs each stop. */
const marketplaceDown: Marketplace = {
  name: 'aliexpress',
  getProduct: async () => {
    throw new MarketplaceError('outage', 'AliExpress is down');
  },
  placeOrder: async () => ({ supplierOrderIds: [] }),
  getOrder: async () => {
    throw new Error('unused');
  },
  getTracking: async () => [],
  downloadImage: async () => Buffer.alloc(0),
};

/** Starts the refresh with one request, then reads the reqId of that request and of the job's line. */
async function refreshAndReadLog(app: TestApp, lines: Record<string, unknown>[]) {
  const response = await app.inject({ method: 'GET', url: refreshMarketplaceData.path });
  expect(response.statusCode).toBe(202);
  const findJobLine = () => lines.find((line) => String(line.msg).startsWith('Marketplace refresh stopped'));
  await expect.poll(findJobLine, { timeout: 20_000 }).toBeDefined();
  const jobLine = findJobLine();
  const requestLine = lines.find(
    (line) => (line.req as { url?: string } | undefined)?.url === refreshMarketplaceData.path,
  );
  return { jobLine, requestId: requestLine?.reqId };
}

function captureLines() {
  const lines: Record<string, unknown>[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(JSON.parse(line)) } };
}

test("through the whole app in process: the refresh job's log line carries the request's reqId", async () => {
  const log = captureLines();
  const { app, jobsDone } = await buildTestApp({
    marketplace: marketplaceDown,
    env: { LOG_LEVEL: 'info' },
    logStream: log.stream,
  });
  const { jobLine, requestId } = await refreshAndReadLog(app, log.lines);
  await jobsDone();
  expect(requestId).toMatch(/^req-/);
  expect(jobLine).toMatchObject({ reqId: requestId, level: 40 });
});

test("through the whole app on pg-boss: the refresh job's log line carries the request's reqId", async () => {
  const log = captureLines();
  const database = await createTestDatabase();
  const jobs = createJobs();
  const { app } = await buildTestApp({
    database,
    jobs,
    marketplace: marketplaceDown,
    env: { LOG_LEVEL: 'info' },
    logStream: log.stream,
  });
  const queue = await startJobQueue(database, jobs.definitions, {
    onError: (error) => app.log.error({ err: error }, 'background job failed'),
    pollingIntervalSeconds: 0.5,
  });
  jobs.attachQueue(queue);
  try {
    const { jobLine, requestId } = await refreshAndReadLog(app, log.lines);
    expect(requestId).toMatch(/^req-/);
    expect(jobLine).toMatchObject({ reqId: requestId, level: 40 });
    expect(log.lines.filter((line) => line.msg === 'background job failed')).toEqual([]);
  } finally {
    await queue.stop();
  }
});

test.skipIf(Boolean(postgresUrl))(
  'on the embedded database a send wakes its worker at once, however seldom the worker looks on its own; a queue an earlier start made is woken too',
  async () => {
    const database = await createTestDatabase();
    const pglite = database.pglite as NonNullable<typeof database.pglite>;
    // The queue as a start before wake-ups made it: without them.
    const { fromPglite, PgBoss } = await import('pg-boss');
    const earlier = new PgBoss({ db: fromPglite(pglite), backend: 'pglite' });
    await earlier.start();
    await earlier.createQueue('testing.record');
    await earlier.stop({ graceful: true, timeout: 5000 });

    const { jobs, runs, send } = recordingJobs();
    const errors: Error[] = [];
    // Workers that look for jobs on their own only every 30 s, after their first look at start.
    const queue = await startJobQueue(database, jobs.definitions, {
      onError: (error) => errors.push(error),
      pollingIntervalSeconds: 30,
    });
    jobs.attachQueue(queue);
    const warnings: unknown[] = [];
    queue.boss.on('warning', (warning) => warnings.push(warning));
    try {
      expect((await queue.boss.getQueue('testing.record'))?.notify).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      for (const round of [1, 2]) {
        const sent = Date.now();
        await send({ round });
        await expect.poll(() => runs.length, { timeout: 10_000, interval: 50 }).toBe(round);
        expect(Date.now() - sent).toBeLessThan(10_000);
      }
      expect(warnings).toEqual([]);
      expect(errors).toEqual([]);
    } finally {
      await queue.stop();
      await database.close();
    }
  },
);
