/**
 * The process: read the configuration, open and migrate the database, seed an empty shop,
 * make sure the owner exists, then serve until SIGTERM or SIGINT.
 *
 * A start on an existing data folder is kept short (docs/performance.md, "Cold start"): the
 * database opens while the application's modules load, modules only some requests need are
 * loaded by those requests, and the background work (job queue, metrics server, database
 * maintenance) starts once the first answer has gone out.
 */
import { AsyncResource } from 'node:async_hooks';
import { once } from 'node:events';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { appRoot } from './app-root.ts';
import type { Config } from './config.ts';
import type { Database } from './db/client.ts';
import { installModuleResolutionCache } from './module-resolution-cache.ts';

// Before anything else is loaded: every package module below goes through the shortcut.
installModuleResolutionCache();

/** How long after listening the background work starts when no request has come (ms). */
const BACKGROUND_START_DELAY_MS = 2_000;

/** When each step of the start was done, in ms since the process started (logged with the serving line). */
type StartupTimings = Record<'modulesLoaded' | 'databaseReady' | 'appModulesLoaded' | 'appBuilt' | 'listening', number>;

async function main() {
  const [{ ConfigError, loadConfig }, { openDatabase }, { migrateDatabase }, { SERVER_PID_FILE, writeEmbeddedBackup }] =
    await Promise.all([
      import('./config.ts'),
      import('./db/client.ts'),
      import('./db/migrate.ts'),
      import('./db/embedded-backup.ts'),
    ]);
  const startup: Partial<StartupTimings> = { modulesLoaded: sinceStart() };
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    }
    throw error;
  }

  // The database opens while the application's modules load: PGlite compiles its WebAssembly
  // and reads its files off the main thread.
  const databaseReady = openDatabase(config.database).then(async (database) => {
    await migrateDatabase(database);
    startup.databaseReady = sinceStart();
    return database;
  });
  const web = config.env === 'production' ? 'production' : 'development';
  const appModules = loadAppModules(web).then((modules) => {
    startup.appModulesLoaded = sinceStart();
    return modules;
  });
  // Whichever fails first ends the start; the other's failure must not be reported as unhandled.
  databaseReady.catch(() => {});
  appModules.catch(() => {});
  let [database, modules] = await Promise.all([databaseReady, appModules]);
  const { buildApp, createStorage, ensureOwner, getInstanceSecret, createJobs } = modules;

  const storage = createStorage(config);
  if (config.seedDemoData && (await isEmpty(database))) {
    process.stdout.write('Seeding the demo shop (first start: this takes a little while)…\n');
    // The embedded database is one process's at a time: closed while the seed's process has it.
    if (database.pglite) await database.close();
    await runSeedProcess();
    if (database.pglite) database = await openDatabase(config.database);
  }
  const signingKey = config.sessionSecret ?? (await getInstanceSecret(database.db, 'signing-key'));
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : null;

  const jobs = createJobs();
  // Metrics only when there is somewhere to serve them (METRICS_PORT).
  const metricsModule = config.metrics ? await import('./http/metrics.ts') : null;
  const metrics = metricsModule ? metricsModule.createMetrics() : null;
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
  startup.appBuilt = sinceStart();

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

  const background: Background = { queue: null, maintenance: null, metricsServer: null };
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
      // New requests get 503 until they stop coming; those under way go on (see http/drain.ts).
      await app.drain();
      await app.close();
      // A start of the background work still under way is finished, then stopped.
      await background.starting;
      await background.metricsServer?.close();
      await background.queue?.stop();
      await background.maintenance?.stop();
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

  // Background work starts after the first answer (or a moment after listening): the job queue's
  // start runs its own statements on the database, which the first page would otherwise wait
  // behind. Work sent before waits for the queue.
  let backgroundStarted = false;
  const startBackgroundOnce = () => {
    if (backgroundStarted || closing) return;
    backgroundStarted = true;
    clearTimeout(backgroundTimer);
    background.starting = startBackground({ config, database, app, jobs, metrics, metricsModule }, background).catch(
      (error: unknown) => {
        app.log.error({ err: error }, 'background work could not start');
      },
    );
  };

  await app.listen({ host: config.host, port: config.port });
  startup.listening = sinceStart();
  app.log.info({ startup }, `Stillwater is serving on ${config.publicUrl} (database: ${database.kind})`);
  const backgroundTimer = setTimeout(startBackgroundOnce, BACKGROUND_START_DELAY_MS);
  // The first answer over the network (a page's own calls to the API, in process, do not count).
  // Bound here, outside any request: the close is emitted inside the request's context, and the
  // background work's log lines must not carry its reqId.
  app.server.once('request', (_request, response) => response.once('close', AsyncResource.bind(startBackgroundOnce)));
}

/** The application's modules, loaded while the database opens. */
async function loadAppModules(web: 'production' | 'development') {
  const [app, adapters, owner, secrets, webBuild, jobQueue, { serverBuildFile }] = await Promise.all([
    import('./app.ts'),
    import('./adapters/adapters.ts'),
    import('./features/accounts/owner.ts'),
    import('./features/settings/instance-secrets.ts'),
    import('./http/web-build.ts'),
    import('./jobs/job-queue.ts'),
    import('./http/web.ts'),
  ]);
  if (web === 'production') {
    // The web app is built (when its sources changed) and its server bundle loaded here, while
    // the database opens, rather than once it is open: the app's mounting then finds it loaded.
    webBuild.ensureWebBuild();
    await import(serverBuildFile);
  }
  return {
    buildApp: app.buildApp,
    createStorage: adapters.createStorage,
    ensureOwner: owner.ensureOwner,
    getInstanceSecret: secrets.getInstanceSecret,
    createJobs: jobQueue.createJobs,
  };
}

type App = Awaited<ReturnType<typeof import('./app.ts').buildApp>>;
type Jobs = ReturnType<typeof import('./jobs/job-queue.ts').createJobs>;
type MetricsModule = typeof import('./http/metrics.ts');

/** What runs beside the server, once started; `starting` while it starts. */
type Background = {
  queue: import('./jobs/job-queue.ts').JobQueue | null;
  maintenance: ReturnType<typeof import('./db/embedded-maintenance.ts').startEmbeddedMaintenance> | null;
  metricsServer: import('./http/metrics.ts').MetricsServer | null;
  starting?: Promise<void>;
};

/** The metrics server, the durable job queue and (PGlite) the database's upkeep. */
async function startBackground(
  {
    config,
    database,
    app,
    jobs,
    metrics,
    metricsModule,
  }: {
    config: Config;
    database: Database;
    app: App;
    jobs: Jobs;
    metrics: ReturnType<MetricsModule['createMetrics']> | null;
    metricsModule: MetricsModule | null;
  },
  background: Background,
): Promise<void> {
  // The answers' compiled serializers (server/http/response-serializer.ts); until then, zod's.
  const serializers = import('./http/response-serializer.ts').then(({ loadFastSerializers }) => loadFastSerializers());
  serializers.catch((error: unknown) => app.log.error({ err: error }, 'fast serializers could not load'));
  if (metrics && metricsModule && config.metrics) {
    background.metricsServer = await metricsModule.startMetricsServer(metrics, config.metrics, {
      onError: (error) => app.log.error({ err: error }, 'metrics could not be collected'),
    });
    app.log.info(`Metrics on http://${config.metrics.host}:${config.metrics.port}/metrics`);
  }
  const [{ startJobQueue }, { pruneExpiredAccountsJob }, { pageViewRollupJob }] = await Promise.all([
    import('./jobs/job-queue.ts'),
    import('./features/accounts/prune-expired.job.ts'),
    import('./features/dashboard/page-view-rollup.job.ts'),
  ]);
  const definitions = [pruneExpiredAccountsJob(database.db), pageViewRollupJob(database.db), ...jobs.definitions];
  const queue = await startJobQueue(database, definitions, {
    onError: (error) => app.log.error({ err: error }, 'background job failed'),
    onJobFailed: jobs.reportFailure,
  });
  background.queue = queue;
  jobs.attachQueue(queue);
  metrics?.watchJobQueue(
    queue.boss,
    definitions.map((job) => job.name),
  );
  // PostgreSQL vacuums and analyzes by itself; the embedded database is looked after here.
  if (database.pglite) {
    const { startEmbeddedMaintenance } = await import('./db/embedded-maintenance.ts');
    background.maintenance = startEmbeddedMaintenance(database.pglite, {
      onError: (error) => app.log.error({ err: error }, 'embedded database maintenance failed'),
    });
  }
}

/** Shared rate-limit counters and events across instances (REDIS_URL); ioredis is loaded only then. */
async function connectRedis(url: string): Promise<Redis> {
  const { Redis } = await import('ioredis');
  return new Redis(url, { maxRetriesPerRequest: 2, enableOfflineQueue: false });
}

function sinceStart(): number {
  return Math.round(performance.now());
}

/** Seeds the demo shop in a child process (server/db/seed-process.ts says why), with this one's settings. */
async function runSeedProcess(): Promise<void> {
  const { spawn } = await import('node:child_process');
  // This process's Node options (the .env file, conditions), but not `npm run dev`'s watching.
  const nodeOptions = process.execArgv.filter((option) => !option.startsWith('--watch'));
  const seed = spawn(process.execPath, [...nodeOptions, path.join(appRoot, 'server/db/seed-process.ts')], {
    stdio: 'inherit',
  });
  const [code, signal] = (await once(seed, 'exit')) as [number | null, NodeJS.Signals | null];
  if (code !== 0) throw new Error(`seeding the demo shop failed (${signal ?? `exit code ${code}`})`);
}

async function isEmpty({ db }: Database): Promise<boolean> {
  const [{ count }, { categories }] = await Promise.all([
    import('drizzle-orm'),
    import('./features/catalog/catalog.tables.ts'),
  ]);
  const [row] = await db.select({ n: count() }).from(categories);
  return (row?.n ?? 0) === 0;
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Stillwater failed to start: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
});
