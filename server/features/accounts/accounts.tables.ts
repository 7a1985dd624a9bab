import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
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
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_key').on(sql`lower(${t.email})`),
    uniqueIndex('users_username_key').on(sql`lower(${t.username})`),
    // The users tab's default sort, with its tie-breaker: a late page reads the index alone.
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_role_idx').on(t.role),
    // The users tab's sorts by name and email (case aside, by code point, ties by id) and its
    // search (LIKE '%text%' on userSearchText).
    index('users_username_sort_idx').on(sql`lower(${t.username}) COLLATE "C"`, t.id),
    index('users_email_sort_idx').on(sql`lower(${t.email}) COLLATE "C"`, t.id),
    index('users_search_trgm_idx').using('gin', sql`${userSearchText(t)} gin_trgm_ops`),
  ],
);

/**
 * What the users tab searches (username, email), case aside: one expression indexed with
 * trigrams, so that a search reads one index once (a trigram index on each column was two reads,
 * OR-ed, and two checks of each row a search's window looks at).
 */
export function userSearchText(t: { username: AnyPgColumn; email: AnyPgColumn }) {
  return sql`lower(${t.username} || ' ' || ${t.email})`;
}

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

/** One-use tokens mailed to a user: password reset, email verification and the confirmation of a new email. */
export const accountTokenPurposes = ['password_reset', 'email_verification', 'email_change'] as const;

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
    /** The address an email_change token confirms; it replaces the account's email once the link is opened. */
    newEmail: text(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('account_tokens_hash_key').on(t.tokenHash),
    index('account_tokens_user_idx').on(t.userId, t.purpose),
  ],
);

/**
 * Attempt counters that must hold under concurrency (sign-in backoff, password checks, mail caps):
 * every change is one conditional upsert, so parallel requests cannot all pass a check.
 */
export const attemptCounters = pgTable(
  'attempt_counters',
  {
    /** What is counted, for whom: 'login:<sha-256 of the email>', 'password:<user id>'... */
    key: text().notNull(),
    /** The client address the count belongs to; '*' for the count over every client. */
    client: text().notNull(),
    count: integer().notNull(),
    /** Start of the current window, for counts per period. */
    windowStartedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.client] }), index('attempt_counters_last_idx').on(t.lastAt)],
);
