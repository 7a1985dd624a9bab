import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { SessionUser } from '#common/contracts/accounts.ts';
import type { Db } from '#server/db/client.ts';
import { sessions, users } from './accounts.tables.ts';
import { generatePassword, hashPassword } from './passwords.ts';

export const SESSION_COOKIE = 'sw_session';
/** A session ends after this long without use... */
export const SESSION_IDLE_MS = 7 * 24 * 60 * 60 * 1000;
/** ...and after this long in any case. */
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
// Writing last-seen on every request would turn reads into writes; once a minute is enough.
const TOUCH_INTERVAL_MS = 60 * 1000;

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

type UserRow = typeof users.$inferSelect;

export function toSessionUser(user: UserRow): SessionUser {
  const isAdmin = user.role === 'owner' || user.role === 'admin';
  return {
    id: user.id,
    username: user.username,
    email: user.email,
    isAdmin,
    role: user.role,
    adminPermissions: user.role === 'owner' ? {} : isAdmin ? user.adminPermissions : {},
  };
}

export function createAccountsService({ db }: { db: Db }) {
  /** Starts a session for a user; returns the token for the cookie (only its hash is stored). */
  async function createSession(userId: string, client: { ip?: string; userAgent?: string } = {}) {
    const token = randomBytes(32).toString('base64url');
    await db.insert(sessions).values({
      idHash: hashToken(token),
      userId,
      ip: client.ip ?? null,
      userAgent: client.userAgent?.slice(0, 300) ?? null,
      expiresAt: new Date(Date.now() + SESSION_ABSOLUTE_MS),
    });
    return token;
  }

  /** The user of a session cookie, or null when the session is unknown, idle too long or expired. */
  async function findSessionUser(token: string | undefined): Promise<SessionUser | null> {
    if (!token || token.length > 100) return null;
    const idHash = hashToken(token);
    const now = new Date();
    const [row] = await db
      .select({ user: users, lastSeenAt: sessions.lastSeenAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(
        and(
          eq(sessions.idHash, idHash),
          gt(sessions.expiresAt, now),
          gt(sessions.lastSeenAt, new Date(now.getTime() - SESSION_IDLE_MS)),
        ),
      );
    if (!row) return null;
    if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
      await db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.idHash, idHash));
    }
    return toSessionUser(row.user);
  }

  async function deleteSession(token: string): Promise<void> {
    await db.delete(sessions).where(eq(sessions.idHash, hashToken(token)));
  }

  /**
   * Makes sure the shop has its owner. Creates one from the given email and password, or with a
   * generated password, and returns the credentials only when it created the account.
   */
  async function ensureOwner(owner: { email: string | null; password: string | null }) {
    const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.role, 'owner')).limit(1);
    if (existing) return null;
    const email = owner.email ?? 'owner@stillwater.local';
    const password = owner.password ?? generatePassword();
    const [taken] = await db.select({ id: users.id }).from(users).where(sql`lower(${users.email}) = lower(${email})`);
    const passwordHash = await hashPassword(password);
    if (taken) {
      // An existing account with the owner's address becomes the owner.
      await db
        .update(users)
        .set({ role: 'owner', passwordHash, emailVerifiedAt: new Date() })
        .where(eq(users.id, taken.id));
    } else {
      await db
        .insert(users)
        .values({ username: 'owner', email, passwordHash, role: 'owner', emailVerifiedAt: new Date() });
    }
    return { email, password, generated: owner.password === null };
  }

  return { createSession, findSessionUser, deleteSession, ensureOwner };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
