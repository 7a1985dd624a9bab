import { eq, sql } from 'drizzle-orm';
import { describe, expect, test, vi } from 'vitest';
import { newsletterMessages } from '#common/contracts/newsletter.ts';
import { emailOutbox } from '#server/adapters/email/outbox.tables.ts';
import { liveEvents } from '#server/features/events/events.tables.ts';
import { mailedToken } from '#server/testing/mail.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { newsletterSubscribers } from './newsletter.tables.ts';

/** The newsletter's public routes through the whole app: sign-up, double opt-in, unsubscribe. */
const { app, database, mailbox, jobsDone } = await buildTestApp();
const { db } = database;
let counter = 0;
const nextAddress = () => `10.81.${Math.floor(++counter / 200)}.${counter % 200}`;
/** A visitor from an address of its own (the sign-up's strict limit counts per address). */
const visitor = () => testClient(app, { remoteAddress: nextAddress() });
const unique = (name: string) => `${name}.${Date.now().toString(36)}${++counter}@example.com`;

const owner = await signedInAs(app, db, 'owner');
async function save(changes: Record<string, unknown>) {
  const response = await owner.browser.post('/api/admin/settings', changes);
  expect(response.statusCode).toBe(200);
}

async function subscriberOf(email: string) {
  const [row] = await db
    .select()
    .from(newsletterSubscribers)
    .where(eq(sql`lower(${newsletterSubscribers.email})`, email.toLowerCase()));
  return row;
}

/** The live events about a subscriber (stored a moment after they are published). */
async function eventsAbout(id: string) {
  const rows = await db.select().from(liveEvents).where(sql`${liveEvents.data}->>'id' = ${id}`);
  return rows.map((row) => row.type);
}

async function subscribe(email: unknown, browser = visitor()) {
  return browser.post('/api/newsletter/subscribe', { email });
}

describe('sign-up without email verification', () => {
  test('subscribes at once (active, from the footer), with a live event; a repeat answers alike', async () => {
    await save({ requireEmailVerification: false, enableNewsletter: true });
    const email = unique('Ada');
    const first = await subscribe(`  ${email} `);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: newsletterMessages.subscribed, confirmationRequired: false });
    const row = await subscriberOf(email);
    expect(row).toMatchObject({ email, isActive: true, source: 'footer', confirmationTokenHash: null });
    expect(row?.unsubscribeToken).toMatch(/^[0-9a-f]{32}$/);
    await vi.waitFor(async () => expect(await eventsAbout(row?.id ?? '')).toEqual(['newsletter_subscription']));
    // The same address again, in other case: the same answer, still one row.
    const again = await subscribe(email.toUpperCase());
    expect(again.json()).toEqual(first.json());
    const rows = await db
      .select()
      .from(newsletterSubscribers)
      .where(eq(sql`lower(${newsletterSubscribers.email})`, email.toLowerCase()));
    expect(rows).toHaveLength(1);
  });

  test('an address that unsubscribed is subscribed again by a new sign-up', async () => {
    const email = unique('back');
    await subscribe(email);
    const row = await subscriberOf(email);
    expect((await oneClick(String(row?.unsubscribeToken))).statusCode).toBe(200);
    expect((await subscriberOf(email))?.isActive).toBe(false);
    await subscribe(email);
    expect((await subscriberOf(email))?.isActive).toBe(true);
  });

  test('parallel sign-ups of one address make one subscriber', async () => {
    const email = unique('twice');
    const answers = await Promise.all(Array.from({ length: 5 }, () => subscribe(email)));
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200]);
    const rows = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.email, email));
    expect(rows).toHaveLength(1);
  });

  test.each([
    ['not an address', 'not-an-email', 400, 'email'],
    ['empty', '', 400, 'email'],
    ['without a domain', 'a@b', 400, 'email'],
    ['a NUL byte', 'nul\u0000@example.com', 400, 'email'],
    ['a number', 42, 400, 'email'],
    ['too long', `${'x'.repeat(320)}@example.com`, 400, 'email'],
    ['missing', undefined, 400, 'email'],
  ])('a bad email (%s) is refused with 400 naming the field', async (_name, email, status, field) => {
    const response = await subscribe(email);
    expect(response.statusCode).toBe(status);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field });
  });

  test('without a CSRF token, the sign-up is refused', async () => {
    const response = await visitor().post('/api/newsletter/subscribe', { email: unique('csrf') }, { csrf: false });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('csrf_invalid');
  });

  test('the strict rate limit stops a flood of sign-ups from one address', async () => {
    const browser = visitor();
    const codes: number[] = [];
    for (let i = 0; i < 11; i++) codes.push((await subscribe(unique('flood'), browser)).statusCode);
    expect(codes.slice(0, 10).every((code) => code === 200)).toBe(true);
    expect(codes[10]).toBe(429);
  });
});

describe('double opt-in (requireEmailVerification on)', () => {
  test('the address waits for its owner: one-use link, one answer whatever the address, no spam', async () => {
    await save({ requireEmailVerification: true, enableNewsletter: true });
    const email = unique('grace');
    const first = await subscribe(email);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: newsletterMessages.confirmationSent, confirmationRequired: true });
    await jobsDone();
    const waiting = await subscriberOf(email);
    expect(waiting).toMatchObject({ isActive: false, source: 'footer' });
    expect(waiting?.confirmationTokenHash).toMatch(/^[0-9a-f]{64}$/);
    const token = mailedToken(mailbox, email, 'newsletter-confirmation');
    expect(mailbox.filter((mail) => mail.to === email)).toHaveLength(1);
    // The stored copy does not hold the link's token.
    const copies = await db.select().from(emailOutbox).where(eq(emailOutbox.to, email));
    expect(copies.map((copy) => copy.text).join()).not.toContain(token);

    // Signed up again at once: the same answer, and no second mail.
    expect((await subscribe(email)).json()).toEqual(first.json());
    await jobsDone();
    expect(mailbox.filter((mail) => mail.to === email)).toHaveLength(1);

    const confirmed = await visitor().post('/api/newsletter/confirm', { token });
    expect(confirmed.statusCode).toBe(200);
    expect(confirmed.json().message).toBe(newsletterMessages.confirmed);
    const active = await subscriberOf(email);
    expect(active).toMatchObject({ isActive: true, confirmationTokenHash: null });
    expect(active?.confirmedAt).not.toBeNull();
    await vi.waitFor(async () => expect(await eventsAbout(active?.id ?? '')).toContain('newsletter_subscription'));

    // The link works once.
    const reused = await visitor().post('/api/newsletter/confirm', { token });
    expect(reused.statusCode).toBe(400);
    expect(reused.json()).toMatchObject({ code: 'invalid_token', error: newsletterMessages.confirmationInvalid });

    // An active subscriber signing up again: the same answer, no mail.
    expect((await subscribe(email)).json()).toEqual(first.json());
    await jobsDone();
    expect(mailbox.filter((mail) => mail.to === email)).toHaveLength(1);
  });

  test('a new link is mailed on a repeat only after 10 minutes, and the old one stops working', async () => {
    const email = unique('later');
    await subscribe(email);
    await jobsDone();
    const oldToken = mailedToken(mailbox, email, 'newsletter-confirmation');
    await db
      .update(newsletterSubscribers)
      .set({ confirmationSentAt: new Date(Date.now() - 11 * 60 * 1000) })
      .where(eq(newsletterSubscribers.email, email));
    await subscribe(email);
    await jobsDone();
    expect(mailbox.filter((mail) => mail.to === email)).toHaveLength(2);
    const newToken = mailedToken(mailbox, email, 'newsletter-confirmation');
    expect(newToken).not.toBe(oldToken);
    expect((await visitor().post('/api/newsletter/confirm', { token: oldToken })).statusCode).toBe(400);
    expect((await visitor().post('/api/newsletter/confirm', { token: newToken })).statusCode).toBe(200);
  });

  test('a link older than 7 days has expired', async () => {
    const email = unique('expired');
    await subscribe(email);
    await jobsDone();
    const token = mailedToken(mailbox, email, 'newsletter-confirmation');
    await db
      .update(newsletterSubscribers)
      .set({ confirmationSentAt: new Date(Date.now() - 8 * 24 * 60 * 60 * 1000) })
      .where(eq(newsletterSubscribers.email, email));
    const response = await visitor().post('/api/newsletter/confirm', { token });
    expect(response.statusCode).toBe(400);
    expect((await subscriberOf(email))?.isActive).toBe(false);
  });

  test.each([
    ['too short', { token: 'abc' }],
    ['odd characters', { token: 'a'.repeat(20).concat('!') }],
    ['a NUL byte', { token: `${'a'.repeat(20)}\u0000` }],
    ['a number', { token: 1234567890123456 }],
    ['missing', {}],
  ])('a bad confirmation token (%s) is a 400', async (_name, body) => {
    const response = await visitor().post('/api/newsletter/confirm', body);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_input');
  });

  test('without a CSRF token, a confirmation is refused', async () => {
    const response = await visitor().post('/api/newsletter/confirm', { token: 'a'.repeat(43) }, { csrf: false });
    expect(response.statusCode).toBe(403);
  });
});

describe('enableNewsletter off', () => {
  test('sign-up and confirmation are refused with newsletter_disabled; unsubscribing still works', async () => {
    await save({ requireEmailVerification: false, enableNewsletter: true });
    const email = unique('leaving');
    await subscribe(email);
    const row = await subscriberOf(email);
    await save({ enableNewsletter: false });
    try {
      const refused = await subscribe(unique('late'));
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ error: newsletterMessages.disabled, code: 'newsletter_disabled' });
      const confirm = await visitor().post('/api/newsletter/confirm', { token: 'a'.repeat(43) });
      expect(confirm.json().code).toBe('newsletter_disabled');
      const left = await oneClick(String(row?.unsubscribeToken));
      expect(left.statusCode).toBe(200);
      expect((await subscriberOf(email))?.isActive).toBe(false);
    } finally {
      await save({ enableNewsletter: true });
    }
  });
});

/** The one-click POST of RFC 8058 (form-encoded, as mail clients send it, or JSON, as the page does). */
function oneClick(token: string, as: 'form' | 'json' = 'form') {
  return app.inject({
    method: 'POST',
    url: `/api/newsletter/unsubscribe?token=${token}`,
    headers: { 'content-type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' },
    payload: as === 'form' ? 'List-Unsubscribe=One-Click' : JSON.stringify({ 'List-Unsubscribe': 'One-Click' }),
    remoteAddress: nextAddress(),
  });
}

describe('unsubscribe by token, without signing in', () => {
  async function subscribed() {
    await save({ requireEmailVerification: false, enableNewsletter: true });
    const email = unique('reader');
    await subscribe(email);
    const row = await subscriberOf(email);
    if (!row) throw new Error('not subscribed');
    return row;
  }

  test('GET (a scanner, or a browser from the mail) changes nothing: 303 to the page', async () => {
    const row = await subscribed();
    const response = await app.inject({
      method: 'GET',
      url: `/api/newsletter/unsubscribe?token=${row.unsubscribeToken}`,
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/newsletter/unsubscribe?token=${row.unsubscribeToken}`);
    expect(response.headers['cache-control']).toBe('no-store');
    expect((await subscriberOf(row.email))?.isActive).toBe(true);
  });

  test('POST one-click as the page sends it (JSON): unsubscribes, answers alike the second time, is published', async () => {
    const row = await subscribed();
    const first = await oneClick(row.unsubscribeToken, 'json');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ message: newsletterMessages.unsubscribed });
    expect(first.headers['cache-control']).toBe('no-store');
    expect((await subscriberOf(row.email))?.isActive).toBe(false);
    const second = await oneClick(row.unsubscribeToken, 'json');
    expect(second.json()).toEqual(first.json());
    await vi.waitFor(async () => expect(await eventsAbout(row.id)).toContain('newsletter_unsubscribed'));
    expect((await eventsAbout(row.id)).filter((type) => type === 'newsletter_unsubscribed')).toHaveLength(1);
  });

  test('unsubscribing withdraws the consent: signed up again, the address waits for its owner, not for an admin', async () => {
    const row = await subscribed();
    expect(row.confirmedAt).toBeInstanceOf(Date);
    expect((await oneClick(row.unsubscribeToken)).statusCode).toBe(200);
    expect((await subscriberOf(row.email))?.confirmedAt).toBeNull();
    await save({ requireEmailVerification: true });
    try {
      // Someone else types the address into the footer: it waits for its confirmation link.
      expect((await subscribe(row.email)).statusCode).toBe(200);
      expect(await subscriberOf(row.email)).toMatchObject({ isActive: false, confirmedAt: null });
      const activated = await owner.browser.patch(`/api/admin/newsletter/${row.id}`, { isActive: true });
      expect(activated.statusCode).toBe(409);
      expect(activated.json().code).toBe('not_confirmed');
    } finally {
      await save({ requireEmailVerification: false });
    }
  });

  test('POST one-click (RFC 8058): a form body, no cookie, no CSRF token', async () => {
    const row = await subscribed();
    const response = await app.inject({
      method: 'POST',
      url: `/api/newsletter/unsubscribe?token=${row.unsubscribeToken}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode).toBe(200);
    expect((await subscriberOf(row.email))?.isActive).toBe(false);
  });

  test('POST one-click as multipart/form-data, which RFC 8058 also allows', async () => {
    const row = await subscribed();
    const boundary = 'xYzBoundary';
    const response = await app.inject({
      method: 'POST',
      url: `/api/newsletter/unsubscribe?token=${row.unsubscribeToken}`,
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--${boundary}--\r\n`,
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode).toBe(200);
    expect((await subscriberOf(row.email))?.isActive).toBe(false);
  });

  test.each([
    ['no body', undefined, undefined],
    ['another value', 'application/x-www-form-urlencoded', 'List-Unsubscribe=Yes'],
    ['a NUL byte', 'application/x-www-form-urlencoded', 'List-Unsubscribe=One-Click%00'],
  ])('POST without the one-click body (%s) is a 400 and changes nothing', async (_name, type, payload) => {
    const row = await subscribed();
    const response = await app.inject({
      method: 'POST',
      url: `/api/newsletter/unsubscribe?token=${row.unsubscribeToken}`,
      ...(type ? { headers: { 'content-type': type } } : {}),
      ...(payload ? { payload } : {}),
      remoteAddress: nextAddress(),
    });
    expect(response.statusCode).toBe(400);
    expect((await subscriberOf(row.email))?.isActive).toBe(true);
  });

  test('an unknown token is a 404; a malformed one a 400', async () => {
    const unknown = await oneClick('f'.repeat(32));
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'invalid_token', error: newsletterMessages.unsubscribeInvalid });
    for (const token of ['short', `${'a'.repeat(20)}%00`, `${'a'.repeat(20)}%FF`, `${'a'.repeat(20)}'--`]) {
      expect((await visitor().get(`/api/newsletter/unsubscribe?token=${token}`)).statusCode, token).toBe(400);
      expect((await oneClick(token)).statusCode, token).toBe(400);
    }
    expect((await visitor().get('/api/newsletter/unsubscribe')).statusCode).toBe(400);
  });
});
