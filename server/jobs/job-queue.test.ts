import { eq } from 'drizzle-orm';
import { expect, test } from 'vitest';
import { sessions, users } from '#server/features/accounts/accounts.tables.ts';
import { pruneExpiredAccountsJob } from '#server/features/accounts/prune-expired.job.ts';
import { createSessionStore, hashToken } from '#server/features/accounts/sessions.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { startJobQueue } from './job-queue.ts';

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
