import { and, isNotNull, lt, or } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import type { JobDefinition } from '#server/jobs/job-queue.ts';
import { accountTokens, sessions } from './accounts.tables.ts';
import { createAttemptLimits } from './attempt-limits.ts';
import { SESSION_IDLE_MS } from './sessions.ts';

/** Removes sessions that can no longer be used, mailed tokens that expired or were used, and stale attempt counters. */
export async function pruneExpiredAccountRecords(db: Db, now = new Date()) {
  const idleSince = new Date(now.getTime() - SESSION_IDLE_MS);
  const ended = await db
    .delete(sessions)
    .where(or(lt(sessions.expiresAt, now), lt(sessions.lastSeenAt, idleSince)))
    .returning({ id: sessions.idHash });
  // Used tokens are kept a day, so a second click on a reset link can say it was already used.
  const dayAgo = new Date(now.getTime() - 24 * 60 * 60 * 1000);
  const tokens = await db
    .delete(accountTokens)
    .where(
      or(lt(accountTokens.expiresAt, dayAgo), and(isNotNull(accountTokens.usedAt), lt(accountTokens.usedAt, dayAgo))),
    )
    .returning({ id: accountTokens.id });
  const counters = await createAttemptLimits({ db }).prune(now);
  return { sessions: ended.length, tokens: tokens.length, counters };
}

export function pruneExpiredAccountsJob(db: Db): JobDefinition {
  // Every night at 03:17 UTC.
  return { name: 'accounts.prune-expired', schedule: '17 3 * * *', run: () => pruneExpiredAccountRecords(db) };
}
