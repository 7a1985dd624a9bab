import { eq } from 'drizzle-orm';
import { describe, expect, onTestFinished, test } from 'vitest';
import { LIVE_EVENTS_PATH } from '#common/live-events.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { home, type Intent, simpleProduct } from '#server/features/checkout/checkout-test-helpers.ts';
import { isEvent, openEventStream } from '#server/features/events/event-stream-client.ts';
import { createJobs, startJobQueue } from '#server/jobs/job-queue.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { createMetrics, type Metrics, startMetricsServer } from './metrics.ts';

const { app, database, metrics } = await buildTestApp({ metrics: true });
const { db } = database;

async function scrape(from: Metrics | null = metrics) {
  if (!from) throw new Error('the app was built without metrics');
  return from.registry.metrics();
}

/** The value of one series (`name{labels}`), or undefined when it is not in the text. */
function seriesValue(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

async function productSlug() {
  const [product] = await db
    .select({ slug: products.slug })
    .from(products)
    .where(eq(products.status, 'active'))
    .limit(1);
  if (!product) throw new Error('the demo shop has no active product');
  return product.slug;
}

describe('HTTP metrics', () => {
  test('requests are counted by route pattern, never by their URL', async () => {
    const slug = await productSlug();
    for (let i = 0; i < 2; i++) {
      expect((await app.inject({ method: 'GET', url: `/api/products/${slug}` })).statusCode).toBe(200);
    }
    const text = await scrape();
    const series = 'stillwater_http_requests_total{method="GET",route="/api/products/:id",status_class="2xx"}';
    expect(seriesValue(text, series)).toBe(2);
    expect(
      seriesValue(
        text,
        'stillwater_http_request_duration_seconds_count{method="GET",route="/api/products/:id",status_class="2xx"}',
      ),
    ).toBe(2);
    expect(text).not.toContain(slug);
  });

  test('a path no route matches is "unmatched"; a 4xx shows in its status class', async () => {
    const before = seriesValue(
      await scrape(),
      'stillwater_http_requests_total{method="GET",route="unmatched",status_class="4xx"}',
    );
    const response = await app.inject({ method: 'GET', url: '/no-such-page-7f3a' });
    expect(response.statusCode).toBe(404);
    const text = await scrape();
    expect(seriesValue(text, 'stillwater_http_requests_total{method="GET",route="unmatched",status_class="4xx"}')).toBe(
      (before ?? 0) + 1,
    );
    expect(text).not.toContain('no-such-page-7f3a');
  });

  test('the app itself does not serve /metrics', async () => {
    expect((await app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(404);
  });
});

describe('public cache metrics', () => {
  test('a first read misses, the next one hits', async () => {
    const hits = seriesValue(await scrape(), 'stillwater_public_cache_hits_total') ?? 0;
    const misses = seriesValue(await scrape(), 'stillwater_public_cache_misses_total') ?? 0;
    // A key nothing else in this file reads.
    const url = '/api/products?page=1&limit=7';
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200);
    const text = await scrape();
    expect(seriesValue(text, 'stillwater_public_cache_misses_total')).toBe(misses + 1);
    expect(seriesValue(text, 'stillwater_public_cache_hits_total')).toBe(hits + 1);
  });
});

describe('payment metrics', () => {
  test('an order paid by card counts as order_created; a completion refused for stock counts with its reason', async () => {
    const product = await simpleProduct(db);
    const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123', name: 'Ada Calm' };
    const pay = async () => {
      const browser = testClient(app, { remoteAddress: `10.81.0.${Math.floor(Math.random() * 200)}` });
      const created = await browser.post('/api/create-or-update-payment-intent', {
        metaVersion: 2,
        items: [{ id: product.slug, quantity: 1 }],
        email: 'ada@example.com',
        shipping: home,
      });
      expect(created.statusCode).toBe(200);
      const { id, clientSecret } = created.json() as Intent;
      expect((await browser.post('/api/payments/test-card/confirm', { clientSecret, card })).statusCode).toBe(200);
      return () => browser.post('/api/checkout/complete', { paymentIntentId: id });
    };
    expect((await (await pay())()).statusCode).toBe(200);
    expect(seriesValue(await scrape(), 'stillwater_payments_total{outcome="order_created"}')).toBe(1);

    const complete = await pay();
    await db.update(products).set({ stock: 0 }).where(eq(products.id, product.id));
    onTestFinished(async () => {
      await db.update(products).set({ stock: product.stock }).where(eq(products.id, product.id));
    });
    expect((await complete()).statusCode).toBe(409);
    const text = await scrape();
    expect(seriesValue(text, 'stillwater_payments_total{outcome="refused",reason="sold_out"}')).toBe(1);
    expect(seriesValue(text, 'stillwater_payments_total{outcome="capture_failed"}')).toBe(0);
  });
});

describe('live stream metrics', () => {
  test('the open event streams are counted at each scrape', async () => {
    const { browser } = await signedInAs(app, db, 'owner');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the app is not listening');
    expect(seriesValue(await scrape(), 'stillwater_live_event_streams')).toBe(0);
    const opened = await openEventStream(`http://127.0.0.1:${address.port}${LIVE_EVENTS_PATH}`, {
      headers: { cookie: `sw_session=${browser.cookie('sw_session')}` },
    });
    await opened.next(isEvent('ready'));
    expect(seriesValue(await scrape(), 'stillwater_live_event_streams')).toBe(1);
    await opened.close();
    await expect.poll(async () => seriesValue(await scrape(), 'stillwater_live_event_streams')).toBe(0);
  });
});

describe('background job metrics', () => {
  test('a job that throws in process is counted under its queue', async () => {
    const jobs = createJobs();
    const fail = jobs.define('metrics.always-fails', async () => {
      throw new Error('the job failed on purpose');
    });
    const errors: unknown[] = [];
    jobs.runInProcess((error) => errors.push(error));
    const built = await buildTestApp({ jobs, metrics: true });
    await fail({});
    await fail({});
    await jobs.idle();
    expect(errors).toHaveLength(2);
    expect(
      seriesValue(await scrape(built.metrics), 'stillwater_job_failures_total{queue="metrics.always-fails"}'),
    ).toBe(2);
  });

  test("the durable queue's failures are counted, and its depth is read at scrape time", async () => {
    const queueDatabase = await createTestDatabase();
    const own = createMetrics();
    const queue = await startJobQueue(
      queueDatabase,
      [
        {
          name: 'metrics.durable-fails',
          retry: { retryLimit: 0, retryDelay: 0, retryBackoff: false },
          run: async () => {
            throw new Error('the job failed on purpose');
          },
        },
      ],
      { onError: () => {}, onJobFailed: (name) => own.jobFailed(name), pollingIntervalSeconds: 0.5 },
    );
    onTestFinished(async () => {
      await queue.stop();
      await queueDatabase.close();
    });
    own.watchJobQueue(queue.boss, ['metrics.durable-fails', 'metrics.waiting']);
    const id = await queue.boss.send('metrics.durable-fails', {});
    await expect
      .poll(async () => (await queue.boss.getJobById('metrics.durable-fails', id as string))?.state, {
        timeout: 15_000,
      })
      .toBe('failed');
    expect(seriesValue(await scrape(own), 'stillwater_job_failures_total{queue="metrics.durable-fails"}')).toBe(1);

    // A queue nobody works: its jobs wait, and the monitor's count is what the gauge shows.
    await queue.boss.createQueue('metrics.waiting');
    await queue.boss.send('metrics.waiting', {});
    await queue.boss.send('metrics.waiting', {});
    await queue.boss.supervise('metrics.waiting');
    const text = await scrape(own);
    expect(seriesValue(text, 'stillwater_job_queue_depth{queue="metrics.waiting"}')).toBe(2);
    expect(text).not.toContain('__pgboss');
    // Each queue's failure series is there at 0 before its first failure.
    expect(seriesValue(text, 'stillwater_job_failures_total{queue="metrics.waiting"}')).toBe(0);
  });
});

describe('database pool metrics', () => {
  test('on PostgreSQL the pool is read at each scrape; PGlite has no pool', async () => {
    const text = await scrape();
    const { pool } = database;
    if (!pool) {
      expect(text).not.toContain('stillwater_db_pool');
      return;
    }
    expect(seriesValue(text, 'stillwater_db_pool_connections')).toBe(pool.totalCount);
    expect(seriesValue(text, 'stillwater_db_pool_idle_connections')).toBe(pool.idleCount);
    expect(seriesValue(text, 'stillwater_db_pool_waiting_clients')).toBe(0);
    expect(seriesValue(text, 'stillwater_db_pool_max_connections')).toBe(pool.options.max);
    // Every connection held at once: the next query waits, and the scrape shows it.
    const held = await Promise.all(Array.from({ length: pool.options.max }, () => pool.connect()));
    const waiting = pool.query('select 1');
    expect(seriesValue(await scrape(), 'stillwater_db_pool_waiting_clients')).toBe(1);
    for (const client of held) client.release();
    await waiting;
  });
});

describe('the metrics server', () => {
  test('answers GET /metrics on its own host and port, in the Prometheus text format', async () => {
    const server = await startMetricsServer(createMetrics(), { host: '127.0.0.1', port: 0 }, { onError: () => {} });
    onTestFinished(() => server.close());
    expect(server.address.host).toBe('127.0.0.1');
    const response = await fetch(`http://127.0.0.1:${server.address.port}/metrics`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();
    expect(text).toContain('# TYPE stillwater_http_requests_total counter');
    expect(text).toContain('process_cpu_user_seconds_total');
    expect((await fetch(`http://127.0.0.1:${server.address.port}/`)).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${server.address.port}/metrics`, { method: 'POST' })).status).toBe(404);
  });

  test('several registries in one process keep their own counts', async () => {
    const first = createMetrics();
    const second = createMetrics();
    first.cacheLookup(true);
    expect(seriesValue(await scrape(first), 'stillwater_public_cache_hits_total')).toBe(1);
    expect(seriesValue(await scrape(second), 'stillwater_public_cache_hits_total')).toBe(0);
  });
});
