import { jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import { updatedAt } from '#server/db/columns.ts';

/** System settings, one row per key; secret values are stored encrypted (see settings service). */
export const settings = pgTable('settings', {
  key: text().primaryKey(),
  value: jsonb().$type<unknown>().notNull(),
  updatedAt: updatedAt(),
});

/** Secrets the instance generates for itself when they are not configured (e.g. the signing key). */
export const instanceSecrets = pgTable('instance_secrets', {
  name: text().primaryKey(),
  value: text().notNull(),
});
