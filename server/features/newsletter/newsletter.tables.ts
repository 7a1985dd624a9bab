import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from '#server/db/columns.ts';

export const newsletterSubscribers = pgTable(
  'newsletter_subscribers',
  {
    id: idColumn(),
    email: text().notNull(),
    isActive: boolean().notNull().default(true),
    /** Where the address was given: 'checkout', 'footer', 'admin'. */
    source: text().notNull().default('checkout'),
    /** Random token for the one-click unsubscribe link. */
    unsubscribeToken: text().notNull(),
    lastEmailSent: timestamp({ withTimezone: true }),
    /**
     * Double opt-in: SHA-256 of the one-use confirmation token while the address waits for its
     * owner's click (the subscriber stays inactive meanwhile); null once confirmed or when none was asked.
     */
    confirmationTokenHash: text(),
    /** When the last confirmation mail went out: a repeated sign-up resends only after a pause. */
    confirmationSentAt: timestamp({ withTimezone: true }),
    confirmedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('newsletter_subscribers_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('newsletter_subscribers_token_key').on(t.unsubscribeToken),
    uniqueIndex('newsletter_subscribers_confirmation_key').on(t.confirmationTokenHash),
    index('newsletter_subscribers_created_idx').on(t.createdAt, t.id),
    index('newsletter_subscribers_active_created_idx').on(t.isActive, t.createdAt, t.id),
    index('newsletter_subscribers_email_trgm_idx').using('gin', sql`lower(${t.email}) gin_trgm_ops`),
  ],
);

/** A send's state: 'cancelled' when the newsletter was switched off while it ran. */
export const newsletterIssueStatuses = ['queued', 'sending', 'sent', 'cancelled'] as const;

/** A newsletter as sent to the active subscribers, with the progress of its send job. */
export const newsletterIssues = pgTable(
  'newsletter_issues',
  {
    id: idColumn(),
    subject: text().notNull(),
    content: text().notNull(),
    /** Subscribers the issue goes to, fixed when the job starts. */
    recipientCount: integer().notNull().default(0),
    sentCount: integer().notNull().default(0),
    failedCount: integer().notNull().default(0),
    /** Rows from before the send job existed were sent in one go, hence the default. */
    status: text({ enum: newsletterIssueStatuses }).notNull().default('sent'),
    sentByUserId: text(),
    startedAt: timestamp({ withTimezone: true }),
    finishedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('newsletter_issues_created_idx').on(t.createdAt)],
);

/**
 * queued (the recipient list, written when the job starts), claimed (about to be handed to the
 * mailer), then sent or failed; skipped when the subscriber left before their turn.
 */
export const newsletterDeliveryStatuses = ['queued', 'claimed', 'sent', 'failed', 'skipped'] as const;

/**
 * One row per (issue, subscriber), written before the mail is handed to the mailer: the unique
 * key is what keeps a resumed job from mailing anyone twice.
 */
export const newsletterDeliveries = pgTable(
  'newsletter_deliveries',
  {
    issueId: text()
      .notNull()
      .references(() => newsletterIssues.id, { onDelete: 'cascade' }),
    subscriberId: text().notNull(),
    email: text().notNull(),
    status: text({ enum: newsletterDeliveryStatuses }).notNull().default('claimed'),
    error: text(),
    claimedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('newsletter_deliveries_issue_subscriber_key').on(t.issueId, t.subscriberId),
    index('newsletter_deliveries_issue_status_idx').on(t.issueId, t.status),
  ],
);
