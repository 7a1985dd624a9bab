import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeEach, describe, expect, test, vi } from 'vitest';
import { settingsDefaults } from '#common/settings-defaults.ts';
import type { Mailer, MailMessage } from '#server/adapters/email/mailer.ts';
import { emailOutbox } from '#server/adapters/email/outbox.tables.ts';
import { createOutboxMailer } from '#server/adapters/email/outbox-mailer.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import { createJobs, startJobQueue } from '#server/jobs/job-queue.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { newsletterDeliveries, newsletterIssues, newsletterSubscribers } from './newsletter.tables.ts';
import { createNewsletterSends, INTERRUPTED, NEWSLETTER_TEMPLATE, type SendOptions } from './newsletter-sends.ts';

/**
 * The send job on its own (issue 12): crashes at each point of a recipient's hand-over, then a
 * resumed run; the outbox is the proof that every active subscriber got exactly one copy.
 */
const database = await createMigratedTestDatabase();
afterAll(() => database.close());
const { db } = database;

let enableNewsletter = true;
const settings = {
  get: async () => ({ ...settingsDefaults, enableNewsletter }),
} as unknown as SettingsService;
const outbox = createOutboxMailer({ db, log: () => {}, printBodies: false });
/** Every message as its recipient reads it. */
const mailbox: MailMessage[] = [];
const mailer: Mailer = {
  name: 'outbox',
  send(message) {
    mailbox.push(message);
    return outbox.send(message);
  },
};

/** A mail run that dies at the nth message: after handing it over, before, or inside an SMTP hand-over. */
class Crash extends Error {}
function crashingMailer(at: number, when: 'after-handover' | 'before-handover' | 'inside-handover'): Mailer {
  let count = 0;
  return {
    name: 'outbox',
    async send(message) {
      count += 1;
      if (count < at) return mailer.send(message);
      if (when === 'after-handover') await mailer.send(message);
      if (when === 'inside-handover') {
        // As the SMTP mailer leaves it: its copy kept as queued, the process gone mid-conversation.
        const { to, subject, text, template } = message;
        await db.insert(emailOutbox).values({ to, subject, text, template, status: 'queued' });
      }
      throw new Crash(`the process died at message ${count}`);
    },
  };
}

function sends(withMailer: Mailer, options: SendOptions = {}) {
  return createNewsletterSends({
    db,
    mailer: withMailer,
    settings,
    jobs: createJobs(),
    publicUrl: 'https://shop.test',
    options: { batchSize: 5, claimLeaseMs: 0, ...options },
  });
}

let round = 0;
/** A fresh list: `active` subscribers and 2 inactive ones, and a queued issue. */
async function prepare(active: number) {
  round += 1;
  enableNewsletter = true;
  await db.delete(newsletterSubscribers);
  const emails = Array.from({ length: active }, (_, i) => `reader${i}.r${round}@example.com`);
  await db
    .insert(newsletterSubscribers)
    .values([
      ...emails.map((email, i) => ({ email, unsubscribeToken: `tok${round}x${i}y`.padEnd(32, '0') })),
      { email: `gone1.r${round}@example.com`, isActive: false, unsubscribeToken: `gone1r${round}`.padEnd(32, '0') },
      { email: `gone2.r${round}@example.com`, isActive: false, unsubscribeToken: `gone2r${round}`.padEnd(32, '0') },
    ]);
  const [issue] = await db
    .insert(newsletterIssues)
    .values({ subject: `Issue ${round}`, content: 'Quiet news.', status: 'queued' })
    .returning();
  if (!issue) throw new Error('no issue');
  return { issueId: issue.id, emails };
}

/** How many copies of the issue each address got, from the outbox. */
async function copiesPerAddress(subject: string) {
  const rows = await db
    .select({ to: emailOutbox.to, status: emailOutbox.status })
    .from(emailOutbox)
    .where(and(eq(emailOutbox.template, NEWSLETTER_TEMPLATE), eq(emailOutbox.subject, subject)));
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.to, (counts.get(row.to) ?? 0) + 1);
  return { counts, rows };
}

async function issue(id: string) {
  const [row] = await db.select().from(newsletterIssues).where(eq(newsletterIssues.id, id));
  return row;
}

beforeEach(() => {
  mailbox.length = 0;
});

describe('the newsletter send job', () => {
  test('mails each active subscriber once, in batches, with the one-click headers and lastEmailSent', async () => {
    const { issueId, emails } = await prepare(12);
    expect(await sends(mailer).runSend(issueId)).toBe('done');
    const { counts } = await copiesPerAddress('Issue 1');
    expect([...counts.keys()].sort()).toEqual([...emails].sort());
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(await issue(issueId)).toMatchObject({ status: 'sent', recipientCount: 12, sentCount: 12, failedCount: 0 });
    const mail = mailbox.find((message) => message.to === emails[0]);
    expect(mail?.headers).toEqual({
      'List-Unsubscribe': `<https://shop.test/api/newsletter/unsubscribe?token=${'tok1x0y'.padEnd(32, '0')}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    expect(mail?.text).toContain(`https://shop.test/newsletter/unsubscribe?token=${'tok1x0y'.padEnd(32, '0')}`);
    // The stored copy does not keep the unsubscribe token.
    const [stored] = await db
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, emails[0] ?? ''));
    expect(stored?.text).not.toContain('tok1x0');
    const rows = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.isActive, true));
    expect(rows.every((row) => row.lastEmailSent !== null)).toBe(true);
    const inactive = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.isActive, false));
    expect(inactive.every((row) => row.lastEmailSent === null)).toBe(true);
    // A run after the end sends nothing more.
    expect(await sends(mailer).runSend(issueId)).toBe('done');
    expect((await copiesPerAddress('Issue 1')).rows).toHaveLength(12);
  });

  test.each([
    ['after-handover', 8],
    ['before-handover', 8],
    ['after-handover', 1],
    ['before-handover', 23],
  ] as const)('killed %s at message %i, the resumed job mails everyone exactly once', async (when, at) => {
    const { issueId, emails } = await prepare(23);
    const subject = `Issue ${round}`;
    await expect(sends(crashingMailer(at, when)).runSend(issueId)).rejects.toBeInstanceOf(Crash);
    // Mid-way: some sent, some claimed by the dead run, the rest still queued.
    const midway = await db
      .select({ status: newsletterDeliveries.status })
      .from(newsletterDeliveries)
      .where(eq(newsletterDeliveries.issueId, issueId));
    expect(midway.filter((row) => row.status === 'claimed').length).toBeGreaterThan(0);
    expect((await issue(issueId))?.status).toBe('sending');

    expect(await sends(mailer).runSend(issueId)).toBe('done');
    const { counts } = await copiesPerAddress(subject);
    expect([...counts.keys()].sort()).toEqual([...emails].sort());
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect(await issue(issueId)).toMatchObject({ status: 'sent', recipientCount: 23, sentCount: 23, failedCount: 0 });
    const subscribers = await db.select().from(newsletterSubscribers).where(eq(newsletterSubscribers.isActive, true));
    expect(subscribers.every((row) => row.lastEmailSent !== null)).toBe(true);
  });

  test('killed inside an SMTP hand-over, that one mail is not sent again: it counts as a failure', async () => {
    const { issueId, emails } = await prepare(9);
    await expect(sends(crashingMailer(4, 'inside-handover')).runSend(issueId)).rejects.toBeInstanceOf(Crash);
    expect(await sends(mailer).runSend(issueId)).toBe('done');
    const { counts } = await copiesPerAddress(`Issue ${round}`);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(counts.size).toBe(emails.length);
    expect(await issue(issueId)).toMatchObject({ status: 'sent', recipientCount: 9, sentCount: 8, failedCount: 1 });
    const [failed] = await db
      .select()
      .from(newsletterDeliveries)
      .where(and(eq(newsletterDeliveries.issueId, issueId), eq(newsletterDeliveries.status, 'failed')));
    expect(failed?.error).toBe(INTERRUPTED);
  });

  test('two runs of one send at once still mail everyone exactly once', async () => {
    const { issueId, emails } = await prepare(30);
    const options = { claimLeaseMs: 60_000 };
    await Promise.all([sends(mailer, options).runSend(issueId), sends(mailer, options).runSend(issueId)]);
    const { counts } = await copiesPerAddress(`Issue ${round}`);
    expect(counts.size).toBe(emails.length);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect((await issue(issueId))?.sentCount).toBe(30);
  });

  test('a run slower than the lease does not mail what another run settled and sent meanwhile', async () => {
    const { issueId, emails } = await prepare(12);
    const options = { claimLeaseMs: 50 };
    // Run A hands its first mail over, then stalls (a slow mail server) with the rest of its batch claimed.
    let release = () => {};
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    let calls = 0;
    const slow: Mailer = {
      name: 'outbox',
      async send(message) {
        const result = await mailer.send(message);
        calls += 1;
        if (calls === 1) await stalled;
        return result;
      },
    };
    const first = sends(slow, options).runSend(issueId);
    await vi.waitFor(() => expect(calls).toBe(1));
    await new Promise((resolve) => setTimeout(resolve, 80));
    // Run B finds A's claims past their lease, settles them from the outbox and mails the rest.
    await sends(mailer, options).runSend(issueId);
    release();
    await first;
    const { counts } = await copiesPerAddress(`Issue ${round}`);
    expect(counts.size).toBe(emails.length);
    expect([...counts.entries()].filter(([, n]) => n !== 1)).toEqual([]);
    expect((await issue(issueId))?.sentCount).toBe(12);
  });

  test('a subscriber who leaves during the send is skipped, and the total follows', async () => {
    const { issueId } = await prepare(10);
    // Claimed in id order, 3 a batch: the highest id is in the last batch, read after the first mail.
    const [last] = await db
      .select({ email: newsletterSubscribers.email })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.isActive, true))
      .orderBy(desc(newsletterSubscribers.id))
      .limit(1);
    const leaver = last?.email ?? '';
    let sent = 0;
    const leaving: Mailer = {
      name: 'outbox',
      async send(message) {
        sent += 1;
        if (sent === 1) {
          await db
            .update(newsletterSubscribers)
            .set({ isActive: false })
            .where(eq(newsletterSubscribers.email, leaver));
        }
        return mailer.send(message);
      },
    };
    expect(await sends(leaving, { batchSize: 3 }).runSend(issueId)).toBe('done');
    const { counts } = await copiesPerAddress(`Issue ${round}`);
    expect(counts.has(leaver)).toBe(false);
    expect(await issue(issueId)).toMatchObject({ recipientCount: 9, sentCount: 9, failedCount: 0 });
  });

  test('a refused message is a failure and the send goes on', async () => {
    const { issueId } = await prepare(6);
    let sent = 0;
    const refusing: Mailer = {
      name: 'outbox',
      async send(message) {
        sent += 1;
        if (sent === 2) return { id: 'x', delivered: false };
        return mailer.send(message);
      },
    };
    expect(await sends(refusing).runSend(issueId)).toBe('done');
    expect(await issue(issueId)).toMatchObject({ status: 'sent', recipientCount: 6, sentCount: 5, failedCount: 1 });
  });

  test('switching the newsletter off stops the send between batches; nothing more goes out', async () => {
    const { issueId } = await prepare(20);
    let sent = 0;
    const switching: Mailer = {
      name: 'outbox',
      async send(message) {
        sent += 1;
        if (sent === 3) enableNewsletter = false;
        return mailer.send(message);
      },
    };
    expect(await sends(switching).runSend(issueId)).toBe('cancelled');
    expect(await issue(issueId)).toMatchObject({ status: 'cancelled', sentCount: 5 });
    enableNewsletter = true;
    expect(await sends(mailer).runSend(issueId)).toBe('done');
    expect((await copiesPerAddress(`Issue ${round}`)).rows).toHaveLength(5);
  });

  test('a run past its time slice hands the rest on to a fresh run', async () => {
    const { issueId } = await prepare(7);
    expect(await sends(mailer, { sliceMs: -1 }).runSend(issueId)).toBe('more');
    expect((await issue(issueId))?.status).toBe('sending');
    expect(await sends(mailer).runSend(issueId)).toBe('done');
    expect((await issue(issueId))?.sentCount).toBe(7);
  });

  test('through the durable queue (pg-boss): the run that dies is run again by the queue and resumes', async () => {
    const { issueId, emails } = await prepare(12);
    const jobs = createJobs();
    let count = 0;
    const dying: Mailer = {
      name: 'outbox',
      async send(message) {
        count += 1;
        // The first run dies after handing over its sixth message; the queue's retry goes on.
        if (count === 6) {
          await mailer.send(message);
          throw new Crash('the process died');
        }
        return mailer.send(message);
      },
    };
    createNewsletterSends({
      db,
      mailer: dying,
      settings,
      jobs,
      publicUrl: 'https://shop.test',
      options: { batchSize: 5, claimLeaseMs: 0, retry: { retryLimit: 2, retryDelay: 0, retryBackoff: false } },
    });
    const queue = await startJobQueue(database, jobs.definitions, { onError: () => {}, pollingIntervalSeconds: 0.5 });
    jobs.attachQueue(queue);
    try {
      await queue.boss.send('newsletter.send', { issueId });
      await expect.poll(async () => (await issue(issueId))?.status, { timeout: 30_000, interval: 250 }).toBe('sent');
      // Six in the run that died (the sixth handed over), six in the queue's retry: none twice.
      expect(count).toBe(12);
      const { counts } = await copiesPerAddress(`Issue ${round}`);
      expect([...counts.keys()].sort()).toEqual([...emails].sort());
      expect([...counts.values()].every((n) => n === 1)).toBe(true);
      expect(await issue(issueId)).toMatchObject({ recipientCount: 12, sentCount: 12, failedCount: 0 });
    } finally {
      await queue.stop();
    }
  });
});
