import type { PgBoss } from 'pg-boss';
import type { Database } from '#server/db/client.ts';
import { currentRequestId, outsideRequest, runInRequest } from '#server/http/request-context.ts';

/** A background task: a queue name, the work (with the data it was sent), and optionally a cron schedule (UTC). */
export type JobDefinition = {
  name: string;
  schedule?: string;
  /**
   * A scheduled job also runs once as the queue starts (with `{ atStart: true }`, so it can skip
   * work it finds done): what it finishes should not wait for the next tick after a restart.
   */
  alsoAtStart?: boolean;
  /** How a failed run is retried (pg-boss's queue options; by default twice at once). */
  retry?: { retryLimit: number; retryDelay: number; retryBackoff: boolean };
  // biome-ignore lint/suspicious/noExplicitAny: each job knows the shape of the data it is sent.
  run(data: any): Promise<unknown>;
};

/** What a scheduled job's run is given: nothing on its schedule's ticks, `atStart` on the run at the queue's start. */
export type JobRunData = { atStart?: true };

export type JobQueue = { boss: PgBoss; stop(): Promise<void> };

/**
 * The job data's reserved field that carries the id of the request that sent the job, so the
 * run's log lines carry it too. pg-boss keeps no free-form metadata beside the data; a field of
 * the data (rather than an envelope around it) leaves jobs queued before it was added readable.
 */
export const SENT_BY_REQUEST_FIELD = '$reqId';

/** The data as it goes to the queue: with the current request's id, when sent while serving one. */
function withSendingRequest(data: object): object {
  const reqId = currentRequestId();
  if (reqId === undefined || Array.isArray(data)) return data;
  return { ...data, [SENT_BY_REQUEST_FIELD]: reqId };
}

/** Runs the job on exactly the data it was sent, as part of the request that sent it (cron runs: none). */
function runAsSent(job: JobDefinition, sent: unknown): Promise<unknown> {
  if (sent === null || typeof sent !== 'object' || !(SENT_BY_REQUEST_FIELD in sent)) {
    return outsideRequest(() => job.run(sent));
  }
  const { [SENT_BY_REQUEST_FIELD]: reqId, ...data } = sent as Record<string, unknown>;
  return typeof reqId === 'string' ? runInRequest(reqId, () => job.run(data)) : outsideRequest(() => job.run(data));
}

/**
 * The jobs the application defines, and how its requests hand work to them. Until a queue is
 * attached (main.ts starts it right after the server listens) sends wait for it; tests run
 * the work in the process right after the request instead (`runInProcess`).
 */
export function createJobs() {
  const definitions: JobDefinition[] = [];
  let attach!: (send: (name: string, data: object) => Promise<unknown>) => void;
  let sender = new Promise<(name: string, data: object) => Promise<unknown>>((resolve) => {
    attach = resolve;
  });
  const running = new Set<Promise<unknown>>();
  const failureListeners = new Set<(queue: string) => void>();
  const reportFailure = (queue: string) => {
    for (const listener of failureListeners) listener(queue);
  };
  return {
    definitions,
    define<T extends object>(name: string, run: (data: T) => Promise<unknown>, retry?: JobDefinition['retry']) {
      definitions.push({ name, run, ...(retry ? { retry } : {}) });
      /** Hands the work to the queue; the request does not wait for the work itself. */
      return async (data: T) => {
        await (await sender)(name, withSendingRequest(data));
      };
    },
    /** A job the queue runs on its cron schedule (UTC), once across the instances. */
    schedule(definition: JobDefinition & { schedule: string }) {
      definitions.push(definition);
    },
    /** Sends go to this durable queue from now on. */
    attachQueue(queue: JobQueue) {
      attach((name, data) => queue.boss.send(name, data));
    },
    /** Sends run the work in this process after the current request (tests); `idle()` waits for it. */
    runInProcess(onError: (error: unknown) => void) {
      const local = async (name: string, data: object) => {
        const job = definitions.find((definition) => definition.name === name);
        if (!job) throw new Error(`no job named ${name}`);
        const work = new Promise((resolve) => setImmediate(resolve))
          .then(() => runAsSent(job, data))
          .catch((error: unknown) => {
            reportFailure(name);
            onError(error);
          })
          .finally(() => running.delete(work));
        running.add(work);
      };
      sender = Promise.resolve(local);
      attach(local);
    },
    /** Tells `listener` the queue of every run that throws (the metrics count them). */
    onFailure(listener: (queue: string) => void) {
      failureListeners.add(listener);
    },
    /** A run of `queue` threw in the durable queue (startJobQueue's `onJobFailed`). */
    reportFailure,
    async idle() {
      while (running.size > 0) await Promise.all(running);
    },
  };
}

export type Jobs = ReturnType<typeof createJobs>;

/**
 * Durable background jobs in the shop's own database (pg-boss, in its `pgboss` schema, which it
 * creates and migrates itself, on PGlite as on PostgreSQL). Jobs survive restarts; with several
 * instances each job runs once.
 */
export function startJobQueue(database: Database, jobs: JobDefinition[], options: JobQueueOptions): Promise<JobQueue> {
  // main.ts starts the queue once the first answer has gone out, still inside that request's
  // context: pg-boss's timers and workers would otherwise carry its id on all their lines.
  return outsideRequest(() => openJobQueue(database, jobs, options));
}

type JobQueueOptions = {
  onError: (error: Error) => void;
  /** A run threw (pg-boss retries it as the queue's options say). */
  onJobFailed?: (queue: string) => void;
  /**
   * How often an idle worker looks for jobs whatever wakes it (tests). By default every 2 s, and
   * every 30 s on the embedded database, where a job's send wakes its worker at once.
   */
  pollingIntervalSeconds?: number;
};

/**
 * On the embedded database every job is sent by this one process (a request's send, pg-boss's
 * own cron), so its workers are woken by each send (LISTEN/NOTIFY through PGlite) and look on
 * their own only as a backstop, for what no send announces: a retry whose delay has passed. Each
 * look is a statement the single engine runs between requests; at every 2 s for each of the ~20
 * queues they cost the product API up to a tenth of its throughput on a busy machine
 * (docs/performance.md). On PostgreSQL the pool has no LISTEN connection: workers look every 2 s.
 */
const DEFAULT_POLLING = { pollingIntervalSeconds: 2, notifyPollingIntervalSeconds: 30 };

async function openJobQueue(
  database: Database,
  jobs: JobDefinition[],
  { onError, onJobFailed, pollingIntervalSeconds }: JobQueueOptions,
): Promise<JobQueue> {
  // pg-boss is loaded here, after the server listens, not with the modules the first page needs.
  const { fromPglite, PgBoss } = await import('pg-boss');
  const embedded = database.pglite !== null;
  const polling =
    pollingIntervalSeconds === undefined
      ? DEFAULT_POLLING
      : { pollingIntervalSeconds, notifyPollingIntervalSeconds: pollingIntervalSeconds };
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite', useListenNotify: true })
    : new PgBoss({
        db: {
          executeSql: async (text, values) => (database.pool as NonNullable<Database['pool']>).query(text, values),
        },
      });
  boss.on('error', onError);
  await boss.start();
  for (const job of jobs) {
    const options = { ...job.retry, notify: embedded };
    await boss.createQueue(job.name, options);
    // A queue an earlier start made keeps its options through createQueue: brought up to date.
    await boss.updateQueue(job.name, options);
    await boss.work(job.name, polling, async (batch) => {
      for (const item of batch) {
        try {
          await runAsSent(job, item.data);
        } catch (error) {
          onJobFailed?.(job.name);
          throw error;
        }
      }
    });
    if (job.schedule) await boss.schedule(job.name, job.schedule);
    if (job.alsoAtStart) await boss.send(job.name, { atStart: true } satisfies JobRunData);
  }
  return { boss, stop: () => boss.stop({ graceful: true, timeout: 5000 }) };
}
