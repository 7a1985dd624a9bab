import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { instanceSecrets } from './settings.tables.ts';

/**
 * A secret this installation generated for itself, the same for every instance on the database.
 * The first instance to ask creates it; the others read the stored one.
 */
export async function getInstanceSecret(db: Db, name: string): Promise<string> {
  await db
    .insert(instanceSecrets)
    .values({ name, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(instanceSecrets).where(eq(instanceSecrets.name, name));
  if (!row) throw new Error(`instance secret ${name} could not be stored`);
  return row.value;
}
