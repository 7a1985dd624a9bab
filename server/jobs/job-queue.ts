import { fromPglite, PgBoss } from 'pg-boss';
import type { Database } from '#server/db/client.ts';

/** A background task: a queue name, the work, and optionally a cron schedule (UTC). */
export type JobDefinition = {
  name: string;
  schedule?: string;
  run(): Promise<unknown>;
};

export type JobQueue = { boss: PgBoss; stop(): Promise<void> };

/**
 * Durable background jobs in the shop's own database (pg-boss, in its `pgboss` schema, which it
 * creates and migrates itself, on PGlite as on PostgreSQL). Jobs survive restarts; with several
 * instances each job runs once.
 */
export async function startJobQueue(
  database: Database,
  jobs: JobDefinition[],
  { onError, pollingIntervalSeconds = 2 }: { onError: (error: Error) => void; pollingIntervalSeconds?: number },
): Promise<JobQueue> {
  const boss = database.pglite
    ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
    : new PgBoss({
        db: {
          executeSql: async (text, values) => (database.pool as NonNullable<Database['pool']>).query(text, values),
        },
      });
  boss.on('error', onError);
  await boss.start();
  for (const job of jobs) {
    await boss.createQueue(job.name);
    await boss.work(job.name, { pollingIntervalSeconds }, async () => job.run());
    if (job.schedule) await boss.schedule(job.name, job.schedule);
  }
  return { boss, stop: () => boss.stop({ graceful: true, timeout: 5000 }) };
}
