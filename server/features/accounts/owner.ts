import { randomBytes } from 'node:crypto';
import { and, eq, ne, sql } from 'drizzle-orm';
import { validateEmail } from '#common/account-rules.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { invalid } from '#server/http/errors.ts';
import { attemptCounters, sessions, users } from './accounts.tables.ts';
import { loginKey } from './attempt-limits.ts';
import { generatePassword, hashPassword } from './passwords.ts';

type OwnerSignIn = { email: string | null; password: string | null };

// Any fixed number: instances starting together on an empty database (and `npm run owner`) take turns.
const OWNER_LOCK = 7_114_202;

/**
 * Makes sure the shop has its owner: creates one from the given email and password (or a
 * generated password) when there is none, and returns the credentials only when it did.
 * Safe to call from several instances at once: exactly one creates the owner and reports it.
 */
export async function ensureOwner(db: Db, owner: OwnerSignIn) {
  // Most starts find the owner and skip the (slow) hashing.
  if (await hasOwner(db)) return null;
  const signIn = await prepareSignIn(owner);
  // Checked again under the lock: another instance may have created the owner meanwhile, and then
  // this one's generated password was never stored, so it must not be printed.
  const created = await db.transaction(async (tx) => {
    await lockOwnerChanges(tx);
    if (await hasOwner(tx)) return false;
    await writeOwner(tx, signIn.email, signIn.passwordHash);
    return true;
  });
  return created ? reportOf(signIn, owner) : null;
}

/**
 * Sets the owner's sign-in (`npm run owner`): the account with the email becomes the owner (it is
 * created when missing) with the password (generated when none is given); a previous owner
 * becomes an admin. Every session of the account ends.
 */
export async function setOwner(db: Db, owner: OwnerSignIn) {
  const signIn = await prepareSignIn(owner);
  await db.transaction(async (tx) => {
    await lockOwnerChanges(tx);
    await writeOwner(tx, signIn.email, signIn.passwordHash);
  });
  return reportOf(signIn, owner);
}

type PreparedSignIn = { email: string; password: string; passwordHash: string };

/** Until the transaction ends, other owner changes wait (on PGlite, its transactions take turns anyway). */
async function lockOwnerChanges(tx: Tx): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${OWNER_LOCK})`);
}

async function hasOwner(db: Db | Tx): Promise<boolean> {
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'owner')).limit(1);
  return existing !== undefined;
}

/** Checks the email and hashes the password (given or generated) outside any transaction: hashing takes a while. */
async function prepareSignIn(owner: OwnerSignIn): Promise<PreparedSignIn> {
  const email = (owner.email ?? 'owner@stillwater.local').trim();
  const problem = validateEmail(email);
  if (problem) throw invalid('email', problem);
  const password = owner.password ?? generatePassword();
  return { email, password, passwordHash: await hashPassword(password) };
}

function reportOf(signIn: PreparedSignIn, owner: OwnerSignIn) {
  return { email: signIn.email, password: signIn.password, generated: owner.password === null };
}

async function writeOwner(tx: Tx, email: string, passwordHash: string): Promise<void> {
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
}
