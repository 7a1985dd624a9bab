import { and, eq, like } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { AdminUser } from '#common/contracts/admin/users.ts';
import { emailOutbox } from '#server/adapters/email/outbox.tables.ts';
import { storedEventsAbout } from '#server/features/events/stored-events.testing.ts';
import { settings } from '#server/features/settings/settings.tables.ts';
import type { JobQueue } from '#server/jobs/job-queue.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { lastMail, mailedToken } from '#server/testing/mail.ts';
import { buildTestApp, csrfHeaders } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { RESET_MAILS_PER_HOUR } from './accounts.service.ts';
import { accountTokens, attemptCounters, sessions, users } from './accounts.tables.ts';
import { ACCOUNT_ATTACK_FAILURES, FREE_FAILURES, loginKey } from './attempt-limits.ts';

const { app, database, mailbox, jobsDone } = await buildTestApp();
const { db } = database;
let counter = 0;
/** A fresh client address per test, so the strict per-client limit never mixes tests. */
const client = () => testClient(app, { remoteAddress: `10.0.${Math.floor(++counter / 200)}.${counter % 200}` });
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;
const newAccount = () => {
  const id = unique();
  return { username: `calm_${id}`, email: `calm.${id}@example.com`, password: 'Quiet-Water-42' };
};

async function registered(browser = client()) {
  const account = newAccount();
  const response = await browser.post('/api/auth/register', account);
  expect(response.statusCode).toBe(201);
  return { browser, account, user: response.json().user };
}

/** A reset link requested and mailed (the mail goes out after the answer, from a background job). */
async function requestedResetToken(email: string) {
  expect((await client().post('/api/password-reset/request', { email })).statusCode).toBe(200);
  await jobsDone();
  return mailedToken(mailbox, email, 'password-reset');
}

/** A shop whose strict per-client limit is out of the way, to test what lies behind it. */
async function shopWithoutStrictLimit() {
  const shop = await createTestDatabase();
  await shop.db.insert(settings).values({ key: 'strictRateLimit', value: 100 });
  return buildTestApp({ database: shop });
}

describe('registration', () => {
  test('creates the account, signs it in and sets an httpOnly SameSite=Lax session cookie', async () => {
    const browser = client();
    const account = newAccount();
    const response = await browser.post('/api/auth/register', account);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toMatchObject({
      message: 'Registration successful',
      verificationRequired: false,
      user: { username: account.username, email: account.email, isAdmin: false, role: 'user', adminPermissions: {} },
    });
    const cookie = response.cookies.find((c) => c.name === 'sw_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie?.value).toMatch(/^[\w-]{43}$/);
    const me = (await browser.get('/api/auth/me')).json();
    expect(me).toMatchObject({ authenticated: true, user: { email: account.email } });
    // Only the hash of the session id is stored; the password is an argon2id hash.
    const stored = await db.select().from(sessions).where(eq(sessions.userId, me.user.id));
    expect(stored[0]?.idHash).not.toBe(cookie?.value);
    const [user] = await db.select().from(users).where(eq(users.id, me.user.id));
    expect(user?.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    // The back office hears of it (live events): the users tab's fields, never the password's hash.
    const [event] = await storedEventsAbout(db, me.user.id, 1);
    expect(event).toEqual({
      type: 'user_registered',
      collection: 'users',
      data: {
        collection: 'users',
        id: me.user.id,
        user: {
          id: me.user.id,
          username: account.username,
          email: account.email,
          role: 'user',
          isAdmin: false,
          adminPermissions: {},
          createdAt: expect.any(String),
          lastLoginAt: null,
        },
      },
    });
    expect(JSON.stringify(event)).not.toContain('argon2');
  });

  test('a taken email or username is a 409, whatever its case', async () => {
    const { account } = await registered();
    const email = await client().post('/api/auth/register', { ...newAccount(), email: account.email.toUpperCase() });
    expect(email.statusCode).toBe(409);
    expect(email.json()).toEqual({ error: 'An account with this email already exists', code: 'email_taken' });
    const name = await client().post('/api/auth/register', {
      ...newAccount(),
      username: account.username.toUpperCase(),
    });
    expect(name.statusCode).toBe(409);
    expect(name.json().error).toBe('This username is already taken');
  });

  test.each([
    [{ username: 'ab' }, 'username', 'Username must be at least 3 characters'],
    [{ username: 'the_admin_desk' }, 'username', 'Username contains restricted words'],
    [{ username: 'with space' }, 'username', 'Username can only contain letters, numbers, hyphens and underscores'],
    [{ email: 'not-an-email' }, 'email', 'Please enter a valid email address'],
    [{ email: '' }, 'email', 'Email is required'],
    [{ password: 'abc' }, 'password', 'Password must be at least 6 characters'],
    [{ password: 'password' }, 'password', expect.stringMatching(/^Password is too weak: /)],
  ])('the spec rules apply on the server: %o', async (change, field, error) => {
    const response = await client().post('/api/auth/register', { ...newAccount(), ...change });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error, code: 'invalid_input', field });
  });

  test.each([{}, { username: 'x' }, { username: 1, email: 2, password: 3 }, 'not json'])(
    'a malformed body is a 400, never a 500: %o',
    async (payload) => {
      const response = await client().post('/api/auth/register', payload);
      // 400 for a bad body, 415 for one that is not JSON.
      expect([400, 415]).toContain(response.statusCode);
      expect(typeof response.json().error).toBe('string');
    },
  );

  test('is refused with 403 when registration is closed', async () => {
    const closed = await createTestDatabase();
    await closed.db.insert(settings).values({ key: 'allowRegistration', value: false });
    const { app: shop } = await buildTestApp({ database: closed });
    const response = await testClient(shop).post('/api/auth/register', newAccount());
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({ error: 'Registration is closed', code: 'registration_closed' });
  });

  test('with email verification required, sign-in waits for the mailed link', async () => {
    const verifying = await createTestDatabase();
    await verifying.db.insert(settings).values({ key: 'requireEmailVerification', value: true });
    const { app: shop, mailbox: inbox } = await buildTestApp({ database: verifying });
    const browser = testClient(shop);
    const account = newAccount();
    const created = await browser.post('/api/auth/register', account);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ verificationRequired: true });
    expect(created.json().user).toBeUndefined();
    expect(browser.cookie('sw_session')).toBeUndefined();
    const early = await browser.post('/api/auth/login', { email: account.email, password: account.password });
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('email_not_verified');
    const token = mailedToken(inbox, account.email, 'email-verification');
    expect((await browser.post('/api/auth/verify-email', { token })).statusCode).toBe(200);
    expect((await browser.post('/api/auth/verify-email', { token })).statusCode).toBe(400);
    expect(
      (await browser.post('/api/auth/login', { email: account.email, password: account.password })).statusCode,
    ).toBe(200);
  });
});

describe('sign-in and sign-out', () => {
  test('a wrong password and an unknown email get the same answer', async () => {
    const { account } = await registered();
    const wrong = await client().post('/api/auth/login', { email: account.email, password: 'Not-The-One-1' });
    const unknown = await client().post('/api/auth/login', {
      email: `nobody.${unique()}@example.com`,
      password: 'whatever',
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ error: 'Invalid email or password', code: 'invalid_credentials' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  test('sign-in starts a new session (the old one ends) and sign-out deletes it', async () => {
    const { account, browser } = await registered();
    const before = browser.cookie('sw_session');
    const response = await browser.post('/api/auth/login', { email: account.email, password: account.password });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'Login successful', user: { email: account.email } });
    const after = browser.cookie('sw_session');
    expect(after).not.toBe(before);
    const stale = testClient(app);
    stale.setCookie('sw_session', before as string);
    expect((await stale.get('/api/auth/me')).json()).toEqual({ authenticated: false });
    expect((await browser.post('/api/auth/logout')).statusCode).toBe(200);
    expect((await browser.get('/api/auth/me')).json()).toEqual({ authenticated: false });
    const reuse = testClient(app);
    reuse.setCookie('sw_session', after as string);
    expect((await reuse.get('/api/auth/me')).json()).toEqual({ authenticated: false });
  });

  test('emails are matched without regard to case or surrounding spaces', async () => {
    const { account } = await registered();
    const response = await client().post('/api/auth/login', {
      email: `  ${account.email.toUpperCase()} `,
      password: account.password,
    });
    expect(response.statusCode).toBe(200);
  });

  test('after repeated failures a client slows down, with Retry-After, and a success resets it', async () => {
    const { account } = await registered();
    const attacker = testClient(app, { remoteAddress: '10.99.0.1' });
    for (let i = 0; i < FREE_FAILURES; i++) {
      expect(
        (await attacker.post('/api/auth/login', { email: account.email, password: `wrong-${i}` })).statusCode,
      ).toBe(401);
    }
    // That client waits, even with the right password...
    const blocked = await attacker.post('/api/auth/login', { email: account.email, password: account.password });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json()).toEqual({
      error: 'Too many failed sign-in attempts: try again in 1 seconds',
      code: 'too_many_attempts',
    });
    expect(blocked.headers['retry-after']).toBe('1');
    // ...while the owner, on another client, is not locked out.
    expect(
      (await client().post('/api/auth/login', { email: account.email, password: account.password })).statusCode,
    ).toBe(200);
    // Once the wait is over, the right password works and clears the client's count.
    const key = loginKey(account.email);
    await db
      .update(attemptCounters)
      .set({ lastAt: new Date(Date.now() - 60_000) })
      .where(eq(attemptCounters.key, key));
    expect(
      (await attacker.post('/api/auth/login', { email: account.email, password: account.password })).statusCode,
    ).toBe(200);
    const left = await db
      .select()
      .from(attemptCounters)
      .where(and(eq(attemptCounters.key, key), eq(attemptCounters.client, '10.99.0.1')));
    expect(left).toEqual([]);
  });

  test('an unknown email slows down exactly like a known one (the lockout tells nothing)', async () => {
    const attacker = client();
    const email = `nobody.${unique()}@example.com`;
    const answers = [];
    for (let i = 0; i <= FREE_FAILURES; i++) {
      answers.push((await attacker.post('/api/auth/login', { email, password: `wrong-${i}` })).statusCode);
    }
    expect(answers).toEqual([401, 401, 401, 401, 401, 429]);
  });

  test('twenty parallel guesses from one client: exactly the free five are evaluated, the right password too', async () => {
    const { app: shop } = await shopWithoutStrictLimit();
    const account = newAccount();
    expect((await testClient(shop).post('/api/auth/register', account)).statusCode).toBe(201);
    // One browser's CSRF token for every guess, so that all twenty arrive together.
    const headers = await csrfHeaders(shop);
    const guesses = Array.from({ length: 20 }, (_, i) => (i === 19 ? account.password : `wrong-${i}`));
    const started = Date.now();
    const answers = await Promise.all(
      guesses.map((password) =>
        shop.inject({
          method: 'POST',
          url: '/api/auth/login',
          headers,
          remoteAddress: '10.77.0.1',
          payload: { email: account.email, password },
        }),
      ),
    );
    const evaluated = answers.filter((answer) => answer.statusCode === 401 || answer.statusCode === 200).length;
    const refused = answers.filter((answer) => answer.json().code === 'too_many_attempts').length;
    expect(evaluated + refused).toBe(20);
    // Past the free five, one more guess each time the backoff (1 s, 2 s, 4 s...) runs out: none
    // when the burst takes under a second, a few more on a machine slow enough to stretch it.
    const seconds = (Date.now() - started) / 1000;
    expect(evaluated).toBeGreaterThanOrEqual(FREE_FAILURES);
    expect(evaluated).toBeLessThanOrEqual(FREE_FAILURES + Math.floor(Math.log2(seconds + 1)));
    // The right password came last, behind the free five: refused like any other guess past them.
    if (seconds < 1) expect(answers[19]?.statusCode).toBe(429);
  });

  test('an account failing from many clients: clients that failed wait, a fresh one still signs in', async () => {
    const { app: shop } = await shopWithoutStrictLimit();
    const account = newAccount();
    expect((await testClient(shop).post('/api/auth/register', account)).statusCode).toBe(201);
    const botnet = Array.from({ length: ACCOUNT_ATTACK_FAILURES }, (_, i) =>
      testClient(shop, { remoteAddress: `10.88.0.${i + 1}` }),
    );
    const guesses = await Promise.all(
      botnet.map((bot) => bot.post('/api/auth/login', { email: account.email, password: 'guess' })),
    );
    expect(guesses.map((guess) => guess.statusCode)).toEqual(botnet.map(() => 401));
    // A client that has failed on the account under attack gets no further guess, right or wrong...
    const again = await botnet[0]?.post('/api/auth/login', { email: account.email, password: account.password });
    expect(again?.statusCode).toBe(429);
    // ...while the owner's own device is only slowed down.
    const started = Date.now();
    const owner = testClient(shop, { remoteAddress: '10.88.1.1' });
    expect((await owner.post('/api/auth/login', { email: account.email, password: account.password })).statusCode).toBe(
      200,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  }, 60_000);

  test('the strict per-client limit answers 429 with Retry-After', async () => {
    const strict = await createTestDatabase();
    await strict.db.insert(settings).values({ key: 'strictRateLimit', value: 3 });
    const { app: shop } = await buildTestApp({ database: strict });
    const browser = testClient(shop, { remoteAddress: '10.200.0.1' });
    for (let i = 0; i < 3; i++) {
      expect((await browser.post('/api/auth/login', { email: 'a@example.com', password: 'x' })).statusCode).toBe(401);
    }
    const limited = await browser.post('/api/password-reset/request', { email: 'a@example.com' });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json().code).toBe('rate_limited');
    // Another client is not affected.
    const other = testClient(shop, { remoteAddress: '10.200.0.2' });
    expect((await other.post('/api/auth/login', { email: 'a@example.com', password: 'x' })).statusCode).toBe(401);
  });

  test('writes without a CSRF token are refused', async () => {
    const response = await client().post('/api/auth/login', { email: 'a@example.com', password: 'x' }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('csrf_invalid');
  });
});

describe('profile and password', () => {
  test('a visitor gets 401 from the secure calls', async () => {
    const browser = client();
    for (const [url, body] of [
      ['/api/auth/profile', { username: 'someone', email: 'a@example.com' }],
      ['/api/auth/change-password', { currentPassword: 'a', newPassword: 'bcdefgh' }],
    ] as const) {
      const response = await browser.put(url, body);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ error: 'Authentication required', code: 'unauthorized' });
    }
  });

  test('updates the username at once, with the same rules and uniqueness as registration', async () => {
    const { browser, account, user } = await registered();
    const { account: other } = await registered();
    const next = newAccount();
    const updated = await browser.put('/api/auth/profile', { username: next.username, email: account.email });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toEqual({
      message: 'Profile updated',
      user: expect.objectContaining({ username: next.username, email: account.email }),
    });
    const heard = await storedEventsAbout<{ user: AdminUser }>(db, user.id, 2);
    expect(heard.map((event) => [event.type, event.data.user.username])).toEqual([
      ['user_registered', account.username],
      ['user_updated', next.username],
    ]);
    expect(
      (await browser.put('/api/auth/profile', { username: other.username, email: account.email })).statusCode,
    ).toBe(409);
    const taken = await browser.put('/api/auth/profile', {
      username: next.username,
      email: other.email,
      currentPassword: account.password,
    });
    expect(taken.statusCode).toBe(409);
    const bad = await browser.put('/api/auth/profile', { username: 'x', email: account.email });
    expect(bad.json()).toMatchObject({ field: 'username', error: 'Username must be at least 3 characters' });
  });

  test('a new email needs the current password and takes effect only when confirmed; the old address is told', async () => {
    const { browser, account, user } = await registered();
    const fresh = newAccount().email;
    const body = { username: account.username, email: fresh };
    const missing = await browser.put('/api/auth/profile', body);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toEqual({
      error: 'Enter your current password to change your email',
      code: 'invalid_input',
      field: 'currentPassword',
    });
    const wrong = await browser.put('/api/auth/profile', { ...body, currentPassword: 'not-it' });
    expect(wrong.json()).toMatchObject({ field: 'currentPassword', error: 'Current password is incorrect' });
    const pending = await browser.put('/api/auth/profile', { ...body, currentPassword: account.password });
    expect(pending.statusCode).toBe(200);
    expect(pending.json()).toEqual({
      message: `Profile updated. We sent a confirmation link to ${fresh}: your email changes when you open it.`,
      user: expect.objectContaining({ email: account.email }),
      pendingEmail: fresh,
    });
    expect((await browser.get('/api/auth/me')).json().user.email).toBe(account.email);
    expect(lastMail(mailbox, account.email, 'email-change-requested').text).toContain(fresh);
    // The outbox keeps no usable link.
    const token = mailedToken(mailbox, fresh, 'email-change-confirmation');
    const stored = await db.select().from(emailOutbox).where(eq(emailOutbox.to, fresh));
    expect(stored.map((row) => row.text).join()).not.toContain(token);
    // Opening the link switches the address; the old one is told and no longer signs in.
    const confirmed = await client().post('/api/auth/verify-email', { token });
    expect(confirmed.json()).toEqual({ message: `Your email address is now ${fresh}` });
    // Only the confirmed change is news to the back office, not the pending one.
    const heard = await storedEventsAbout<{ user: AdminUser }>(db, user.id, 2);
    expect(heard.map((event) => [event.type, event.data.user.email])).toEqual([
      ['user_registered', account.email],
      ['user_updated', fresh],
    ]);
    expect((await browser.get('/api/auth/me')).json().user.email).toBe(fresh);
    expect(lastMail(mailbox, account.email, 'email-changed').text).toContain(fresh);
    expect((await client().post('/api/auth/login', { email: fresh, password: account.password })).statusCode).toBe(200);
    expect(
      (await client().post('/api/auth/login', { email: account.email, password: account.password })).statusCode,
    ).toBe(401);
    expect((await client().post('/api/auth/verify-email', { token })).statusCode).toBe(400);
  });

  test('twenty parallel wrong current passwords: only the free five are evaluated', async () => {
    const { browser } = await registered();
    // The signed-in browser's cookies and one CSRF token, so that all twenty arrive together.
    const { cookie, 'x-csrf-token': token } = await csrfHeaders(app);
    const headers = { 'x-csrf-token': token, cookie: `${cookie}; sw_session=${browser.cookie('sw_session')}` };
    const started = Date.now();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        app.inject({
          method: 'PUT',
          url: '/api/auth/change-password',
          headers,
          payload: { currentPassword: `wrong-${i}`, newPassword: 'New-Calm-7' },
        }),
      ),
    );
    const evaluated = answers.filter((answer) => answer.statusCode === 400).length;
    expect(evaluated + answers.filter((answer) => answer.statusCode === 429).length).toBe(20);
    // The free five, and one more per backoff step that a slow machine lets run out (see sign-in).
    const seconds = (Date.now() - started) / 1000;
    expect(evaluated).toBeGreaterThanOrEqual(FREE_FAILURES);
    expect(evaluated).toBeLessThanOrEqual(FREE_FAILURES + Math.floor(Math.log2(seconds + 1)));
  });

  test('changing the password needs the current one and signs out the other sessions', async () => {
    const { account, browser } = await registered();
    const laptop = client();
    expect(
      (await laptop.post('/api/auth/login', { email: account.email, password: account.password })).statusCode,
    ).toBe(200);
    const wrong = await browser.put('/api/auth/change-password', {
      currentPassword: 'nope',
      newPassword: 'New-Calm-7',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ field: 'currentPassword', error: 'Current password is incorrect' });
    const short = await browser.put('/api/auth/change-password', {
      currentPassword: account.password,
      newPassword: 'abc',
    });
    expect(short.json().error).toBe('New password must be at least 6 characters long');
    const changed = await browser.put('/api/auth/change-password', {
      currentPassword: account.password,
      newPassword: 'New-Calm-7',
    });
    expect(changed.statusCode).toBe(200);
    expect((await browser.get('/api/auth/me')).json().authenticated).toBe(true);
    expect((await laptop.get('/api/auth/me')).json()).toEqual({ authenticated: false });
    expect((await client().post('/api/auth/login', { email: account.email, password: 'New-Calm-7' })).statusCode).toBe(
      200,
    );
  });
});

describe('password reset', () => {
  test('the request answers the same whether or not the email has an account', async () => {
    const { account } = await registered();
    const known = await client().post('/api/password-reset/request', { email: account.email });
    const unknown = await client().post('/api/password-reset/request', { email: `nobody.${unique()}@example.com` });
    expect(known.statusCode).toBe(200);
    expect(unknown.json()).toEqual(known.json());
    const invalid = await client().post('/api/password-reset/request', { email: '' });
    expect(invalid.json()).toMatchObject({ field: 'email', error: 'Email is required' });
  });

  test('the mailed link verifies, resets once, and ends every session', async () => {
    const { account, browser } = await registered();
    const token = await requestedResetToken(account.email);
    const stored = await db.select().from(accountTokens).where(like(accountTokens.tokenHash, '%'));
    expect(stored.some((row) => row.tokenHash === token)).toBe(false);
    expect((await client().get(`/api/password-reset/verify/${token}`)).json()).toEqual({ email: account.email });
    const short = await client().post('/api/password-reset/reset', { token, password: 'short' });
    expect(short.json()).toMatchObject({ field: 'password', error: 'Password must be at least 8 characters long' });
    const reset = await client().post('/api/password-reset/reset', { token, password: 'Fresh-Start-2026' });
    expect(reset.statusCode).toBe(200);
    expect((await browser.get('/api/auth/me')).json()).toEqual({ authenticated: false });
    expect(
      (await client().post('/api/auth/login', { email: account.email, password: 'Fresh-Start-2026' })).statusCode,
    ).toBe(200);
    // Used once: a second use and a second verification fail.
    const again = await client().post('/api/password-reset/reset', { token, password: 'Another-Start-1' });
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ error: 'Invalid or expired reset link', field: 'token' });
    expect((await client().get(`/api/password-reset/verify/${token}`)).statusCode).toBe(400);
  });

  test('a newer request supersedes the older link', async () => {
    const { account } = await registered();
    const first = await requestedResetToken(account.email);
    const second = await requestedResetToken(account.email);
    expect(second).not.toBe(first);
    expect((await client().get(`/api/password-reset/verify/${first}`)).statusCode).toBe(400);
    expect((await client().get(`/api/password-reset/verify/${second}`)).statusCode).toBe(200);
  });

  test('an expired link is refused', async () => {
    const { account, user } = await registered();
    const token = await requestedResetToken(account.email);
    await db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.userId, user.id));
    expect((await client().get(`/api/password-reset/verify/${token}`)).statusCode).toBe(400);
    expect((await client().post('/api/password-reset/reset', { token, password: 'Fresh-Start-2026' })).statusCode).toBe(
      400,
    );
  });

  test('fifty parallel requests for one account send at most a few emails', async () => {
    const { account } = await registered();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        testClient(app, { remoteAddress: `10.66.0.${i + 1}` }).post('/api/password-reset/request', {
          email: account.email,
        }),
      ),
    );
    expect(answers.every((answer) => answer.statusCode === 200)).toBe(true);
    await jobsDone();
    const sent = mailbox.filter((mail) => mail.to === account.email && mail.template === 'password-reset');
    expect(sent).toHaveLength(RESET_MAILS_PER_HOUR);
  });

  test('the request only hands the work to a job: a known email answers without touching the account', async () => {
    const held: { name: string; data: unknown }[] = [];
    const jobs = createJobs();
    jobs.attachQueue({
      boss: { send: async (name: string, data: unknown) => held.push({ name, data }) },
    } as unknown as JobQueue);
    const { app: shop, mailbox: inbox, database: heldDb } = await buildTestApp({ jobs });
    const account = newAccount();
    expect((await testClient(shop).post('/api/auth/register', account)).statusCode).toBe(201);
    const response = await testClient(shop).post('/api/password-reset/request', { email: account.email });
    expect(response.statusCode).toBe(200);
    // Nothing looked the account up yet: no token, no mail, only the job waiting in the queue
    // (with the request's id, for its log lines).
    expect(held).toEqual([
      { name: 'accounts.password-reset-mail', data: { email: account.email, $reqId: expect.any(String) } },
    ]);
    expect(inbox).toEqual([]);
    expect(await heldDb.db.select().from(accountTokens)).toEqual([]);
  });

  test('a made-up token is refused', async () => {
    expect((await client().get('/api/password-reset/verify/made-up')).json()).toEqual({
      error: 'Invalid or expired reset link',
      code: 'invalid_token',
      field: 'token',
    });
  });
});

describe('the spec’s storage sign-in', () => {
  test('a Firebase custom token is not issued: 410 naming the replacement, with or without a session', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/firebase/custom-token',
      remoteAddress: '10.90.0.1',
    });
    expect(response.statusCode).toBe(410);
    expect(response.json()).toMatchObject({
      code: 'firebase_replaced',
      error: expect.stringContaining('S3-compatible'),
    });
  });
});
