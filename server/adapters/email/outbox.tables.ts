import { index, integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { createdAt, idColumn } from '#server/db/columns.ts';

export const emailStatuses = ['queued', 'sent', 'failed'] as const;

/** Every email the shop sends. Without SMTP the outbox is where mail ends up (readable in the back office). */
export const emailOutbox = pgTable(
  'email_outbox',
  {
    id: idColumn(),
    to: text().notNull(),
    subject: text().notNull(),
    text: text().notNull(),
    html: text(),
    /** What kind of mail it is: 'password-reset', 'order-confirmation', 'newsletter'... */
    template: text().notNull(),
    status: text({ enum: emailStatuses }).notNull().default('queued'),
    attempts: integer().notNull().default(0),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('email_outbox_created_idx').on(t.createdAt),
    index('email_outbox_status_idx').on(t.status, t.createdAt),
  ],
);
