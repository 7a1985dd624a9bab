import { and, count, desc, eq, gte, inArray, sql } from 'drizzle-orm';
import type { NewsletterDraft, NewsletterSend } from '#common/contracts/admin/newsletter.ts';
import type { Mailer } from '#server/adapters/email/mailer.ts';
import { emailOutbox } from '#server/adapters/email/outbox.tables.ts';
import { type Db, executeRows } from '#server/db/client.ts';
import type { Actor } from '#server/features/accounts/admin-management.service.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import { AppError, notFound } from '#server/http/errors.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { newsletterDisabled } from './newsletter.service.ts';
import {
  newsletterDeliveries as deliveries,
  newsletterIssues as issues,
  newsletterSubscribers as subscribers,
} from './newsletter.tables.ts';
import { renderNewsletter, unsubscribeLinks } from './newsletter-mail.ts';

type IssueRow = typeof issues.$inferSelect;

/** The template of a newsletter's copies in the outbox (a test send is 'newsletter-test'). */
export const NEWSLETTER_TEMPLATE = 'newsletter';
/** What a delivery interrupted inside the SMTP hand-over is marked with (it is not sent again). */
export const INTERRUPTED =
  'The send was interrupted while this mail was handed over: not sent again, so no one gets it twice';
/** Sends in flight are one at a time: a second Send while one runs is refused (a double click). */
const SEND_LOCK = 0x6e6c7472;

export function toNewsletterSend(row: IssueRow): NewsletterSend {
  return {
    id: row.id,
    subject: row.subject,
    status: row.status,
    total: row.recipientCount,
    sent: row.sentCount,
    failed: row.failedCount,
    createdAt: row.createdAt.toISOString(),
    startedAt: row.startedAt ? row.startedAt.toISOString() : null,
    finishedAt: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

export type SendOptions = {
  /** Recipients claimed and mailed per batch (progress is written after each). */
  batchSize?: number;
  /**
   * How long one run works before it hands the rest to a fresh run of the job: each run stays
   * well inside the queue's expiry, so two runs of one send never overlap (see runSend).
   */
  sliceMs?: number;
  /**
   * A claim older than this with no outcome is a dead run's (see reconcile). Far longer than the
   * moment between a claim and the mailer's stored copy; tests set 0 to resume at once.
   */
  claimLeaseMs?: number;
  /** How the queue runs a crashed run again (by default 10 times, from 30 s, backing off). */
  retry?: { retryLimit: number; retryDelay: number; retryBackoff: boolean };
};

/**
 * Newsletter sends (issue 12): queued by the tab, then a durable job (pg-boss) mails every
 * active subscriber in batches through the mail adapter. Each recipient is claimed in
 * newsletter_deliveries (unique per issue and subscriber) before its mail is handed over, so a
 * run that resumes after a crash never mails anyone twice.
 */
export function createNewsletterSends({
  db,
  mailer,
  settings,
  jobs,
  publicUrl,
  options = {},
}: {
  db: Db;
  mailer: Mailer;
  settings: SettingsService;
  jobs: Jobs;
  publicUrl: string;
  options?: SendOptions;
}) {
  const batchSize = options.batchSize ?? 50;
  const sliceMs = options.sliceMs ?? 4 * 60 * 1000;
  const claimLeaseMs = options.claimLeaseMs ?? 60 * 1000;

  const sendJob = jobs.define<{ issueId: string }>(
    'newsletter.send',
    async ({ issueId }) => {
      const outcome = await runSend(issueId);
      if (outcome === 'more') await sendJob({ issueId });
    },
    // A run that crashed is run again (it resumes where the deliveries table says).
    options.retry ?? { retryLimit: 10, retryDelay: 30, retryBackoff: true },
  );

  async function issueOf(id: string) {
    const [row] = await db.select().from(issues).where(eq(issues.id, id));
    return row;
  }

  /** The issue's figures, counted from its deliveries (idempotent: right after any crash). */
  async function refreshProgress(issueId: string) {
    const rows = await db
      .select({ status: deliveries.status, value: count() })
      .from(deliveries)
      .where(eq(deliveries.issueId, issueId))
      .groupBy(deliveries.status);
    const of = (status: string) => rows.find((row) => row.status === status)?.value ?? 0;
    const all = rows.reduce((sum, row) => sum + row.value, 0);
    await db
      .update(issues)
      .set({ recipientCount: all - of('skipped'), sentCount: of('sent'), failedCount: of('failed') })
      .where(eq(issues.id, issueId));
  }

  async function cancel(issueId: string) {
    await db
      .update(issues)
      .set({ status: 'cancelled', finishedAt: new Date() })
      .where(and(eq(issues.id, issueId), inArray(issues.status, ['queued', 'sending'])));
    await refreshProgress(issueId);
  }

  /**
   * The first run fixes the recipients: one delivery row per active subscriber, queued. Done
   * once, under the issue's row lock: a later run finds the issue already 'sending'.
   */
  async function start(issueId: string) {
    await db.transaction(async (tx) => {
      const [issue] = await tx.select().from(issues).where(eq(issues.id, issueId)).for('update');
      if (issue?.status !== 'queued') return;
      await tx.execute(sql`
        INSERT INTO ${deliveries} (issue_id, subscriber_id, email, status)
        SELECT ${issueId}, id, email, 'queued' FROM ${subscribers} WHERE is_active
        ON CONFLICT DO NOTHING`);
      await tx.update(issues).set({ status: 'sending', startedAt: new Date() }).where(eq(issues.id, issueId));
    });
  }

  /**
   * Claims left by a run that died: older than the lease, with no outcome. (Runs of one send do
   * not overlap in the normal course: a run ends its slice before handing on, and the queue
   * retries one only after it failed; the lease guards the rare overlap.) The outbox tells what
   * happened to each: both mailers keep their copy before handing a message over, so no copy
   * means it was never handed over (it is queued again), a sent or failed copy is the answer,
   * and a copy still 'queued' was cut off inside the SMTP hand-over: it may have reached the
   * recipient, so it is not sent again.
   */
  async function reconcile(issue: IssueRow) {
    const claimed = await db
      .select()
      .from(deliveries)
      .where(
        and(
          eq(deliveries.issueId, issue.id),
          eq(deliveries.status, 'claimed'),
          sql`${deliveries.claimedAt} <= now() - make_interval(secs => ${claimLeaseMs / 1000})`,
        ),
      );
    for (const delivery of claimed) {
      const [copy] = await db
        .select({ status: emailOutbox.status, sentAt: emailOutbox.sentAt, lastError: emailOutbox.lastError })
        .from(emailOutbox)
        .where(
          and(
            gte(emailOutbox.createdAt, delivery.claimedAt),
            eq(emailOutbox.to, delivery.email),
            eq(emailOutbox.template, NEWSLETTER_TEMPLATE),
            eq(emailOutbox.subject, issue.subject),
          ),
        )
        .orderBy(emailOutbox.createdAt)
        .limit(1);
      const key = and(eq(deliveries.issueId, issue.id), eq(deliveries.subscriberId, delivery.subscriberId));
      if (!copy) {
        await db.update(deliveries).set({ status: 'queued' }).where(key);
      } else if (copy.status === 'sent') {
        const sentAt = copy.sentAt ?? new Date();
        await db.update(deliveries).set({ status: 'sent', sentAt }).where(key);
        await db.update(subscribers).set({ lastEmailSent: sentAt }).where(eq(subscribers.id, delivery.subscriberId));
      } else {
        await db
          .update(deliveries)
          .set({ status: 'failed', error: copy.status === 'failed' ? copy.lastError : INTERRUPTED })
          .where(key);
      }
    }
  }

  /** The next batch of queued recipients, marked claimed (SKIP LOCKED: a concurrent claim takes others). */
  async function claimBatch(issueId: string) {
    return executeRows<{ subscriber_id: string; claimed_at: string }>(
      db,
      sql`UPDATE ${deliveries} SET status = 'claimed', claimed_at = now()
          WHERE issue_id = ${issueId} AND subscriber_id IN (
            SELECT subscriber_id FROM ${deliveries}
            WHERE issue_id = ${issueId} AND status = 'queued'
            ORDER BY subscriber_id LIMIT ${batchSize}
            FOR UPDATE SKIP LOCKED)
          RETURNING subscriber_id, claimed_at::text`,
    );
  }

  /**
   * Right before its mail goes, the claim is renewed if it is still this run's (the same claim
   * time): a run slower than the lease may have had its claims settled and taken by another run,
   * and then it must not mail them too.
   */
  async function stillOurs(issueId: string, subscriberId: string, claimedAt: string) {
    const renewed = await executeRows<{ subscriber_id: string }>(
      db,
      sql`UPDATE ${deliveries} SET claimed_at = now()
          WHERE issue_id = ${issueId} AND subscriber_id = ${subscriberId}
            AND status = 'claimed' AND claimed_at = ${claimedAt}::timestamptz
          RETURNING subscriber_id`,
    );
    return renewed.length === 1;
  }

  /**
   * One run of a send: starts it if new, settles a dead run's claims, then mails batch after
   * batch until none is left ('done'), or its time slice is used up ('more': the job queues the
   * next run). Switching the newsletter off stops the send between two batches ('cancelled').
   */
  async function runSend(issueId: string): Promise<'done' | 'more' | 'cancelled'> {
    const began = Date.now();
    const initial = await issueOf(issueId);
    if (!initial || initial.status === 'sent' || initial.status === 'cancelled') return 'done';
    if (!(await settings.get()).enableNewsletter) {
      await cancel(issueId);
      return 'cancelled';
    }
    await start(issueId);
    const issue = await issueOf(issueId);
    if (issue?.status !== 'sending') return 'done';
    await reconcile(issue);
    await refreshProgress(issueId);
    for (;;) {
      const { enableNewsletter, siteName } = await settings.get();
      if (!enableNewsletter) {
        await cancel(issueId);
        return 'cancelled';
      }
      if (Date.now() - began > sliceMs) return 'more';
      const claimed = await claimBatch(issueId);
      if (claimed.length === 0) {
        // Nothing queued: done, unless claims are still out (another run's, or a dead one's
        // until its lease runs out and reconcile settles it).
        const [out] = await db
          .select({ value: count() })
          .from(deliveries)
          .where(and(eq(deliveries.issueId, issueId), eq(deliveries.status, 'claimed')));
        if (!out?.value) break;
        await new Promise((resolve) => setTimeout(resolve, Math.min(1000, claimLeaseMs)));
        await reconcile(issue);
        continue;
      }
      const ids = claimed.map((row) => row.subscriber_id);
      const found = await db.select().from(subscribers).where(inArray(subscribers.id, ids));
      const byId = new Map(found.map((row) => [row.id, row]));
      for (const { subscriber_id: subscriberId, claimed_at: claimedAt } of claimed) {
        const key = and(eq(deliveries.issueId, issueId), eq(deliveries.subscriberId, subscriberId));
        const subscriber = byId.get(subscriberId);
        // Left (unsubscribed, deactivated or deleted) since the send started: not mailed.
        if (!subscriber?.isActive) {
          await db.update(deliveries).set({ status: 'skipped' }).where(key);
          continue;
        }
        if (!(await stillOurs(issueId, subscriberId, claimedAt))) continue;
        const links = unsubscribeLinks(publicUrl, subscriber.unsubscribeToken);
        const { delivered } = await mailer.send({
          to: subscriber.email,
          template: NEWSLETTER_TEMPLATE,
          ...renderNewsletter({ subject: issue.subject, content: issue.content, siteName, links }),
          // The unsubscribe token stays out of the stored copy and the log.
          secrets: [subscriber.unsubscribeToken],
        });
        const now = new Date();
        await db
          .update(deliveries)
          .set(delivered ? { status: 'sent', sentAt: now } : { status: 'failed', error: 'The mail server refused it' })
          .where(key);
        if (delivered) await db.update(subscribers).set({ lastEmailSent: now }).where(eq(subscribers.id, subscriberId));
      }
      await refreshProgress(issueId);
    }
    await refreshProgress(issueId);
    await db
      .update(issues)
      .set({ status: 'sent', finishedAt: new Date() })
      .where(and(eq(issues.id, issueId), eq(issues.status, 'sending')));
    return 'done';
  }

  /**
   * The tab's Send: refused when the newsletter is off, when no one is subscribed, or while
   * another send runs; otherwise the issue is written (and audited) and its job queued.
   */
  async function queue(actor: Actor, draft: NewsletterDraft) {
    if (!(await settings.get()).enableNewsletter) throw newsletterDisabled();
    let unfinished: string | null = null;
    const issue = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${SEND_LOCK})`);
      const [running] = await tx
        .select({ id: issues.id })
        .from(issues)
        .where(inArray(issues.status, ['queued', 'sending']))
        .limit(1);
      if (running) {
        unfinished = running.id;
        return null;
      }
      const [active] = await tx.select({ value: count() }).from(subscribers).where(eq(subscribers.isActive, true));
      const total = active?.value ?? 0;
      if (total === 0) throw new AppError(409, 'no_subscribers', 'There are no active subscribers to send to');
      const [row] = await tx
        .insert(issues)
        .values({ ...draft, status: 'queued', recipientCount: total, sentByUserId: actor.userId })
        .returning();
      if (!row) throw new Error('the issue was not written');
      await tx.insert(auditLog).values({
        actorUserId: actor.userId,
        action: 'newsletter.send_queued',
        entityType: 'newsletter_issue',
        entityId: row.id,
        details: { subject: draft.subject, recipients: total },
        ip: actor.ip,
      });
      return row;
    });
    if (!issue) {
      // Its job may be gone (a crash between the commit and the queueing, or its retries spent):
      // queued again, it resumes where it stopped, and a run still going is not disturbed (the
      // claims and their lease keep every recipient to one mail).
      if (unfinished) await sendJob({ issueId: unfinished });
      throw new AppError(409, 'send_in_progress', 'A newsletter is being sent: wait until it is done');
    }
    await sendJob({ issueId: issue.id });
    const noun = issue.recipientCount === 1 ? 'subscriber' : 'subscribers';
    return { message: `Newsletter queued for ${issue.recipientCount} ${noun}`, send: toNewsletterSend(issue) };
  }

  /**
   * The mail as a subscriber gets it. The preview's unsubscribe link carries the admin's own
   * token when they subscribe, else a token that names no one (the link then says it is invalid).
   */
  async function render(draft: NewsletterDraft, adminEmail: string) {
    const { siteName } = await settings.get();
    const [own] = await db
      .select({ token: subscribers.unsubscribeToken })
      .from(subscribers)
      .where(sql`lower(${subscribers.email}) = lower(${adminEmail})`);
    const token = own?.token ?? 'preview-no-subscriber';
    return { ...renderNewsletter({ ...draft, siteName, links: unsubscribeLinks(publicUrl, token) }), token };
  }

  async function preview(draft: NewsletterDraft, adminEmail: string) {
    const { subject, text, html, headers } = await render(draft, adminEmail);
    return { subject, text, html, headers };
  }

  /** A test send: the newsletter to the signed-in admin's own address only (audited). */
  async function sendTest(actor: Actor, adminEmail: string, draft: NewsletterDraft) {
    const { token, ...mail } = await render(draft, adminEmail);
    const { delivered } = await mailer.send({
      to: adminEmail,
      template: 'newsletter-test',
      ...mail,
      subject: `[Test] ${mail.subject}`,
      secrets: [token],
    });
    await db.insert(auditLog).values({
      actorUserId: actor.userId,
      action: 'newsletter.test_sent',
      entityType: 'newsletter',
      entityId: null,
      details: { subject: draft.subject, to: adminEmail, delivered },
      ip: actor.ip,
    });
    if (!delivered) throw new AppError(502, 'mail_failed', 'The test email could not be sent: check the mail settings');
    return { message: `Test email sent to ${adminEmail}`, to: adminEmail };
  }

  async function latest() {
    const rows = await db.select().from(issues).orderBy(desc(issues.createdAt), desc(issues.id)).limit(10);
    return { sends: rows.map(toNewsletterSend) };
  }

  async function progress(id: string) {
    const row = await issueOf(id);
    if (!row) throw notFound(`Newsletter send not found: ${id}`);
    return { send: toNewsletterSend(row) };
  }

  return { queue, runSend, preview, sendTest, latest, progress };
}

export type NewsletterSends = ReturnType<typeof createNewsletterSends>;
