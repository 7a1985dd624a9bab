import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { emailOutbox } from '#server/adapters/email/outbox.tables.ts';
import type { Database } from '#server/db/client.ts';
import { settings } from '#server/features/settings/settings.tables.ts';
import { mailedToken } from '#server/testing/mail.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { accountTokens, sessions, users } from './accounts.tables.ts';

// Registration stores the account and what it needs (its session, or its confirmation link) in
// one transaction (issue 16): a database failure after the account's insert leaves nothing behind.

let counter = 0;
const newAccount = () => {
  const id = `${Date.now().toString(36)}${(++counter).toString(36)}`;
  return { username: `still_${id}`, email: `still.${id}@example.com`, password: 'Quiet-Water-42' };
};

/** A shop of the test's own (the injected failures touch its tables); verification as given. */
async function shop({ requireEmailVerification = false } = {}) {
  const database = await createTestDatabase();
  await database.db.insert(settings).values({ key: 'strictRateLimit', value: 100 });
  if (requireEmailVerification)
    await database.db.insert(settings).values({ key: 'requireEmailVerification', value: true });
  return buildTestApp({ database });
}

/**
 * Every insert into `table` fails as a lost connection does (SQLSTATE 08006), from inside the
 * database, so the failure comes after the account's insert in the same transaction. Returns the cure.
 */
async function cutOnInsert({ db }: Database, table: 'sessions' | 'account_tokens' | 'email_outbox') {
  await db.execute(
    sql.raw(`CREATE FUNCTION cut_${table}() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN RAISE EXCEPTION 'connection cut (injected)' USING ERRCODE = '08006'; END $$`),
  );
  await db.execute(
    sql.raw(`CREATE TRIGGER cut_${table} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION cut_${table}()`),
  );
  return () => db.execute(sql.raw(`DROP TRIGGER cut_${table} ON ${table}`));
}

async function nothingStoredFor({ db }: Database, email: string) {
  const stored = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  expect(stored).toEqual([]);
}

describe('a registration the database fails part-way through', () => {
  test('the session write fails: a 503, no account, no session, and trying again registers', async () => {
    const { app, database } = await shop();
    const sessionsBefore = await database.db.$count(sessions);
    const cure = await cutOnInsert(database, 'sessions');
    const account = newAccount();
    const browser = testClient(app);

    const failed = await browser.post('/api/auth/register', account);
    expect(failed.statusCode).toBe(503);
    expect(failed.headers['retry-after']).toBeDefined();
    expect(failed.json()).toMatchObject({ code: 'database_unavailable' });
    expect(browser.cookie('sw_session')).toBeUndefined();
    await nothingStoredFor(database, account.email);
    expect(await database.db.$count(sessions)).toBe(sessionsBefore);

    await cure();
    const retried = await browser.post('/api/auth/register', account);
    expect(retried.statusCode).toBe(201);
    expect((await browser.get('/api/auth/me')).json()).toMatchObject({
      authenticated: true,
      user: { email: account.email },
    });
  });

  test('the confirmation link fails to be stored: a 503, no account, and trying again mails a link that works', async () => {
    const { app, database, mailbox } = await shop({ requireEmailVerification: true });
    const cure = await cutOnInsert(database, 'account_tokens');
    const account = newAccount();
    const browser = testClient(app);

    const failed = await browser.post('/api/auth/register', account);
    expect(failed.statusCode).toBe(503);
    await nothingStoredFor(database, account.email);
    expect(await database.db.$count(accountTokens)).toBe(0);
    // The link was mailed first; it finds no account.
    const deadLink = mailedToken(mailbox, account.email, 'email-verification');
    expect((await browser.post('/api/auth/verify-email', { token: deadLink })).statusCode).toBe(400);

    await cure();
    const retried = await browser.post('/api/auth/register', account);
    expect(retried.statusCode).toBe(201);
    expect(retried.json()).toMatchObject({ verificationRequired: true });
    const link = mailedToken(mailbox, account.email, 'email-verification');
    expect(link).not.toBe(deadLink);
    expect((await browser.post('/api/auth/verify-email', { token: link })).statusCode).toBe(200);
    const signIn = await browser.post('/api/auth/login', { email: account.email, password: account.password });
    expect(signIn.statusCode).toBe(200);
  });

  test('the confirmation mail fails to be kept: a 503 and nothing stored, so no account is left without its link', async () => {
    const { app, database } = await shop({ requireEmailVerification: true });
    const cure = await cutOnInsert(database, 'email_outbox');
    const account = newAccount();

    const failed = await testClient(app).post('/api/auth/register', account);
    expect(failed.statusCode).toBe(503);
    await nothingStoredFor(database, account.email);
    expect(await database.db.$count(accountTokens)).toBe(0);

    await cure();
    expect((await testClient(app).post('/api/auth/register', account)).statusCode).toBe(201);
    expect(await database.db.$count(emailOutbox, eq(emailOutbox.to, account.email))).toBe(1);
  });
});

describe('two registrations of one email at once', () => {
  test('one account with one session; the other a clean 409 that leaves nothing', async () => {
    const { app, database } = await shop();
    const account = newAccount();
    const sessionsBefore = await database.db.$count(sessions);
    // Both pass the check for a taken email before either stores: the unique index decides.
    const answers = await Promise.all(
      [account, { ...account, username: `${account.username}_2` }].map((body) =>
        testClient(app).post('/api/auth/register', body),
      ),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const conflict = answers.find((answer) => answer.statusCode === 409);
    expect(conflict?.json()).toEqual({ error: 'An account with this email already exists', code: 'email_taken' });
    expect(conflict?.cookies.find((cookie) => cookie.name === 'sw_session')).toBeUndefined();
    const stored = await database.db.select().from(users).where(eq(users.email, account.email));
    expect(stored).toHaveLength(1);
    expect(await database.db.$count(sessions)).toBe(sessionsBefore + 1);
  });
});

describe('a signed-in browser that registers another account', () => {
  test('its previous session ends with the new one starting', async () => {
    const { app, database } = await shop();
    const browser = testClient(app);
    const first = newAccount();
    expect((await browser.post('/api/auth/register', first)).statusCode).toBe(201);
    const previous = browser.cookie('sw_session');
    const second = newAccount();
    expect((await browser.post('/api/auth/register', second)).statusCode).toBe(201);
    expect(browser.cookie('sw_session')).not.toBe(previous);
    expect((await browser.get('/api/auth/me')).json()).toMatchObject({ user: { email: second.email } });
    const [firstUser] = await database.db.select().from(users).where(eq(users.email, first.email));
    expect(await database.db.$count(sessions, eq(sessions.userId, firstUser?.id ?? ''))).toBe(0);
  });
});
