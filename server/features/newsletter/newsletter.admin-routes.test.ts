import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, test, vi } from 'vitest';
import { SEND_FIELDS_REQUIRED } from '#common/newsletter-rules.ts';
import { emailOutbox } from '#server/adapters/email/outbox.tables.ts';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { liveEvents } from '#server/features/events/events.tables.ts';
import { parseCsv } from '#server/features/orders/csv.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { newsletterDeliveries, newsletterIssues, newsletterSubscribers } from './newsletter.tables.ts';

/** The newsletter tab's API through the whole app, on a shop holding only the test's own subscribers. */
const { app, database, mailbox, jobsDone } = await buildTestApp({ database: await createMigratedTestDatabase() });
const { db } = database;

let address = 0;
/** A signed-in browser's calls, each from its own address (the tests make more than the admin limit allows). */
async function clientFor(userId: string) {
  const cookie = `sw_session=${await createSessionStore({ db }).create(userId)}`;
  const csrf = await app.inject({ method: 'GET', url: '/api/auth/csrf-token', headers: { cookie } });
  const csrfCookie = csrf.cookies.find((c) => c.name === 'sw_csrf')?.value ?? '';
  const token = csrf.json().token as string;
  return (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, { withCsrf = true } = {}) =>
    app.inject({
      method,
      url,
      headers: {
        cookie: `${cookie}; sw_csrf=${csrfCookie}`,
        ...(withCsrf && method !== 'GET' ? { 'x-csrf-token': token } : {}),
      },
      remoteAddress: `10.82.${++address >> 8}.${address & 255}`,
      ...(payload === undefined ? {} : { payload: payload as object }),
    });
}

const admin = await signedInAs(app, db, 'admin', { manageNewsletters: true });
const call = await clientFor(admin.id);
const owner = await signedInAs(app, db, 'owner');
const ownerCall = await clientFor(owner.id);
async function save(changes: Record<string, unknown>) {
  expect((await ownerCall('POST', '/api/admin/settings', changes)).statusCode).toBe(200);
}

const base = Date.UTC(2026, 2, 1, 9);
const known = [
  { email: 'ada@example.com', isActive: true, hoursAgo: 10 },
  { email: 'Grace@Example.org', isActive: true, hoursAgo: 9 },
  { email: '100%_cotton@example.com', isActive: false, hoursAgo: 8 },
  { email: '=HYPERLINK("x")@example.com', isActive: true, hoursAgo: 7 },
  { email: 'waiting@example.com', isActive: false, pending: true, hoursAgo: 6 },
  { email: 'alan@example.com', isActive: true, hoursAgo: 5 },
  ...Array.from({ length: 9 }, (_, i) => ({ email: `reader${i}@example.net`, isActive: true, hoursAgo: 4 - i * 0.1 })),
];
const ids = new Map<string, string>();
for (const [i, subscriber] of known.entries()) {
  const [row] = await db
    .insert(newsletterSubscribers)
    .values({
      email: subscriber.email,
      isActive: subscriber.isActive,
      source: i % 2 ? 'checkout' : 'footer',
      unsubscribeToken: `admintest${i}z`.padEnd(32, '0'),
      confirmationTokenHash: 'pending' in subscriber ? 'f'.repeat(64) : null,
      confirmationSentAt: 'pending' in subscriber ? new Date() : null,
      createdAt: new Date(base - subscriber.hoursAgo * 3_600_000),
    })
    .returning();
  ids.set(subscriber.email, row?.id ?? '');
}
const idOf = (email: string) => ids.get(email) ?? '';

async function list(query = '') {
  const response = await call('GET', `/api/admin/newsletter${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    subscribers: { _id: string; email: string; isActive: boolean; status: string; lastEmailSent: string | null }[];
    pagination: { page: number; pages: number; total: number; limit: number };
  };
}

describe('GET /api/admin/newsletter', () => {
  test('newest first, 10 a page, with the spec fields and pagination', async () => {
    const first = await list();
    expect(first.pagination).toEqual({ page: 1, pages: 2, total: 15, limit: 10 });
    expect(first.subscribers).toHaveLength(10);
    expect(first.subscribers[0]).toEqual({
      _id: idOf('reader8@example.net'),
      email: 'reader8@example.net',
      isActive: true,
      status: 'active',
      source: 'footer',
      createdAt: expect.any(String),
      lastEmailSent: null,
    });
    const second = await list('?page=2');
    expect(second.subscribers.map((s) => s.email)).toEqual([
      'waiting@example.com',
      '=HYPERLINK("x")@example.com',
      '100%_cotton@example.com',
      'Grace@Example.org',
      'ada@example.com',
    ]);
    expect(first.subscribers[9]?.email).toBe('alan@example.com');
  });

  test('sorts by email either way, case aside; by date ascending', async () => {
    const asc = await list('?sortBy=email&sortOrder=asc&limit=100');
    const emails = asc.subscribers.map((s) => s.email);
    expect(emails).toEqual([...emails].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1)));
    const desc = await list('?sortBy=email&limit=100');
    expect(desc.subscribers.map((s) => s.email)).toEqual([...emails].reverse());
    const oldest = await list('?sortBy=createdAt&sortOrder=asc&limit=1');
    expect(oldest.subscribers[0]?.email).toBe('ada@example.com');
  });

  test('search is literal and case-insensitive; the status filter has active, inactive and pending', async () => {
    expect((await list('?search=GRACE')).subscribers.map((s) => s.email)).toEqual(['Grace@Example.org']);
    expect((await list('?search=100%25_')).subscribers.map((s) => s.email)).toEqual(['100%_cotton@example.com']);
    expect((await list('?search=%25')).subscribers.map((s) => s.email)).toEqual(['100%_cotton@example.com']);
    expect((await list('?search=_')).subscribers.map((s) => s.email)).toEqual(['100%_cotton@example.com']);
    expect((await list('?search=0%25x')).subscribers).toEqual([]);
    expect((await list('?statusFilter=inactive')).subscribers.map((s) => s.email)).toEqual(['100%_cotton@example.com']);
    expect((await list('?statusFilter=pending')).subscribers.map((s) => s.status)).toEqual(['pending']);
    expect((await list('?statusFilter=active')).pagination.total).toBe(13);
    expect((await list('?statusFilter=active&search=example.com')).pagination.total).toBe(3);
  });

  test.each([
    '?sortBy=password',
    '?sortOrder=up',
    '?statusFilter=gone',
    '?page=0',
    '?page=abc',
    '?limit=101',
    `?search=${'x'.repeat(101)}`,
    '?search=a%00b',
    '?search=%FF',
  ])('a bad query (%s) is a 400', async (query) => {
    const response = await call('GET', `/api/admin/newsletter${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('invalid_input');
  });
});

describe('activate, deactivate, delete', () => {
  test('deactivate then activate: audited, published, idempotent', async () => {
    const id = idOf('alan@example.com');
    const off = await call('PATCH', `/api/admin/newsletter/${id}`, { isActive: false });
    expect(off.statusCode).toBe(200);
    expect(off.json()).toMatchObject({
      message: 'Subscriber deactivated',
      subscriber: { _id: id, isActive: false, status: 'inactive' },
    });
    const again = await call('PATCH', `/api/admin/newsletter/${id}`, { isActive: false });
    expect(again.json().subscriber.isActive).toBe(false);
    const on = await call('PATCH', `/api/admin/newsletter/${id}`, { isActive: true });
    expect(on.json()).toMatchObject({ message: 'Subscriber activated', subscriber: { isActive: true } });
    const audits = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entityType, 'newsletter_subscriber'), eq(auditLog.entityId, id)));
    expect(audits.map((row) => row.action)).toEqual([
      'newsletter.subscriber_deactivated',
      'newsletter.subscriber_activated',
    ]);
    expect(audits[0]).toMatchObject({ actorUserId: admin.id, details: { email: 'alan@example.com' } });
    await vi.waitFor(async () => {
      const events = await db.select().from(liveEvents).where(sql`${liveEvents.data}->>'id' = ${id}`);
      expect(events.map((event) => [event.type, event.collection])).toEqual([
        ['newsletter_updated', 'newslettersubscribers'],
        ['newsletter_updated', 'newslettersubscribers'],
      ]);
    });
  });

  test('an unconfirmed address cannot be activated by hand while verification is required', async () => {
    await save({ requireEmailVerification: true });
    try {
      const response = await call('PATCH', `/api/admin/newsletter/${idOf('waiting@example.com')}`, { isActive: true });
      expect(response.statusCode).toBe(409);
      expect(response.json().code).toBe('not_confirmed');
    } finally {
      await save({ requireEmailVerification: false });
    }
  });

  test.each([
    ['a bad id', '/api/admin/newsletter/not-an-id', { isActive: true }, 400],
    ['an id with a NUL byte', '/api/admin/newsletter/abcdef0123456789%00', { isActive: true }, 400],
    ['an unknown id', '/api/admin/newsletter/0123456789abcdef', { isActive: true }, 404],
    ['a string flag', `/api/admin/newsletter/${'a'.repeat(16)}`, { isActive: 'yes' }, 400],
    ['no body', `/api/admin/newsletter/${'a'.repeat(16)}`, undefined, 400],
  ])('PATCH with %s is refused', async (_name, url, body, status) => {
    const response = await call('PATCH', url, body);
    expect(response.statusCode).toBe(status);
  });

  test('writes need the CSRF token', async () => {
    const id = idOf('ada@example.com');
    const patch = await call('PATCH', `/api/admin/newsletter/${id}`, { isActive: false }, { withCsrf: false });
    expect(patch.statusCode).toBe(403);
    expect(patch.json().code).toBe('csrf_invalid');
    const remove = await call('DELETE', `/api/admin/newsletter/${id}`, undefined, { withCsrf: false });
    expect(remove.statusCode).toBe(403);
    const send = await call('POST', '/api/admin/newsletter/send', { subject: 'a', content: 'b' }, { withCsrf: false });
    expect(send.statusCode).toBe(403);
    expect((await list('?search=ada@')).subscribers[0]?.isActive).toBe(true);
  });

  test('an admin without manageNewsletters is refused with the table sentence', async () => {
    const other = await signedInAs(app, db, 'admin', { downloadXlsx: true });
    const otherCall = await clientFor(other.id);
    const response = await otherCall('GET', '/api/admin/newsletter');
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe("You don't have permission to manage newsletters.");
    const send = await otherCall('POST', '/api/admin/newsletter/send', { subject: 'a', content: 'b' });
    expect(send.statusCode).toBe(403);
  });

  test('delete: audited with the address, published, then a 404', async () => {
    const [row] = await db
      .insert(newsletterSubscribers)
      .values({ email: 'bye@example.com', unsubscribeToken: 'byebyebye'.padEnd(32, '0') })
      .returning();
    const id = row?.id ?? '';
    const response = await call('DELETE', `/api/admin/newsletter/${id}`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: 'Subscriber deleted' });
    expect((await call('DELETE', `/api/admin/newsletter/${id}`)).statusCode).toBe(404);
    expect((await call('DELETE', '/api/admin/newsletter/xyz')).statusCode).toBe(400);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.entityId, id));
    expect(audit).toMatchObject({ action: 'newsletter.subscriber_deleted', details: { email: 'bye@example.com' } });
    await vi.waitFor(async () => {
      const [event] = await db.select().from(liveEvents).where(sql`${liveEvents.data}->>'id' = ${id}`);
      expect(event).toMatchObject({ type: 'newsletter_unsubscribed', data: { deleted: true } });
    });
  });
});

describe('GET /api/admin/newsletter/export', () => {
  test('a CSV (BOM, CRLF, formulas neutralised) of exactly what the list shows, in its order', async () => {
    for (const query of ['', '?sortBy=email&sortOrder=asc', '?statusFilter=active&search=example', '?sortOrder=asc']) {
      const response = await call('GET', `/api/admin/newsletter/export${query}`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(response.headers['content-disposition']).toBe('attachment; filename="subscribers.csv"');
      expect(response.body.startsWith('\uFEFFEmail,Status,Source,Subscribed,Last email sent\r\n')).toBe(true);
      const [header, ...records] = parseCsv(response.body);
      expect(header).toEqual(['Email', 'Status', 'Source', 'Subscribed', 'Last email sent']);
      const shown = await list(`${query ? `${query}&` : '?'}limit=100`);
      expect(records.map((record) => record[0]?.replace(/^'/, ''))).toEqual(shown.subscribers.map((s) => s.email));
      expect(records.map((record) => record[1])).toEqual(shown.subscribers.map((s) => s.status));
    }
    const all = await call('GET', '/api/admin/newsletter/export');
    expect(all.body).toContain(`"'=HYPERLINK(""x"")@example.com"`);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'newsletter.subscribers_exported'));
    expect(audit?.actorUserId).toBe(admin.id);
  });

  test('the export reads in keyset batches that never repeat or skip a row', async () => {
    // Several batches: through the service's batches with a small size.
    const { createNewsletterService } = await import('./newsletter.service.ts');
    const service = createNewsletterService({
      db,
      mailer: { name: 'outbox', send: async () => ({ id: '', delivered: true }) },
      settings: { get: async () => ({}) } as never,
      events: { publish: () => {} } as never,
      jobs: { define: () => async () => {} } as never,
      publicUrl: 'https://shop.test',
    });
    for (const filters of [
      { sortBy: 'createdAt', sortOrder: 'desc' },
      { sortBy: 'createdAt', sortOrder: 'asc' },
      { sortBy: 'email', sortOrder: 'asc' },
      { sortBy: 'email', sortOrder: 'desc' },
    ] as const) {
      const emails: string[] = [];
      for await (const batch of service.batches(filters, 4)) emails.push(...batch.map((row) => row.email));
      const shown = await list(`?sortBy=${filters.sortBy}&sortOrder=${filters.sortOrder}&limit=100`);
      expect(emails).toEqual(shown.subscribers.map((s) => s.email));
    }
  });

  test('a bad filter is a 400', async () => {
    expect((await call('GET', '/api/admin/newsletter/export?statusFilter=x')).statusCode).toBe(400);
    expect((await call('GET', '/api/admin/newsletter/export?search=%00')).statusCode).toBe(400);
  });
});

describe('send, preview, test send, progress', () => {
  const draft = { subject: 'Spring <news>', content: 'Hello & welcome.\n\nNew <b>lanterns</b> are in.' };

  test.each([
    ['no subject', { content: 'x' }],
    ['an empty subject', { subject: '', content: 'x' }],
    ['a blank content', { subject: 'x', content: '   \n ' }],
    ['neither', {}],
  ])('send with %s: "Please fill in both subject and content"', async (_name, body) => {
    for (const path of ['send', 'preview', 'test']) {
      const response = await call('POST', `/api/admin/newsletter/${path}`, body);
      expect(response.statusCode, path).toBe(400);
      expect(response.json().issues.map((issue: { message: string }) => issue.message)).toContain(SEND_FIELDS_REQUIRED);
      expect(response.json().error).toContain(SEND_FIELDS_REQUIRED);
    }
  });

  test.each([
    ['a NUL byte', { subject: 'a\u0000b', content: 'x' }],
    ['a number', { subject: 5, content: 'x' }],
    ['a subject too long', { subject: 'x'.repeat(201), content: 'x' }],
    ['a content too long', { subject: 'x', content: 'x'.repeat(50_001) }],
  ])('send with %s is a 400', async (_name, body) => {
    const response = await call('POST', '/api/admin/newsletter/send', body);
    expect(response.statusCode).toBe(400);
  });

  test('preview: the mail as a subscriber gets it, escaped HTML and the one-click headers', async () => {
    const response = await call('POST', '/api/admin/newsletter/preview', draft);
    expect(response.statusCode).toBe(200);
    const preview = response.json();
    expect(preview.subject).toBe('Spring <news>');
    expect(preview.text).toContain('Hello & welcome.\n\nNew <b>lanterns</b> are in.');
    expect(preview.text).toContain('/newsletter/unsubscribe?token=');
    expect(preview.html).toContain('<p>Hello &#38; welcome.</p>');
    expect(preview.html).toContain('New &#60;b&#62;lanterns&#60;/b&#62; are in.');
    expect(preview.html).not.toContain('<b>');
    expect(preview.headers).toEqual({
      'List-Unsubscribe': expect.stringMatching(/^<http.*\/api\/newsletter\/unsubscribe\?token=[\w-]+>$/),
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  test('test send: to the signed-in admin only, marked as a test, audited', async () => {
    const before = await db.select().from(emailOutbox);
    const response = await call('POST', '/api/admin/newsletter/test', draft);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: `Test email sent to ${admin.account.email}`, to: admin.account.email });
    const after = await db.select().from(emailOutbox);
    const added = after.filter((row) => !before.some((old) => old.id === row.id));
    expect(added.map((row) => [row.to, row.template, row.subject])).toEqual([
      [admin.account.email, 'newsletter-test', '[Test] Spring <news>'],
    ]);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'newsletter.test_sent'));
    expect(audit).toMatchObject({ actorUserId: admin.id, details: { to: admin.account.email } });
  });

  test('send: queued (202), sent in the background to every active subscriber once, progress to poll', async () => {
    const response = await call('POST', '/api/admin/newsletter/send', draft);
    expect(response.statusCode).toBe(202);
    const { send, message } = response.json();
    const active = (await list('?statusFilter=active')).pagination.total;
    expect(message).toBe(`Newsletter queued for ${active} subscribers`);
    expect(send).toMatchObject({ subject: draft.subject, status: 'queued', total: active, sent: 0, failed: 0 });
    await jobsDone();
    const progress = await call('GET', `/api/admin/newsletter/sends/${send.id}`);
    expect(progress.statusCode).toBe(200);
    expect(progress.json().send).toMatchObject({ id: send.id, status: 'sent', total: active, sent: active, failed: 0 });
    expect(progress.json().send.finishedAt).not.toBeNull();
    const latest = await call('GET', '/api/admin/newsletter/sends');
    expect(latest.json().sends[0]).toMatchObject({ id: send.id, status: 'sent' });

    const copies = await db
      .select({ to: emailOutbox.to })
      .from(emailOutbox)
      .where(and(eq(emailOutbox.template, 'newsletter'), eq(emailOutbox.subject, draft.subject)));
    const activeEmails = (await list('?statusFilter=active&limit=100')).subscribers.map((s) => s.email);
    expect(copies.map((copy) => copy.to).sort()).toEqual([...activeEmails].sort());
    const rows = await list('?limit=100');
    for (const row of rows.subscribers) expect(row.lastEmailSent !== null, row.email).toBe(row.isActive);
    const [audit] = await db.select().from(auditLog).where(eq(auditLog.action, 'newsletter.send_queued'));
    expect(audit).toMatchObject({ entityId: send.id, details: { subject: draft.subject, recipients: active } });

    // The mail's own List-Unsubscribe link unsubscribes its reader with one POST (RFC 8058).
    const mail = mailbox.find((m) => m.template === 'newsletter' && m.to === 'ada@example.com');
    const link = /^<(.+)>$/.exec(mail?.headers?.['List-Unsubscribe'] ?? '')?.[1] ?? '';
    const url = new URL(link);
    const oneClick = await app.inject({
      method: 'POST',
      url: `${url.pathname}${url.search}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
      remoteAddress: '10.83.0.1',
    });
    expect(oneClick.statusCode).toBe(200);
    expect((await list('?search=ada@')).subscribers[0]?.isActive).toBe(false);
  });

  test('a second send while one runs is refused (409) and queues the unfinished one again; so is one with nobody to send to', async () => {
    // A send whose job is gone (say, the process died between its commit and the queueing).
    const [running] = await db
      .insert(newsletterIssues)
      .values({ subject: 'Running', content: 'x', status: 'sending' })
      .returning();
    const refused = await call('POST', '/api/admin/newsletter/send', draft);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('send_in_progress');
    // Queued again by the refusal, it resumes and finishes: the next send is free to go.
    await vi.waitFor(
      async () => {
        const [issue] = await db
          .select()
          .from(newsletterIssues)
          .where(eq(newsletterIssues.id, running?.id ?? ''));
        expect(issue?.status).toBe('sent');
      },
      { timeout: 15_000, interval: 200 },
    );
    await db.update(newsletterSubscribers).set({ isActive: false });
    try {
      const nobody = await call('POST', '/api/admin/newsletter/send', draft);
      expect(nobody.statusCode).toBe(409);
      expect(nobody.json().code).toBe('no_subscribers');
    } finally {
      await db
        .update(newsletterSubscribers)
        .set({ isActive: true })
        .where(sql`${newsletterSubscribers.confirmationTokenHash} IS NULL`);
    }
  });

  test('enableNewsletter off blocks sending', async () => {
    await save({ enableNewsletter: false });
    try {
      const response = await call('POST', '/api/admin/newsletter/send', draft);
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('newsletter_disabled');
    } finally {
      await save({ enableNewsletter: true });
    }
  });

  test('progress: a bad id is a 400, an unknown one a 404', async () => {
    expect((await call('GET', '/api/admin/newsletter/sends/nope')).statusCode).toBe(400);
    expect((await call('GET', '/api/admin/newsletter/sends/0123456789abcdef')).statusCode).toBe(404);
    const deliveries = await db.select().from(newsletterDeliveries);
    expect(deliveries.length).toBeGreaterThan(0);
  });
});
