import { randomBytes } from 'node:crypto';
import { and, eq, gt, inArray, isNull, ne, sql } from 'drizzle-orm';
import {
  accountMessages,
  validateEmail,
  validateRegistrationPassword,
  validateUsername,
} from '#common/account-rules.ts';
import { RESET_PASSWORD_MIN } from '#common/constants.ts';
import type { Mailer } from '#server/adapters/email/mailer.ts';
import type { Db, Tx } from '#server/db/client.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import { AppError, conflict, describeUniqueIndex, forbidden, invalid } from '#server/http/errors.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { accountTokens, sessions, users } from './accounts.tables.ts';
import { toAdminUser } from './admin-users.service.ts';
import { createAttemptLimits, loginKey } from './attempt-limits.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { hashToken, insertSession, type SessionClient, toSessionUser } from './sessions.ts';

/** Password-reset links work for an hour, once. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
const VERIFY_TOKEN_TTL_MS = 48 * 60 * 60 * 1000;
/** Reset emails one account may receive per hour, however many requests name it. */
export const RESET_MAILS_PER_HOUR = 3;
/** How much longer a sign-in on an account under attack takes, for clients that have not failed on it. */
export const UNDER_ATTACK_SLOWDOWN_MS = 1000;

export const INVALID_LOGIN = 'Invalid email or password';
export const RESET_REQUESTED = 'If an account exists for that email, a password reset link is on its way.';
export const EMAIL_CHANGE_NEEDS_PASSWORD = 'Enter your current password to change your email';
const INVALID_RESET = 'Invalid or expired reset link';
export const RESET_MAIL_LIMITED = 'This account was sent several reset emails in the last hour: try again later';
const EMAIL_TAKEN = 'An account with this email already exists';
const USERNAME_TAKEN = 'This username is already taken';
// Two registrations racing past the pre-check: the database's unique index decides, with the same answer.
describeUniqueIndex('users_email_key', 'email_taken', EMAIL_TAKEN);
describeUniqueIndex('users_username_key', 'username_taken', USERNAME_TAKEN);

type TokenPurpose = (typeof accountTokens.$inferSelect)['purpose'];

const newToken = () => randomBytes(32).toString('base64url');
const sameEmail = (email: string) => sql`lower(${users.email}) = lower(${email.trim()})`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type UserRow = typeof users.$inferSelect;
/** Who asked, for the audit log: an admin in the back office. */
type Actor = { userId: string; ip: string };

function tooManyAttempts(what: string, waitSeconds: number) {
  const error = new AppError(429, 'too_many_attempts', `${what}: try again in ${waitSeconds} seconds`);
  error.retryAfter = waitSeconds;
  return error;
}

// Compared against when the email is unknown, so a wrong email costs as long as a wrong password.
const decoyHash = hashPassword(randomBytes(16).toString('hex'));

export function createAccountsService({
  db,
  mailer,
  settings,
  events,
  publicUrl,
  jobs,
}: {
  db: Db;
  mailer: Mailer;
  settings: SettingsService;
  events: DomainEvents;
  publicUrl: string;
  jobs: Jobs;
}) {
  const limits = createAttemptLimits({ db });

  /** Tells the back office's live stream about an account: the users tab's fields, never a hash or a token. */
  function announce(type: 'user_registered' | 'user_updated', user: UserRow) {
    events.publish({ type, data: { collection: 'users', id: user.id, user: toAdminUser(user) } });
  }

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
    if (emailTaken) throw conflict('email_taken', EMAIL_TAKEN);
    const [nameTaken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sql`lower(${users.username}) = lower(${username})`, others))
      .limit(1);
    if (nameTaken) throw conflict('username_taken', USERNAME_TAKEN);
  }

  /** Stores a one-use token (its hash) in the caller's transaction; earlier unused tokens of the same purpose stop working. */
  async function storeToken(tx: Tx, userId: string, purpose: TokenPurpose, token: string, newEmail: string | null) {
    const ttl = purpose === 'password_reset' ? RESET_TOKEN_TTL_MS : VERIFY_TOKEN_TTL_MS;
    await tx
      .update(accountTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
    await tx.insert(accountTokens).values({
      userId,
      purpose,
      newEmail,
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + ttl),
    });
  }

  /** A new one-use token for a purpose. An admin's request is audited in the same transaction. */
  async function issueToken(user: UserRow, purpose: TokenPurpose, newEmail: string | null = null, actor?: Actor) {
    const token = newToken();
    await db.transaction(async (tx) => {
      if (actor) {
        await tx.insert(auditLog).values({
          actorUserId: actor.userId,
          action: 'user.password_reset_sent',
          entityType: 'user',
          entityId: user.id,
          details: { email: user.email },
          ip: actor.ip,
        });
      }
      await storeToken(tx, user.id, purpose, token, newEmail);
    });
    return token;
  }

  async function mailPasswordReset(user: UserRow, actor?: Actor) {
    const token = await issueToken(user, 'password_reset', null, actor);
    const { siteName } = await settings.get();
    await mailer.send({
      to: user.email,
      template: 'password-reset',
      subject: `Reset your ${siteName} password`,
      text: `Hello ${user.username},\n\nSomeone (hopefully you) asked to reset the password of your ${siteName} account.\nOpen this link within an hour to choose a new password:\n\n${publicUrl}/reset-password?token=${token}\n\nIf you did not ask for it, you can ignore this email: your password stays as it is.\n`,
      secrets: [token],
    });
  }

  async function mailEmailVerification(user: { username: string; email: string }, token: string, siteName: string) {
    await mailer.send({
      to: user.email,
      template: 'email-verification',
      subject: `Confirm your email for ${siteName}`,
      text: `Welcome to ${siteName}, ${user.username}!\n\nPlease confirm your email address by opening this link:\n\n${publicUrl}/verify-email?token=${token}\n`,
      secrets: [token],
    });
  }

  /** A link to the new address, and a notice to the old one, which keeps working until the link is opened. */
  async function mailEmailChange(user: UserRow, newEmail: string) {
    const token = await issueToken(user, 'email_change', newEmail);
    const { siteName } = await settings.get();
    await mailer.send({
      to: newEmail,
      template: 'email-change-confirmation',
      subject: `Confirm your new email for ${siteName}`,
      text: `Hello ${user.username},\n\nYou asked to use this address for your ${siteName} account. Confirm it by opening this link within 48 hours:\n\n${publicUrl}/verify-email?token=${token}\n\nUntil then your account keeps its current address. If you did not ask for this, you can ignore this email.\n`,
      secrets: [token],
    });
    await mailer.send({
      to: user.email,
      template: 'email-change-requested',
      subject: `Your ${siteName} email address is being changed`,
      text: `Hello ${user.username},\n\nSomeone signed in to your ${siteName} account asked to change its email address to ${newEmail}. The change takes effect only once that address is confirmed.\n\nIf this was not you, reset your password now at ${publicUrl}/request-password-reset: that signs out every session and cancels the change.\n`,
    });
  }

  /** A valid, unused, unexpired token of one of the purposes, or null. */
  async function findToken(token: string, ...purposes: TokenPurpose[]) {
    if (!token || token.length > 200) return null;
    const [row] = await db
      .select({ token: accountTokens, user: users })
      .from(accountTokens)
      .innerJoin(users, eq(users.id, accountTokens.userId))
      .where(
        and(
          eq(accountTokens.tokenHash, hashToken(token)),
          inArray(accountTokens.purpose, purposes),
          isNull(accountTokens.usedAt),
          gt(accountTokens.expiresAt, new Date()),
        ),
      );
    return row ?? null;
  }

  /**
   * Creates an account. The spec's rules apply here as on the page; with email verification
   * required, no session starts until the emailed link is used.
   *
   * The account and what it needs (its session, or its confirmation link) are stored in one
   * transaction: a failure stores none of them, so the answer is an error and trying again
   * works (never an account that answered 503 and then 409, or one with no link). The link is
   * mailed before that transaction, as the mailer stores its copy in the outbox on its own and an
   * SMTP server cannot take a message back: if the mail fails nothing is stored, and if storing
   * fails the mailed link only finds no account.
   */
  async function register(
    input: { username: string; email: string; password: string },
    client: SessionClient & { previousSessionToken?: string | undefined } = {},
  ) {
    const { allowRegistration, requireEmailVerification, siteName } = await settings.get();
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
    // Slow on purpose (argon2id): outside the transaction, which holds a connection.
    const passwordHash = await hashPassword(input.password);
    const verificationToken = requireEmailVerification ? newToken() : null;
    if (verificationToken) await mailEmailVerification({ username, email }, verificationToken, siteName);
    const { user, sessionToken } = await db.transaction(async (tx) => {
      const [user] = await tx
        .insert(users)
        .values({ username, email, passwordHash, emailVerifiedAt: verificationToken ? null : new Date() })
        .returning();
      if (!user) throw new Error('the account could not be stored');
      if (verificationToken) {
        await storeToken(tx, user.id, 'email_verification', verificationToken, null);
        return { user, sessionToken: null };
      }
      return { user, sessionToken: await insertSession(tx, user.id, client, client.previousSessionToken) };
    });
    announce('user_registered', user);
    if (sessionToken === null) return { user: toSessionUser(user), verificationRequired: true as const, sessionToken };
    return { user: toSessionUser(user), verificationRequired: false as const, sessionToken };
  }

  /**
   * Checks credentials. Each attempt is counted before the password is verified, per email and
   * client: a client's sixth failure and later ones wait longer and longer, while the real owner
   * elsewhere is never locked out. When an account fails from many clients it is under attack:
   * clients that have failed on it wait until it cools down, fresh ones are only slowed. An
   * unknown email goes through the same steps, the same error and about the same time.
   */
  async function login(input: { email: string; password: string }, client: string) {
    const key = loginKey(input.email);
    const reserved = await limits.reserve(key, client);
    if (!reserved.allowed) throw tooManyAttempts('Too many failed sign-in attempts', reserved.waitSeconds);
    const cooldown = await limits.attackCooldown(key);
    if (cooldown > 0) {
      if (reserved.earlierFailures > 0) throw tooManyAttempts('Too many failed sign-in attempts', cooldown);
      await sleep(UNDER_ATTACK_SLOWDOWN_MS);
    }
    const user = input.email.trim() ? await findByEmail(input.email) : null;
    const matches = user?.passwordHash
      ? await verifyPassword(input.password, user.passwordHash)
      : await verifyPassword(input.password, await decoyHash).then(() => false);
    if (!user || !matches) {
      await limits.recordFailure(key);
      throw new AppError(401, 'invalid_credentials', INVALID_LOGIN);
    }
    await limits.clear(key, client);
    if (!user.emailVerifiedAt && (await settings.get()).requireEmailVerification) {
      throw forbidden('Please confirm your email address first: we sent you a link', 'email_not_verified');
    }
    await db.update(users).set({ lastLoginAt: new Date() }).where(eq(users.id, user.id));
    return toSessionUser(user);
  }

  /** The account's current password, checked with the same per-client backoff as sign-in. */
  async function checkCurrentPassword(user: UserRow, password: string, client: string) {
    const key = `password:${user.id}`;
    const reserved = await limits.reserve(key, client);
    if (!reserved.allowed) throw tooManyAttempts('Too many wrong passwords', reserved.waitSeconds);
    if (!user.passwordHash || !(await verifyPassword(password, user.passwordHash))) {
      throw invalid('currentPassword', 'Current password is incorrect');
    }
    await limits.clear(key, client);
  }

  async function findById(userId: string) {
    const [user] = await db.select().from(users).where(eq(users.id, userId));
    if (!user) throw new AppError(404, 'not_found', 'Account not found');
    return user;
  }

  /**
   * Changes the username at once. A new email needs the current password and takes effect only
   * when the link mailed to it is opened; the old address is told (a stolen session alone must
   * not be enough to take the account over through a reset to a new address).
   */
  async function updateProfile(
    userId: string,
    input: { username: string; email: string; currentPassword?: string | undefined },
    client: string,
  ) {
    const username = input.username.trim();
    const email = input.email.trim();
    const usernameProblem = validateUsername(username);
    if (usernameProblem) throw invalid('username', usernameProblem);
    const emailProblem = validateEmail(email);
    if (emailProblem) throw invalid('email', emailProblem);
    const current = await findById(userId);
    const emailChanges = email.toLowerCase() !== current.email.toLowerCase();
    // The password first: a session alone must not learn whether an address has an account.
    if (emailChanges) {
      if (!input.currentPassword) throw invalid('currentPassword', EMAIL_CHANGE_NEEDS_PASSWORD);
      await checkCurrentPassword(current, input.currentPassword, client);
    }
    await assertUnique({ username, email }, userId);
    // A change of case only is the same address: it is kept as typed.
    const [user] = await db
      .update(users)
      .set({ username, ...(emailChanges ? {} : { email }) })
      .where(eq(users.id, userId))
      .returning();
    if (!user) throw new AppError(404, 'not_found', 'Account not found');
    if (user.username !== current.username || user.email !== current.email) announce('user_updated', user);
    if (!emailChanges) return { user: toSessionUser(user), pendingEmail: undefined };
    await mailEmailChange(user, email);
    return { user: toSessionUser(user), pendingEmail: email };
  }

  /** Changes the password and ends every other session of the account. */
  async function changePassword(
    userId: string,
    currentToken: string,
    input: { currentPassword: string; newPassword: string },
    client: string,
  ) {
    if ([...input.newPassword].length < 6) throw invalid('newPassword', accountMessages.newPasswordTooShort);
    await checkCurrentPassword(await findById(userId), input.currentPassword, client);
    await db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ passwordHash: await hashPassword(input.newPassword) })
        .where(eq(users.id, userId));
      await tx.delete(sessions).where(and(eq(sessions.userId, userId), ne(sessions.idHash, hashToken(currentToken))));
    });
  }

  // The reset mail goes out after the answer, so a known email answers as fast as an unknown one;
  // an account receives at most RESET_MAILS_PER_HOUR of them, however many requests name it.
  const sendResetMail = jobs.define<{ email: string }>('accounts.password-reset-mail', async ({ email }) => {
    const user = await findByEmail(email);
    if (!user) return;
    if (!(await limits.take(`reset-mail:${user.id}`, RESET_MAILS_PER_HOUR, 60 * 60))) return;
    await mailPasswordReset(user);
  });

  /** Mails a reset link when the email has an account; says the same, as fast, either way. */
  async function requestPasswordReset(email: string) {
    const problem = validateEmail(email);
    if (problem) throw invalid('email', problem);
    await sendResetMail({ email: email.trim() });
  }

  /**
   * The users tab's Reset password (back office): mails the account its reset link now, through the
   * same link and limit as the shopper's own request; the admin learns when the limit holds it back.
   */
  async function sendPasswordResetFor(actor: Actor, userId: string) {
    const user = await findById(userId);
    if (!(await limits.take(`reset-mail:${user.id}`, RESET_MAILS_PER_HOUR, 60 * 60))) {
      throw new AppError(429, 'too_many_attempts', RESET_MAIL_LIMITED);
    }
    await mailPasswordReset(user, actor);
    return { message: `A password reset email was sent to ${user.email}` };
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
      await tx.update(users).set({ passwordHash }).where(eq(users.id, found.user.id));
      await tx.delete(sessions).where(eq(sessions.userId, found.user.id));
      // A pending email change is cancelled: the reset may be the owner taking the account back.
      await tx
        .update(accountTokens)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(accountTokens.userId, found.user.id),
            eq(accountTokens.purpose, 'email_change'),
            isNull(accountTokens.usedAt),
          ),
        );
    });
    // The new password starts with a clean slate of failed attempts.
    await limits.clearKey(loginKey(found.user.email));
    await limits.clearKey(`password:${found.user.id}`);
  }

  /** Confirms an address: a new account's, or the new address of an email change (which then replaces the old). */
  async function verifyEmailAddress(token: string) {
    const found = await findToken(token, 'email_verification', 'email_change');
    const invalidLink = () => new AppError(400, 'invalid_token', 'Invalid or expired confirmation link', 'token');
    if (!found) throw invalidLink();
    const newEmail = found.token.purpose === 'email_change' ? found.token.newEmail : null;
    await db.transaction(async (tx) => {
      const used = await tx
        .update(accountTokens)
        .set({ usedAt: new Date() })
        .where(and(eq(accountTokens.id, found.token.id), isNull(accountTokens.usedAt)))
        .returning({ id: accountTokens.id });
      if (used.length === 0) throw invalidLink();
      // A unique-index race with another account taking the address becomes a 409 (server/http/errors.ts).
      await tx
        .update(users)
        .set({ emailVerifiedAt: new Date(), ...(newEmail ? { email: newEmail } : {}) })
        .where(eq(users.id, found.user.id));
    });
    if (!newEmail) return { message: 'Email confirmed: you can sign in now' };
    announce('user_updated', { ...found.user, email: newEmail });
    const { siteName } = await settings.get();
    await mailer.send({
      to: found.user.email,
      template: 'email-changed',
      subject: `Your ${siteName} email address was changed`,
      text: `Hello ${found.user.username},\n\nThe email address of your ${siteName} account is now ${newEmail}; this address no longer signs in.\n\nIf this was not you, reply to this email or write to us right away.\n`,
    });
    return { message: `Your email address is now ${newEmail}` };
  }

  return {
    register,
    login,
    updateProfile,
    changePassword,
    requestPasswordReset,
    sendPasswordResetFor,
    verifyResetToken,
    resetPassword,
    verifyEmailAddress,
  };
}

export type AccountsService = ReturnType<typeof createAccountsService>;
