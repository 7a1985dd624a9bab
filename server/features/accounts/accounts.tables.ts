import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { type AdminPermissions, userRoles } from '#common/contracts/accounts.ts';
import { createdAt, idColumn, updatedAt } from '#server/db/columns.ts';

export const users = pgTable(
  'users',
  {
    id: idColumn(),
    username: text().notNull(),
    email: text().notNull(),
    /** argon2id in PHC string form; null for accounts that cannot sign in with a password. */
    passwordHash: text(),
    role: text({ enum: userRoles }).notNull().default('user'),
    adminPermissions: jsonb().$type<AdminPermissions>().notNull().default({}),
    emailVerifiedAt: timestamp({ withTimezone: true }),
    lastLoginAt: timestamp({ withTimezone: true }),
    /** Failed sign-ins since the last success; each one past a few makes the next wait longer. */
    failedLogins: integer().notNull().default(0),
    lastFailedLoginAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
    index('users_created_idx').on(t.createdAt),
    index('users_role_idx').on(t.role),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    /** SHA-256 of the random session id held in the cookie; the id itself is never stored. */
    idHash: text().primaryKey(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    userAgent: text(),
    ip: text(),
    createdAt: createdAt(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Absolute end of the session, whatever its activity. */
    expiresAt: timestamp({ withTimezone: true }).notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** One-use tokens mailed to a user: password reset and email verification. */
export const accountTokenPurposes = ['password_reset', 'email_verification'] as const;

export const accountTokens = pgTable(
  'account_tokens',
  {
    id: idColumn(),
    userId: text()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text({ enum: accountTokenPurposes }).notNull(),
    /** SHA-256 of the token sent by mail. */
    tokenHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_key').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.purpose),
  ],
);
