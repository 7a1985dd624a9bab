import { text, timestamp } from 'drizzle-orm/pg-core';
import { newId } from './ids.ts';

/** Primary key of 16 hex characters, generated on insert unless given. */
export const idColumn = () => text().primaryKey().$defaultFn(newId);

export const createdAt = () => timestamp({ withTimezone: true }).notNull().defaultNow();
export const updatedAt = () =>
  timestamp({ withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());
