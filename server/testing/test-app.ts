import type { Redis } from 'ioredis';
import { afterAll, expect, onTestFinished } from 'vitest';
import type { MailMessage } from '#server/adapters/email/mailer.ts';
import { createOutboxMailer } from '#server/adapters/email/outbox-mailer.ts';
import type { Marketplace } from '#server/adapters/marketplace/marketplace.ts';
import type { PaymentProcessor } from '#server/adapters/payments/payment-processor.ts';
import type { SocialShop } from '#server/adapters/social-shop/social-shop.ts';
import type { TikTokShopStandIn } from '#server/adapters/social-shop/tiktok-shop-stand-in.ts';
import { createDiskObjectStorage } from '#server/adapters/storage/disk-object-storage.ts';
import type { AdEventsApi } from '#server/adapters/tracking/ad-events-api.ts';
import { buildApp } from '#server/app.ts';
import { loadConfig } from '#server/config.ts';
import type { Database } from '#server/db/client.ts';
import { createMetrics } from '#server/http/metrics.ts';
import { loadFastSerializers } from '#server/http/response-serializer.ts';
import type { WebMode } from '#server/http/web.ts';
import { createJobs, type Jobs } from '#server/jobs/job-queue.ts';
import { createTestDatabase } from './test-database.ts';
import { testMediaDir } from './test-environment.ts';

export const testSigningKey = 'test-signing-key-0123456789abcdefghijklmnop';

/**
 * The whole application on a copy of the demo shop, for tests through app.inject. Closed after
 * the test that built it, or after the file when built outside a test. `web: 'production'` also serves the built pages (run `npm run build` first).
 */
export async function buildTestApp({
  web = null,
  database,
  env = {},
  redis = null,
  logStream,
  jobs: givenJobs,
  payments,
  adEventsApi,
  marketplace,
  socialShop,
  metrics: withMetrics = false,
}: {
  web?: WebMode | null;
  database?: Database;
  env?: Record<string, string>;
  /** Shared rate-limit counters, as several instances behind a load balancer use them. */
  redis?: Redis | null;
  /** Receives the log (at LOG_LEVEL, silent unless `env` sets it). */
  logStream?: { write(line: string): void };
  /** A jobs registry the test sets up itself; by default work runs in this process right after each request. */
  jobs?: Jobs;
  /** A payment processor made from the test's database (Stripe against its stand-in); by default the built-in one. */
  payments?: (database: Database) => PaymentProcessor;
  /** The Events API the tracker forwards to (the adapter against its stand-in); by default none. */
  adEventsApi?: AdEventsApi | null;
  /** The marketplace (AliExpress against its stand-in, a failing one); by default as configured: the demo marketplace. */
  marketplace?: Marketplace;
  /** The social-shop channel (the client against a stand-in the test holds); by default the in-process sandbox. */
  socialShop?: { socialShop: SocialShop; standIn: TikTokShopStandIn | null };
  /** Feed Prometheus metrics (returned as `metrics`), as main.ts does with METRICS_PORT. */
  metrics?: boolean;
} = {}) {
  const db = database ?? (await createTestDatabase());
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: '/tmp/stillwater-test-data', ...env });
  const jobErrors: unknown[] = [];
  const jobs = givenJobs ?? createJobs();
  if (!givenJobs) jobs.runInProcess((error) => jobErrors.push(error));
  // Every message the shop sends, whole, as its recipient would read it (the outbox keeps a redacted copy).
  const mailbox: MailMessage[] = [];
  const outbox = createOutboxMailer({ db: db.db, log: () => {}, printBodies: false });
  const metrics = withMetrics ? createMetrics() : null;
  // Answers are written as production's are once its background work has started.
  await loadFastSerializers();
  const app = await buildApp({
    config,
    database: db,
    // Each page view is written at once: the tests read it back.
    analyticsBatch: { maxRows: 1 },
    adEventsApi: adEventsApi ?? null,
    signingKey: testSigningKey,
    storage: createDiskObjectStorage(testMediaDir),
    web,
    redis,
    jobs,
    metrics,
    mailer: {
      name: 'outbox',
      send(message) {
        mailbox.push(message);
        return outbox.send(message);
      },
    },
    ...(logStream ? { logStream } : {}),
    ...(payments ? { payments: payments(db) } : {}),
    ...(marketplace ? { marketplace } : {}),
    ...(socialShop ? { socialShop: socialShop.socialShop, socialShopSandbox: socialShop.standIn } : {}),
  });
  await app.ready();
  const close = async () => {
    await jobs.idle();
    await app.close();
    await db.close();
  };
  // Built inside a test: closed when that test ends; at file level: after the file.
  if (expect.getState().currentTestName === undefined) afterAll(close);
  else onTestFinished(close);
  return {
    app,
    database: db,
    config,
    mailbox,
    /** The app's metrics (with `metrics: true`). */
    metrics,
    /** Waits until the background work sent so far has run, and fails if any of it threw. */
    async jobsDone() {
      await jobs.idle();
      if (jobErrors.length > 0) throw jobErrors[0];
    },
  };
}

export type TestApp = Awaited<ReturnType<typeof buildTestApp>>['app'];

/** A CSRF token and its cookie, as a browser would hold them after GET /api/auth/csrf-token. */
export async function csrfHeaders(app: TestApp) {
  const response = await app.inject({ method: 'GET', url: '/api/auth/csrf-token' });
  const cookie = response.cookies.find((c) => c.name === 'sw_csrf');
  if (!cookie) throw new Error('no CSRF cookie was set');
  return { 'x-csrf-token': response.json().token as string, cookie: `sw_csrf=${cookie.value}` };
}
