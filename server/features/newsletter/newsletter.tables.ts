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
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('newsletter_subscribers_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('newsletter_subscribers_token_key').on(t.unsubscribeToken),
    index('newsletter_subscribers_created_idx').on(t.createdAt),
  ],
);

/** A newsletter as sent to the active subscribers. */
export const newsletterIssues = pgTable('newsletter_issues', {
  id: idColumn(),
  subject: text().notNull(),
  content: text().notNull(),
  recipientCount: integer().notNull().default(0),
  sentByUserId: text(),
  createdAt: createdAt(),
});
