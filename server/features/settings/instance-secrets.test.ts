import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { getInstanceSecret } from './instance-secrets.ts';
import { instanceSecrets } from './settings.tables.ts';

const database = await createMigratedTestDatabase();
const { db } = database;
afterAll(() => database.close());

describe('instance secrets', () => {
  test('the first call makes a random secret; every later call reads the same one', async () => {
    const first = await getInstanceSecret(db, 'test-secret-a');
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await getInstanceSecret(db, 'test-secret-a')).toBe(first);
    expect(await getInstanceSecret(db, 'test-secret-b')).not.toBe(first);
    const rows = await db.select().from(instanceSecrets).where(eq(instanceSecrets.name, 'test-secret-a'));
    expect(rows).toHaveLength(1);
  });

  test('instances asking together for a new secret all get the one stored', async () => {
    const answers = await Promise.all(Array.from({ length: 8 }, () => getInstanceSecret(db, 'test-secret-c')));
    expect(new Set(answers).size).toBe(1);
    const [row] = await db.select().from(instanceSecrets).where(eq(instanceSecrets.name, 'test-secret-c'));
    expect(row?.value).toBe(answers[0]);
  });

  test('a secret stored before is returned as it is', async () => {
    await db.insert(instanceSecrets).values({ name: 'test-secret-d', value: 'stored-earlier' });
    expect(await getInstanceSecret(db, 'test-secret-d')).toBe('stored-earlier');
  });
});
