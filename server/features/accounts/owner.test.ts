import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { type Database, openDatabase } from '#server/db/client.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { users } from './accounts.tables.ts';
import { ensureOwner, setOwner } from './owner.ts';
import { verifyPassword } from './passwords.ts';

const database = await createMigratedTestDatabase();
afterAll(() => database.close());
const { db } = database;
const byEmail = async (email: string) =>
  (await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`))[0];

test('the first start creates the owner with a generated password, printed once', async () => {
  const created = await ensureOwner(db, { email: null, password: null });
  expect(created).toMatchObject({ email: 'owner@stillwater.local', generated: true });
  const owner = await byEmail('owner@stillwater.local');
  expect(owner?.role).toBe('owner');
  expect(await verifyPassword(created?.password ?? '', owner?.passwordHash ?? '')).toBe(true);
  expect(await ensureOwner(db, { email: null, password: null })).toBeNull();
});

test('setting another email moves ownership and keeps a single owner', async () => {
  const result = await setOwner(db, { email: 'Boss@Example.com', password: 'Long-enough-1' });
  expect(result.generated).toBe(false);
  const owners = await db.select().from(users).where(eq(users.role, 'owner'));
  expect(owners.map((o) => o.email)).toEqual(['Boss@Example.com']);
  expect((await byEmail('owner@stillwater.local'))?.role).toBe('admin');
  expect(await verifyPassword('Long-enough-1', (await byEmail('boss@example.com'))?.passwordHash ?? '')).toBe(true);
});

test('an invalid email is refused', async () => {
  await expect(setOwner(db, { email: 'nope', password: null })).rejects.toThrow('Please enter a valid email address');
});

describe('instances starting together on an empty database (issue 16)', () => {
  const INSTANCES = 4;

  /**
   * A fresh database and one handle per instance: on PostgreSQL each with its own pool, as separate
   * processes would have; PGlite is one process's database, so its instances share the handle.
   */
  async function startingTogether(run: (handles: Database[]) => Promise<void>) {
    const fresh = await createMigratedTestDatabase();
    const url = fresh.pool?.options.connectionString;
    const others = url
      ? await Promise.all(Array.from({ length: INSTANCES - 1 }, () => openDatabase({ kind: 'postgres', url })))
      : [];
    try {
      await run(url ? [fresh, ...others] : Array.from({ length: INSTANCES }, () => fresh));
    } finally {
      await Promise.all(others.map((other) => other.close()));
      await fresh.close();
    }
  }

  const ownersOf = (database: Database) => database.db.select().from(users).where(eq(users.role, 'owner'));

  test('exactly one creates the owner and reports it, none fails, and its generated password signs in', async () => {
    await startingTogether(async (handles) => {
      const outcomes = await Promise.allSettled(
        handles.map((handle) => ensureOwner(handle.db, { email: null, password: null })),
      );
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      const reports = outcomes.flatMap((outcome) =>
        outcome.status === 'fulfilled' && outcome.value ? [outcome.value] : [],
      );
      expect(reports).toHaveLength(1);
      const owners = await ownersOf(handles[0] as Database);
      expect(owners.map((owner) => owner.email)).toEqual(['owner@stillwater.local']);
      expect(await verifyPassword(reports[0]?.password ?? '', owners[0]?.passwordHash ?? '')).toBe(true);
      // The passwords the other instances generated were never stored.
      expect(await verifyPassword('not-the-password', owners[0]?.passwordHash ?? '')).toBe(false);
    });
  }, 60_000);

  test('with a configured email and password, one owner is created and the password signs in', async () => {
    await startingTogether(async (handles) => {
      const configured = { email: 'Shop@Example.com', password: 'Configured-pass-9' };
      const results = await Promise.all(handles.map((handle) => ensureOwner(handle.db, configured)));
      expect(results.filter((result) => result !== null)).toEqual([
        { email: 'Shop@Example.com', password: 'Configured-pass-9', generated: false },
      ]);
      const owners = await ownersOf(handles[0] as Database);
      expect(owners).toHaveLength(1);
      expect(await verifyPassword('Configured-pass-9', owners[0]?.passwordHash ?? '')).toBe(true);
    });
  }, 60_000);

  test('`npm run owner` during the starts leaves its account as the one owner', async () => {
    await startingTogether(async (handles) => {
      const [first, ...rest] = handles as [Database, ...Database[]];
      const outcomes = await Promise.allSettled([
        setOwner(first.db, { email: 'boss@example.com', password: 'Long-enough-1' }),
        ...rest.map((handle) => ensureOwner(handle.db, { email: null, password: null })),
      ]);
      expect(outcomes.filter((outcome) => outcome.status === 'rejected')).toEqual([]);
      const owners = await ownersOf(first);
      expect(owners.map((owner) => owner.email)).toEqual(['boss@example.com']);
      expect(await verifyPassword('Long-enough-1', owners[0]?.passwordHash ?? '')).toBe(true);
    });
  }, 60_000);
});
