import { randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { validateEmail } from '#common/account-rules.ts';
import type { Db } from '#server/db/client.ts';
import { invalid } from '#server/http/errors.ts';
import { attemptCounters, sessions, users } from './accounts.tables.ts';
import { loginKey } from './attempt-limits.ts';
import { generatePassword, hashPassword } from './passwords.ts';

type OwnerSignIn = { email: string | null; password: string | null };

/**
 * Makes sure the shop has its owner: creates one from the given email and password (or a
 * generated password) when there is none, and returns the credentials only when it did.
 */
export async function ensureOwner(db: Db, owner: OwnerSignIn) {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'owner')).limit(1);
  if (existing) return null;
  return setOwner(db, owner);
}

/**
 * Sets the owner's sign-in (`npm run owner`): the account with the email becomes the owner (it is
 * created when missing) with the password (generated when none is given); a previous owner
 * becomes an admin. Every session of the account ends.
 */
export async function setOwner(db: Db, owner: OwnerSignIn) {
  const email = (owner.email ?? 'owner@stillwater.local').trim();
  const problem = validateEmail(email);
  if (problem) throw invalid('email', problem);
  const password = owner.password ?? generatePassword();
  const passwordHash = await hashPassword(password);
  await db.transaction(async (tx) => {
    const [taken] = await tx.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
    await tx
      .update(users)
      .set({ role: 'admin' })
      .where(and(eq(users.role, 'owner'), taken ? ne(users.id, taken.id) : undefined));
    if (taken) {
      await tx
        .update(users)
        .set({ role: 'owner', passwordHash, emailVerifiedAt: taken.emailVerifiedAt ?? new Date() })
        .where(eq(users.id, taken.id));
      await tx.delete(sessions).where(eq(sessions.userId, taken.id));
      // A new password starts with a clean slate of failed sign-ins.
      await tx.delete(attemptCounters).where(eq(attemptCounters.key, loginKey(taken.email)));
    } else {
      const [nameTaken] = await tx.select({ id: users.id }).from(users).where(eq(users.username, 'owner'));
      const username = nameTaken ? `owner-${randomBytes(3).toString('hex')}` : 'owner';
      await tx.insert(users).values({ username, email, passwordHash, role: 'owner', emailVerifiedAt: new Date() });
    }
  });
  return { email, password, generated: owner.password === null };
}
