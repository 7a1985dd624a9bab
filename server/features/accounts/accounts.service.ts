import { randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import {
  accountMessages,
  validateEmail,
  validateRegistrationPassword,
  validateUsername,
} from '#common/account-rules.ts';
import { RESET_PASSWORD_MIN } from '#common/constants.ts';
import type { Mailer } from '#server/adapters/email/mailer.ts';
import type { Db } from '#server/db/client.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import { AppError, conflict, forbidden, invalid } from '#server/http/errors.ts';
import { accountTokens, sessions, users } from './accounts.tables.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { hashToken, toSessionUser } from './sessions.ts';

/** Password-reset links work for an hour, once. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
const VERIFY_TOKEN_TTL_MS = 48 * 60 * 60 * 1000;
/** Failed sign-ins allowed before each further one must wait (1 s, 2 s, 4 s... up to 15 min). */
export const FREE_LOGIN_FAILURES = 5;
const MAX_LOGIN_DELAY_S = 15 * 60;

export const INVALID_LOGIN = 'Invalid email or password';
export const RESET_REQUESTED = 'If an account exists for that email, a password reset link is on its way.';
const INVALID_RESET = 'Invalid or expired reset link';

const newToken = () => randomBytes(32).toString('base64url');
const sameEmail = (email: string) => sql`lower(${users.email}) = lower(${email.trim()})`;

type UserRow = typeof users.$inferSelect;

/** Seconds a sign-in must wait after `failures` consecutive failures, the last at `lastAt`. */
export function loginDelaySeconds(failures: number, lastAt: Date | null, now: Date): number {
  if (failures < FREE_LOGIN_FAILURES || !lastAt) return 0;
  const delay = Math.min(MAX_LOGIN_DELAY_S, 2 ** (failures - FREE_LOGIN_FAILURES));
  return Math.max(0, Math.ceil(delay - (now.getTime() - lastAt.getTime()) / 1000));
}

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password.
const decoyHash = hashPassword(randomBytes(16).toString('hex'));

export function createAccountsService({
  db,
  mailer,
  settings,
  publicUrl,
}: {
  db: Db;
  mailer: Mailer;
  settings: SettingsService;
  publicUrl: string;
}) {
  async function findByEmail(email: string) {
    const [user] = await db.select().from(users).where(sameEmail(email)).limit(1);
    return user ?? null;
  }

  async function assertUnique({ username, email }: { username: string; email: string }, exceptId?: string) {
    const others = exceptId ? ne(users.id, exceptId) : undefined;
    const [emailTaken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sameEmail(email), others))
      .limit(1);
    if (emailTaken) throw conflict('email_taken', 'An account with this email already exists');
    const [nameTaken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = lower(${username})`, others))
      .limit(1);
    if (nameTaken) throw conflict('username_taken', 'This username is already taken');
  }

  /** Sends a one-use link for a purpose; earlier unused links of the same purpose stop working. */
  async function mailToken(user: UserRow, purpose: 'password_reset' | 'email_verification') {
    const token = newToken();
    const ttl = purpose === 'password_reset' ? RESET_TOKEN_TTL_MS : VERIFY_TOKEN_TTL_MS;
    await db.transaction(async (tx) => {
      await tx
        .update(accountTokens)
        .set({ usedAt: new Date() })
        .where(
          and(eq(accountTokens.userId, user.id), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)),
        );
      await tx
        .insert(accountTokens)
        .values({ userId: user.id, purpose, tokenHash: hashToken(token), expiresAt: new Date(Date.now() + ttl) });
    });
    const { siteName } = await settings.get();
    if (purpose === 'password_reset') {
      const link = `${publicUrl}/reset-password?token=${token}`;
      await mailer.send({
        to: user.email,
        template: 'password-reset',
        subject: `Reset your ${siteName} password`,
        text: `Hello ${user.username},\n\nSomeone (hopefully you) asked to reset the password of your ${siteName} account.\nOpen this link within an hour to choose a new password:\n\n${link}\n\nIf you did not ask for it, you can ignore this email: your password stays as it is.\n`,
      });
    } else {
      const link = `${publicUrl}/verify-email?token=${token}`;
      await mailer.send({
        to: user.email,
        template: 'email-verification',
        subject: `Confirm your email for ${siteName}`,
        text: `Welcome to ${siteName}, ${user.username}!\n\nPlease confirm your email address by opening this link:\n\n${link}\n`,
      });
    }
  }

  /** A valid, unused, unexpired token of a purpose, or null. */
  async function findToken(token: string, purpose: 'password_reset' | 'email_verification') {
    if (!token || token.length > 200) return null;
    const [row] = await db
      .select({ token: accountTokens, user: users })
      .from(accountTokens)
      .innerJoin(users, eq(users.id, accountTokens.userId))
      .where(
        and(
          eq(accountTokens.tokenHash, hashToken(token)),
          eq(accountTokens.purpose, purpose),
          isNull(accountTokens.usedAt),
          gt(accountTokens.expiresAt, new Date()),
        ),
      );
    return row ?? null;
  }

  /**
   * Creates an account. The spec's rules apply here as on the page; with email verification
   * required, no session starts until the emailed link is used.
   */
  async function register(input: { username: string; email: string; password: string }) {
    const { allowRegistration, requireEmailVerification } = await settings.get();
    if (!allowRegistration) throw forbidden('Registration is closed', 'registration_closed');
    const username = input.username.trim();
    const email = input.email.trim();
    const checks = [
      ['username', validateUsername(username)],
      ['email', validateEmail(email)],
      ['password', validateRegistrationPassword(input.password)],
    ] as const;
    for (const [field, problem] of checks) if (problem) throw invalid(field, problem);
    await assertUnique({ username, email });
    const [user] = await db
      .insert(users)
      .values({
        username,
        email,
        passwordHash: await hashPassword(input.password),
        emailVerifiedAt: requireEmailVerification ? null : new Date(),
      })
      .returning();
    if (!user) throw new Error('the account could not be stored');
    if (requireEmailVerification) await mailToken(user, 'email_verification');
    return { user: toSessionUser(user), verificationRequired: requireEmailVerification };
  }

  /** Checks credentials; the same error (and about the same time) for an unknown email and a wrong password. */
  async function login(input: { email: string; password: string }) {
    const user = input.email.trim() ? await findByEmail(input.email) : null;
    if (!user?.passwordHash) {
      await verifyPassword(input.password, await decoyHash);
      throw new AppError(401, 'invalid_credentials', INVALID_LOGIN);
    }
    const now = new Date();
    const wait = loginDelaySeconds(user.failedLogins, user.lastFailedLoginAt, now);
    if (wait > 0) {
      const error = new AppError(
        429,
        'too_many_attempts',
        `Too many failed sign-in attempts: try again in ${wait} seconds`,
      );
      error.retryAfter = wait;
      throw error;
    }
    if (!(await verifyPassword(input.password, user.passwordHash))) {
      await db
        .update(users)
        .set({ failedLogins: sql`${users.failedLogins} + 1`, lastFailedLoginAt: now })
        .where(eq(users.id, user.id));
      throw new AppError(401, 'invalid_credentials', INVALID_LOGIN);
    }
    if (!user.emailVerifiedAt && (await settings.get()).requireEmailVerification) {
      throw forbidden('Please confirm your email address first: we sent you a link', 'email_not_verified');
    }
    await db
      .update(users)
      .set({ failedLogins: 0, lastFailedLoginAt: null, lastLoginAt: now })
      .where(eq(users.id, user.id));
    return toSessionUser(user);
  }

  async function updateProfile(userId: string, input: { username: string; email: string }) {
    const username = input.username.trim();
    const email = input.email.trim();
    const usernameProblem = validateUsername(username);
    if (usernameProblem) throw invalid('username', usernameProblem);
    const emailProblem = validateEmail(email);
    if (emailProblem) throw invalid('email', emailProblem);
    await assertUnique({ username, email }, userId);
    const [user] = await db.update(users).set({ username, email }).where(eq(users.id, userId)).returning();
    if (!user) throw new AppError(404, 'not_found', 'Account not found');
    return toSessionUser(user);
  }

  /** Changes the password and ends every other session of the account. */
  async function changePassword(
    userId: string,
    currentToken: string,
    input: { currentPassword: string; newPassword: string },
  ) {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user?.passwordHash || !(await verifyPassword(input.currentPassword, user.passwordHash))) {
      throw invalid('currentPassword', 'Current password is incorrect');
    }
    if ([...input.newPassword].length < 6) throw invalid('newPassword', accountMessages.newPasswordTooShort);
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash: await hashPassword(input.newPassword) })
        .where(eq(users.id, userId));
      await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.idHash, hashToken(currentToken))));
    });
  }

  /** Mails a reset link when the email has an account; says the same either way. */
  async function requestPasswordReset(email: string) {
    const problem = validateEmail(email);
    if (problem) throw invalid('email', problem);
    const user = await findByEmail(email);
    if (user) await mailToken(user, 'password_reset');
  }

  async function verifyResetToken(token: string) {
    const found = await findToken(token, 'password_reset');
    if (!found) throw new AppError(400, 'invalid_token', INVALID_RESET, 'token');
    return { email: found.user.email };
  }

  /** Sets a new password from a reset link: once, within the hour; every session of the account ends. */
  async function resetPassword(token: string, password: string) {
    if ([...password].length < RESET_PASSWORD_MIN) throw invalid('password', accountMessages.resetPasswordTooShort);
    const found = await findToken(token, 'password_reset');
    if (!found) throw new AppError(400, 'invalid_token', INVALID_RESET, 'token');
    const passwordHash = await hashPassword(password);
    await db.transaction(async (tx) => {
      // Marking the token used in the same statement that checks it keeps two clicks from both working.
      const used = await tx
        .update(accountTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(accountTokens.id, found.token.id), isNull(accountTokens.usedAt)))
        .returning({ id: accountTokens.id });
      if (used.length === 0) throw new AppError(400, 'invalid_token', INVALID_RESET, 'token');
      await tx
        .update(users)
        .set({ passwordHash, failedLogins: 0, lastFailedLoginAt: null })
        .where(eq(users.id, found.user.id));
      await tx.delete(sessions).where(eq(sessions.userId, found.user.id));
    });
  }

  async function verifyEmailAddress(token: string) {
    const found = await findToken(token, 'email_verification');
    if (!found) throw new AppError(400, 'invalid_token', 'Invalid or expired confirmation link', 'token');
    await db.transaction(async (tx) => {
      await tx.update(accountTokens).set({ usedAt: new Date() }).where(eq(accountTokens.id, found.token.id));
      await tx.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, found.user.id));
    });
  }

  return {
    register,
    login,
    updateProfile,
    changePassword,
    requestPasswordReset,
    verifyResetToken,
    resetPassword,
    verifyEmailAddress,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
