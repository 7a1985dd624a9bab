import { createHash, randomBytes } from 'node:crypto';
import { and, asc, desc, eq, getTableColumns, isNotNull, isNull, type SQL, sql } from 'drizzle-orm';
import type * as z from 'zod/mini';
import { validateEmail } from '#common/account-rules.ts';
import type {
  AdminSubscriber,
  AdminSubscriberFilters,
  listAdminSubscribers,
  SubscriberStatus,
} from '#common/contracts/admin/newsletter.ts';
import { newsletterMessages, newsletterPages } from '#common/contracts/newsletter.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import type { Mailer } from '#server/adapters/email/mailer.ts';
import { type Db, executeRows } from '#server/db/client.ts';
import { countedPage, pageIdsOf, sortKeys } from '#server/db/counted-page.ts';
import { newId } from '#server/db/ids.ts';
import { containing } from '#server/db/like-pattern.ts';
import type { Actor } from '#server/features/accounts/admin-management.service.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import { AppError, invalid, notFound } from '#server/http/errors.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { newsletterSubscribers as subscribers } from './newsletter.tables.ts';

type ListQuery = z.output<typeof listAdminSubscribers.query>;
type SubscriberRow = typeof subscribers.$inferSelect;

/** A repeated sign-up of a waiting address mails a new link at most this often. */
export const CONFIRMATION_RESEND_MS = 10 * 60 * 1000;
/** A confirmation link works this long. */
export const CONFIRMATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
const linkToken = () => randomBytes(32).toString('base64url');
/** The unsubscribe token: 32 hex characters, as the checkout makes them. */
export const newUnsubscribeToken = () => randomBytes(16).toString('hex');

export const newsletterDisabled = () => new AppError(403, 'newsletter_disabled', newsletterMessages.disabled);

export function statusOf(row: Pick<SubscriberRow, 'isActive' | 'confirmationTokenHash'>): SubscriberStatus {
  if (row.isActive) return 'active';
  return row.confirmationTokenHash ? 'pending' : 'inactive';
}

export function toAdminSubscriber(row: SubscriberRow): AdminSubscriber {
  return {
    _id: row.id,
    email: row.email,
    isActive: row.isActive,
    status: statusOf(row),
    source: row.source,
    createdAt: row.createdAt.toISOString(),
    lastEmailSent: row.lastEmailSent ? row.lastEmailSent.toISOString() : null,
  };
}

const statusFilters: Record<SubscriberStatus, SQL> = {
  active: eq(subscribers.isActive, true),
  inactive: and(eq(subscribers.isActive, false), isNull(subscribers.confirmationTokenHash)) as SQL,
  pending: and(eq(subscribers.isActive, false), isNotNull(subscribers.confirmationTokenHash)) as SQL,
};

/** The list's filter: search on the indexed lower(email) (trigram index), and the status. */
function whereOf({ search, statusFilter }: Pick<AdminSubscriberFilters, 'search' | 'statusFilter'>) {
  return and(
    search ? sql`lower(${subscribers.email}) LIKE ${containing(search.toLowerCase())}` : undefined,
    statusFilter ? statusFilters[statusFilter] : undefined,
  );
}

/** The list's order: ties by id, in the sort's direction, so pages never overlap. */
function orderOf({ sortBy, sortOrder }: Pick<AdminSubscriberFilters, 'sortBy' | 'sortOrder'>, matchesFirst = false) {
  const column = sortBy === 'email' ? sql`lower(${subscribers.email})` : subscribers.createdAt;
  return sortKeys([column, subscribers.id], sortOrder === 'asc' ? asc : desc, matchesFirst);
}

/**
 * The newsletter's subscribers (issue 12): the storefront's sign-up with double opt-in, the
 * one-click unsubscribe, and the back office's list, activate/deactivate, delete and export.
 * Each admin change and its audit row are one transaction; once committed it is a live event.
 */
export function createNewsletterService({
  db,
  mailer,
  settings,
  events,
  jobs,
  publicUrl,
}: {
  db: Db;
  mailer: Mailer;
  settings: SettingsService;
  events: DomainEvents;
  jobs: Jobs;
  publicUrl: string;
}) {
  function announce(type: 'newsletter_subscription' | 'newsletter_updated', row: SubscriberRow) {
    events.publish({
      type,
      data: { collection: 'newslettersubscribers', id: row.id, subscriber: toAdminSubscriber(row) },
    });
  }

  /**
   * The confirmation mail, sent by a job so that a sign-up answers at once and alike whatever
   * the address: the link's token is made here, and replaces the one the sign-up stored (the
   * stored hash is what the link must match; the token itself is kept nowhere).
   */
  const sendConfirmation = jobs.define<{ subscriberId: string }>(
    'newsletter.confirmation-mail',
    async ({ subscriberId }) => {
      const token = linkToken();
      const [row] = await db
        .update(subscribers)
        .set({ confirmationTokenHash: hashToken(token), confirmationSentAt: new Date() })
        .where(
          and(
            eq(subscribers.id, subscriberId),
            eq(subscribers.isActive, false),
            isNotNull(subscribers.confirmationTokenHash),
          ),
        )
        .returning();
      if (!row) return;
      const { siteName } = await settings.get();
      await mailer.send({
        to: row.email,
        template: 'newsletter-confirmation',
        subject: `Confirm your subscription to the ${siteName} newsletter`,
        text: `Hello,\n\nSomeone (hopefully you) asked to receive the ${siteName} newsletter at this address.\nConfirm it by opening this link within 7 days:\n\n${publicUrl}${newsletterPages.confirm}?token=${token}\n\nIf you did not ask for it, ignore this email: you will not be subscribed.\n`,
        secrets: [token],
      });
    },
  );

  /**
   * A sign-up (the footer form; source 'footer'). The answer is the same whether the address was
   * new, waiting or already subscribed. With requireEmailVerification on, the address waits
   * (inactive) for its owner's click; a repeated sign-up mails a new link at most every 10
   * minutes. One upsert: two sign-ups of the same address at once make one row.
   */
  async function subscribe(email: string, source: 'footer' | 'checkout' = 'footer') {
    const { enableNewsletter, requireEmailVerification } = await settings.get();
    if (!enableNewsletter) throw newsletterDisabled();
    const address = email.trim();
    const problem = validateEmail(address);
    if (problem) throw invalid('email', problem);
    if (requireEmailVerification) {
      const resendBefore = new Date(Date.now() - CONFIRMATION_RESEND_MS);
      const rows = await executeRows<{ id: string }>(
        db,
        sql`INSERT INTO ${subscribers} (id, email, is_active, source, unsubscribe_token, confirmation_token_hash, confirmation_sent_at)
            VALUES (${newId()}, ${address}, false, ${source}, ${newUnsubscribeToken()}, ${hashToken(linkToken())}, now())
            ON CONFLICT (lower(email)) DO UPDATE
              SET confirmation_token_hash = EXCLUDED.confirmation_token_hash, confirmation_sent_at = now()
              WHERE NOT ${subscribers}.is_active
                AND (${subscribers}.confirmation_sent_at IS NULL OR ${subscribers}.confirmation_sent_at < ${resendBefore.toISOString()}::timestamptz)
            RETURNING id`,
      );
      const id = rows[0]?.id;
      if (id) await sendConfirmation({ subscriberId: id });
      return { message: newsletterMessages.confirmationSent, confirmationRequired: true };
    }
    const rows = await executeRows<{ id: string }>(
      db,
      sql`INSERT INTO ${subscribers} (id, email, is_active, source, unsubscribe_token, confirmed_at)
          VALUES (${newId()}, ${address}, true, ${source}, ${newUnsubscribeToken()}, now())
          ON CONFLICT (lower(email)) DO UPDATE SET is_active = true, confirmation_token_hash = NULL
            WHERE NOT ${subscribers}.is_active
          RETURNING id`,
    );
    const id = rows[0]?.id;
    if (id) {
      const [row] = await db.select().from(subscribers).where(eq(subscribers.id, id));
      if (row) announce('newsletter_subscription', row);
    }
    return { message: newsletterMessages.subscribed, confirmationRequired: false };
  }

  /** The confirmation link's click: the waiting address becomes active; the link works once. */
  async function confirm(token: string) {
    const { enableNewsletter } = await settings.get();
    if (!enableNewsletter) throw newsletterDisabled();
    const [row] = await db
      .update(subscribers)
      .set({ isActive: true, confirmationTokenHash: null, confirmedAt: new Date() })
      .where(
        and(
          eq(subscribers.confirmationTokenHash, hashToken(token)),
          sql`${subscribers.confirmationSentAt} > ${new Date(Date.now() - CONFIRMATION_TTL_MS).toISOString()}::timestamptz`,
        ),
      )
      .returning();
    if (!row) throw new AppError(400, 'invalid_token', newsletterMessages.confirmationInvalid);
    announce('newsletter_subscription', row);
    return { message: newsletterMessages.confirmed };
  }

  /**
   * The unsubscribe link (one click, no sign-in; it works whatever the settings say). A second
   * click answers the same; a waiting confirmation is cancelled too.
   */
  async function unsubscribe(token: string) {
    // Consent withdrawn: a later sign-up of the address (by anyone) must be confirmed anew, and
    // no admin can switch it back on in its owner's place while confirmation is required.
    const [row] = await db
      .update(subscribers)
      .set({ isActive: false, confirmationTokenHash: null, confirmedAt: null })
      .where(
        and(
          eq(subscribers.unsubscribeToken, token),
          sql`(${subscribers.isActive} OR ${subscribers.confirmationTokenHash} IS NOT NULL)`,
        ),
      )
      .returning();
    if (row) {
      events.publish({
        type: 'newsletter_unsubscribed',
        data: { collection: 'newslettersubscribers', id: row.id, subscriber: toAdminSubscriber(row) },
      });
      return { message: newsletterMessages.unsubscribed };
    }
    const [known] = await db
      .select({ id: subscribers.id })
      .from(subscribers)
      .where(eq(subscribers.unsubscribeToken, token));
    if (!known) throw new AppError(404, 'invalid_token', newsletterMessages.unsubscribeInvalid);
    return { message: newsletterMessages.unsubscribed };
  }

  /** Spec 7: GET /api/admin/newsletter. */
  async function list(query: ListQuery) {
    const { page, limit } = query;
    const offset = (page - 1) * limit;
    const { rows, total, capped } = await countedPage({
      db,
      where: whereOf(query),
      table: subscribers,
      offset,
      searched: Boolean(query.search),
      limit,
      page: (filter, mode, window) => {
        const pageIds = pageIdsOf(db, subscribers.id, {
          where: filter,
          orderBy: orderOf(query, mode === 'matches'),
          limit,
          offset,
          window: mode === 'window' && window,
          countAll: mode === 'matches',
        });
        return db
          .select({ ...getTableColumns(subscribers), matches: pageIds.matches })
          .from(subscribers)
          .innerJoin(pageIds, eq(pageIds.id, subscribers.id))
          .orderBy(...orderOf(query));
      },
    });
    return { subscribers: rows.map(toAdminSubscriber), pagination: paginationOf(page, limit, total, capped) };
  }

  /**
   * The export's rows in the list's order, a batch at a time (keyset: each batch starts after
   * the last row of the one before), so memory stays flat however long the list.
   */
  async function* batches(filters: AdminSubscriberFilters, batchSize = 1000) {
    const descending = filters.sortOrder !== 'asc';
    const key = filters.sortBy === 'email' ? sql`lower(${subscribers.email})` : sql`${subscribers.createdAt}`;
    let cursor: { key: string; id: string } | null = null;
    for (;;) {
      const after: SQL | undefined = cursor
        ? descending
          ? sql`(${key}, ${subscribers.id}) < (${cursor.key}, ${cursor.id})`
          : sql`(${key}, ${subscribers.id}) > (${cursor.key}, ${cursor.id})`
        : undefined;
      // The key as text round-trips exactly (a timestamp's microseconds included).
      const keyText =
        filters.sortBy === 'email'
          ? sql<string>`lower(${subscribers.email})`
          : sql<string>`${subscribers.createdAt}::text`;
      const rows: { row: SubscriberRow; key: string }[] = await db
        .select({ row: subscribers, key: keyText })
        .from(subscribers)
        .where(and(whereOf(filters), after))
        .orderBy(...orderOf(filters))
        .limit(batchSize);
      if (rows.length === 0) return;
      yield rows.map(({ row }) => row);
      const last = rows[rows.length - 1];
      if (rows.length < batchSize || !last) return;
      cursor = { key: last.key, id: last.row.id };
    }
  }

  /** Audits an export of subscribers' addresses (personal data leaving the shop). */
  async function auditExport(actor: Actor, filters: AdminSubscriberFilters) {
    await db.insert(auditLog).values({
      actorUserId: actor.userId,
      action: 'newsletter.subscribers_exported',
      entityType: 'newsletter',
      entityId: null,
      details: { filters },
      ip: actor.ip,
    });
  }

  /**
   * Spec 4: Activate/Deactivate. While requireEmailVerification is on, an address that never
   * confirmed cannot be activated by hand (that would skip its owner's consent).
   */
  async function setActive(actor: Actor, id: string, isActive: boolean) {
    const { requireEmailVerification } = await settings.get();
    const result = await db.transaction(async (tx) => {
      const [before] = await tx.select().from(subscribers).where(eq(subscribers.id, id)).for('update');
      if (!before) throw notFound(`Subscriber not found: ${id}`);
      if (before.isActive === isActive) return { before, after: before };
      if (isActive && requireEmailVerification && before.confirmationTokenHash && !before.confirmedAt) {
        throw new AppError(
          409,
          'not_confirmed',
          'This address has not confirmed its subscription yet: it becomes active once its owner opens the confirmation link',
        );
      }
      const [after] = await tx
        .update(subscribers)
        .set({ isActive, confirmationTokenHash: null })
        .where(eq(subscribers.id, id))
        .returning();
      if (!after) throw notFound(`Subscriber not found: ${id}`);
      await tx.insert(auditLog).values({
        actorUserId: actor.userId,
        action: isActive ? 'newsletter.subscriber_activated' : 'newsletter.subscriber_deactivated',
        entityType: 'newsletter_subscriber',
        entityId: id,
        details: { email: before.email, before: { status: statusOf(before) }, after: { status: statusOf(after) } },
        ip: actor.ip,
      });
      return { before, after };
    });
    const subscriber = toAdminSubscriber(result.after);
    if (result.before !== result.after) announce('newsletter_updated', result.after);
    return { message: isActive ? 'Subscriber activated' : 'Subscriber deactivated', subscriber };
  }

  /** Deletes a subscriber (after the tab's confirm); the audit row keeps the address. */
  async function remove(actor: Actor, id: string) {
    await db.transaction(async (tx) => {
      const [row] = await tx.delete(subscribers).where(eq(subscribers.id, id)).returning();
      if (!row) throw notFound(`Subscriber not found: ${id}`);
      await tx.insert(auditLog).values({
        actorUserId: actor.userId,
        action: 'newsletter.subscriber_deleted',
        entityType: 'newsletter_subscriber',
        entityId: id,
        details: { email: row.email, before: { status: statusOf(row), source: row.source }, after: null },
        ip: actor.ip,
      });
    });
    events.publish({
      type: 'newsletter_unsubscribed',
      data: { collection: 'newslettersubscribers', id, deleted: true },
    });
    return { message: 'Subscriber deleted' };
  }

  return { subscribe, confirm, unsubscribe, list, batches, auditExport, setActive, remove };
}

export type NewsletterService = ReturnType<typeof createNewsletterService>;
