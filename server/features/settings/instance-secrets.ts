import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { instanceSecrets } from './settings.tables.ts';

/**
 * A secret this installation generated for itself, the same for every instance on the database.
 * The first instance to ask creates it; the others read the stored one.
 */
export async function getInstanceSecret(db: Db, name: string): Promise<string> {
  // Read first: every start after the first finds it, without a write (and, on the embedded
  // database, without syncing the data folder).
  const stored = await readSecret(db, name);
  if (stored !== null) return stored;
  // Instances starting together may both get here: the first insert wins, and both read it.
  await db
    .insert(instanceSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const created = await readSecret(db, name);
  if (created === null) throw new Error(`instance secret ${name} could not be stored`);
  return created;
}

async function readSecret(db: Db, name: string): Promise<string | null> {
  const [row] = await db
    .select({ value: instanceSecrets.value })
    .from(instanceSecrets)
    .where(eq(instanceSecrets.name, name));
  return row?.value ?? null;
}
