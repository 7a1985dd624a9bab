/**
 * The process: read the configuration, open and migrate the database, seed an empty shop,
 * make sure the owner exists, then serve until SIGTERM or SIGINT.
 */
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { createStorage } from './adapters/adapters.ts';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { type Database, openDatabase } from './db/client.ts';
import { SERVER_PID_FILE, writeEmbeddedBackup } from './db/embedded-backup.ts';
import { startEmbeddedMaintenance } from './db/embedded-maintenance.ts';
import { migrateDatabase } from './db/migrate.ts';
import { ensureOwner } from './features/accounts/owner.ts';
import { pruneExpiredAccountsJob } from './features/accounts/prune-expired.job.ts';
import { categories } from './features/catalog/catalog.tables.ts';
import { pageViewRollupJob } from './features/dashboard/page-view-rollup.job.ts';
import { getInstanceSecret } from './features/settings/instance-secrets.ts';
import { createMetrics, type MetricsServer, startMetricsServer } from './http/metrics.ts';
import { ensureWebBuild } from './http/web-build.ts';
import { createJobs, type JobQueue, startJobQueue } from './jobs/job-queue.ts';

async function main() {
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  const database = await openDatabase(config.database);
  await migrateDatabase(database);
  const storage = createStorage(config);
  if (config.seedDemoData && (await isEmpty(database))) {
    process.stdout.write('Seeding the demo shop (first start: this takes a little while)…\n');
    const { seedDemoContent } = await import('./db/seed.ts');
    await seedDemoContent({ db: database.db, storage });
  }
  const web = config.env === 'production' ? 'production' : 'development';
  if (web === 'production') ensureWebBuild();
  const signingKey = config.sessionSecret ?? (await getInstanceSecret(database.db, 'signing-key'));
  const redis = config.redisUrl
    ? new Redis(config.redisUrl, { maxRetriesPerRequest: 2, enableOfflineQueue: false })
    : null;

  const jobs = createJobs();
  // Metrics only when there is somewhere to serve them (METRICS_PORT).
  const metrics = config.metrics ? createMetrics() : null;
  const app = await buildApp({
    config,
    database,
    signingKey,
    storage,
    redis,
    web,
    jobs,
    metrics,
  });

  const owner = await ensureOwner(database.db, config.owner);
  if (owner) {
    // Printed once, when the owner account is created.
    const lines = [
      '',
      '  The shop owner account was created. Sign in at /login with:',
      `    email:    ${owner.email}`,
      owner.generated ? `    password: ${owner.password}` : '    password: the OWNER_PASSWORD you configured',
      owner.generated ? '  Keep this password: it is not shown again (reset it with `npm run owner`).' : '',
      '',
    ];
    process.stdout.write(`${lines.join('\n')}\n`);
  }

  let queue: JobQueue | null = null;
  let maintenance: ReturnType<typeof startEmbeddedMaintenance> | null = null;
  let metricsServer: MetricsServer | null = null;
  // The embedded database is this process's alone: `npm run backup` asks it for a copy (SIGUSR2)
  // and finds it by the process id kept in the data folder.
  const pidFile = database.pglite ? path.join(config.dataDir, SERVER_PID_FILE) : null;
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    try {
      await app.close();
      await metricsServer?.close();
      await queue?.stop();
      await maintenance?.stop();
      redis?.disconnect();
      await database.close();
      if (pidFile) rmSync(pidFile, { force: true });
      process.exit(0);
    } catch (error) {
      app.log.error({ err: error }, 'shutdown failed');
      process.exit(1);
    }
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  if (database.pglite && pidFile) {
    const pglite = database.pglite;
    writeFileSync(pidFile, `${process.pid}\n`);
    process.on('SIGUSR2', () => {
      writeEmbeddedBackup(pglite, path.join(config.dataDir, 'backups')).then(
        (file) => app.log.info({ file }, 'database backup written'),
        (error: unknown) => app.log.error({ err: error }, 'database backup failed'),
      );
    });
  }

  await app.listen({ host: config.host, port: config.port });
  app.log.info(`Stillwater is serving on ${config.publicUrl} (database: ${database.kind})`);
  if (metrics && config.metrics) {
    metricsServer = await startMetricsServer(metrics, config.metrics, {
      onError: (error) => app.log.error({ err: error }, 'metrics could not be collected'),
    });
    app.log.info(`Metrics on http://${config.metrics.host}:${config.metrics.port}/metrics`);
  }
  // Background jobs start after the first page can be served; work sent before waits for them.
  const definitions = [pruneExpiredAccountsJob(database.db), pageViewRollupJob(database.db), ...jobs.definitions];
  queue = await startJobQueue(database, definitions, {
    onError: (error) => app.log.error({ err: error }, 'background job failed'),
    onJobFailed: jobs.reportFailure,
  });
  jobs.attachQueue(queue);
  metrics?.watchJobQueue(
    queue.boss,
    definitions.map((job) => job.name),
  );
  // PostgreSQL vacuums and analyzes by itself; the embedded database is looked after here.
  if (database.pglite) {
    maintenance = startEmbeddedMaintenance(database.pglite, {
      onError: (error) => app.log.error({ err: error }, 'embedded database maintenance failed'),
    });
  }
}

async function isEmpty({ db }: Database): Promise<boolean> {
  const [row] = await db.select({ n: count() }).from(categories);
  return (row?.n ?? 0) === 0;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Stillwater failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
