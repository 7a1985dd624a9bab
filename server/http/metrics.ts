/**
 * The shop's metrics in the Prometheus text format (prom-client), served by their own small
 * server on METRICS_HOST:METRICS_PORT, never by the public app. Each app has its own registry,
 * so several apps in one process (the tests) keep separate counts.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import type { PgBoss } from 'pg-boss';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

export const METRICS_PATH = '/metrics';
/** The route label of a request no route matched (its URL would make one series per path tried). */
export const UNMATCHED_ROUTE = 'unmatched';

/** How a checkout completion ended: an order, a refusal before anything was charged, or a failed capture. */
export type PaymentOutcome = 'order_created' | 'refused' | 'capture_failed';

export function createMetrics() {
  const registry = new Registry();
  // Node's own (CPU, memory, event loop lag, GC, handles) under their usual names, which the
  // common Node.js dashboards expect.
  collectDefaultMetrics({ register: registry });
  const registers = [registry];

  const requests = new Counter({
    name: 'stillwater_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    registers,
  });
  const requestDuration = new Histogram({
    name: 'stillwater_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method, route pattern and status class (event streams left out)',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });

  const jobFailures = new Counter({
    name: 'stillwater_job_failures_total',
    help: 'Background job runs that threw (each retry counts), by queue',
    labelNames: ['queue'] as const,
    registers,
  });
  let jobQueue: PgBoss | null = null;
  new Gauge({
    name: 'stillwater_job_queue_depth',
    help: "Jobs waiting to run (ready or waiting for a retry), by queue, as pg-boss's monitor last counted them (every 60 s)",
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      if (!jobQueue) return;
      try {
        const queues = await jobQueue.getQueues();
        this.reset();
        for (const queue of queues) {
          // pg-boss's own queues (the cron sender) are not the shop's work.
          if (!queue.name.startsWith('__pgboss')) this.set({ queue: queue.name }, queue.queuedCount);
        }
      } catch {
        // The database is away: no reading rather than a stale one, and the scrape still answers.
        this.reset();
      }
    },
  });

  const payments = new Counter({
    name: 'stillwater_payments_total',
    help: 'Checkout completions by outcome (order_created, refused with its reason, capture_failed)',
    labelNames: ['outcome', 'reason'] as const,
    registers,
  });
  // Present at 0 before the first checkout, so alerts on their rates have a series to read.
  payments.inc({ outcome: 'order_created' }, 0);
  payments.inc({ outcome: 'capture_failed' }, 0);

  const liveStreamCounts = new Set<() => number>();
  new Gauge({
    name: 'stillwater_live_event_streams',
    help: "Open server-sent event streams of the back office's live events",
    registers,
    collect() {
      let open = 0;
      for (const count of liveStreamCounts) open += count();
      this.set(open);
    },
  });

  const cacheHits = new Counter({
    name: 'stillwater_public_cache_hits_total',
    help: 'Public API reads answered from the in-memory cache',
    registers,
  });
  const cacheMisses = new Counter({
    name: 'stillwater_public_cache_misses_total',
    help: 'Public API reads that had to load their answer',
    registers,
  });

  let pool: pg.Pool | null = null;
  const poolGauge = (name: string, help: string, read: (pool: pg.Pool) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        if (pool) this.set(read(pool));
      },
    });

  return {
    registry,

    /**
     * Counts and times every answered request by its route pattern (`/api/products/:slug`), never
     * its URL. `ignore`: requests that are not traffic (the server's own render calls).
     */
    observeRequests(app: FastifyInstance, { ignore }: { ignore: (request: FastifyRequest) => boolean }) {
      // A callback hook: nothing to wait for, so no promise a request.
      app.addHook('onResponse', (request, reply, done) => {
        if (!ignore(request)) {
          const labels = {
            method: request.method,
            route: request.routeOptions.url ?? UNMATCHED_ROUTE,
            status_class: `${Math.floor(reply.statusCode / 100)}xx`,
          };
          requests.inc(labels);
          // A stream's time is how long it stayed open, not how long it took to answer.
          if (!String(reply.getHeader('content-type') ?? '').startsWith('text/event-stream')) {
            requestDuration.observe(labels, reply.elapsedTime / 1000);
          }
        }
        done();
      });
    },

    /** A background job's run threw. */
    jobFailed(queue: string) {
      jobFailures.inc({ queue });
    },

    /** Reads the durable queue's depth at each scrape; `queues`: the names it works. */
    watchJobQueue(boss: PgBoss, queues: string[]) {
      jobQueue = boss;
      // Each queue's failure series exists from the start, so a rate over it is 0, not absent.
      for (const queue of queues) jobFailures.inc({ queue }, 0);
    },

    paymentOutcome(outcome: PaymentOutcome, reason?: string) {
      payments.inc(reason ? { outcome, reason } : { outcome });
    },

    /** Adds a holder of live streams, whose open count is read at each scrape. */
    watchLiveStreams(count: () => number) {
      liveStreamCounts.add(count);
    },

    cacheLookup(hit: boolean) {
      (hit ? cacheHits : cacheMisses).inc();
    },

    /** The PostgreSQL pool's connections, read at each scrape (PGlite has no pool). */
    watchDatabasePool(watched: pg.Pool) {
      if (pool) return;
      pool = watched;
      poolGauge('stillwater_db_pool_connections', 'Connections the PostgreSQL pool holds', (p) => p.totalCount);
      poolGauge('stillwater_db_pool_idle_connections', 'Pool connections not in use', (p) => p.idleCount);
      poolGauge(
        'stillwater_db_pool_waiting_clients',
        'Queries waiting for a pool connection (all connections busy)',
        (p) => p.waitingCount,
      );
      poolGauge('stillwater_db_pool_max_connections', 'The most connections the pool opens', (p) => p.options.max);
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;

/**
 * Serves GET /metrics on its own address (METRICS_HOST, loopback by default), apart from the
 * public app: metrics name routes, queues and volumes, which are not for visitors.
 */
export async function startMetricsServer(
  metrics: Metrics,
  { host, port }: { host: string; port: number },
  { onError }: { onError: (error: unknown) => void },
) {
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0];
    if (path !== METRICS_PATH || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        response.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        response.end(request.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        onError(error);
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Metrics failed\n');
      },
    );
  });
  // A scraper holds no connection open for long.
  server.requestTimeout = 10_000;
  server.headersTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    /** Where it listens (the port the system chose when asked for 0). */
    address: { host: address.address, port: address.port },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

export type MetricsServer = Awaited<ReturnType<typeof startMetricsServer>>;
