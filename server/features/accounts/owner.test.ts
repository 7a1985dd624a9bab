import { eq, sql } from 'drizzle-orm';
import { afterAll, expect, test } from 'vitest';
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
