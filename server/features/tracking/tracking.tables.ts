import { bigserial, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt } from '#server/db/columns.ts';

export const adEventStatuses = ['recorded', 'queued', 'sent', 'failed'] as const;

/**
 * Ad-tracking events the browser reported with the visitor's consent, as they are (or would be)
 * sent to the Events API: email, phone and external id already hashed. 'recorded': kept here
 * only (no Events API configured); 'queued' → 'sent', or 'failed' once the retries are spent.
 */
export const adEvents = pgTable(
  'ad_events',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    /** The browser's event id, the same the pixel sent: the ad service de-duplicates on it, and so do we. */
    eventId: text().notNull(),
    event: text().notNull(),
    eventTime: timestamp({ withTimezone: true }).notNull(),
    /** One `data[]` element of the Events API call. */
    payload: jsonb().$type<Record<string, unknown>>().notNull(),
    testEventCode: text(),
    status: text({ enum: adEventStatuses }).notNull(),
    attempts: integer().notNull().default(0),
    lastError: text(),
    sentAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('ad_events_event_id_idx').on(t.eventId), index('ad_events_created_idx').on(t.createdAt, t.event)],
);
