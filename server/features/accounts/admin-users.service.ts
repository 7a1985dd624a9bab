import { asc, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import type * as z from 'zod/mini';
import type { AdminUser, listAdminUsers } from '#common/contracts/admin/users.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import type { Db } from '#server/db/client.ts';
import { countedPage, pageIdsOf, sortKeys } from '#server/db/counted-page.ts';
import { containing } from '#server/db/like-pattern.ts';
import { countRows } from '#server/db/row-counts.ts';
import { users } from './accounts.tables.ts';

type ListQuery = z.output<typeof listAdminUsers.query>;

/** The columns a user is listed with. */
export const adminUserColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  role: users.role,
  adminPermissions: users.adminPermissions,
  createdAt: users.createdAt,
  lastLoginAt: users.lastLoginAt,
};

type AdminUserRow = Pick<
  typeof users.$inferSelect,
  'id' | 'username' | 'email' | 'role' | 'adminPermissions' | 'createdAt' | 'lastLoginAt'
>;

/** A user as the back office shows them. */
export function toAdminUser(row: AdminUserRow): AdminUser {
  return {
    id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    isAdmin: row.role !== 'user',
    // The owner has every permission by role; only an admin's own are stored and shown.
    adminPermissions: row.role === 'admin' ? row.adminPermissions : {},
    createdAt: row.createdAt.toISOString(),
    lastLoginAt: row.lastLoginAt?.toISOString() ?? null,
  };
}

/** The users tab of the back office (spec 2 and 7): every account, searched, sorted, a page at a time. */
export function createAdminUsersService({ db }: { db: Db }) {
  async function list({ page, limit, search, sortBy, sortOrder }: ListQuery) {
    const where: SQL | undefined = search
      ? or(ilike(users.username, containing(search)), ilike(users.email, containing(search)))
      : undefined;
    // Names sort whatever their case, by code point (the same order on every database, whatever
    // its locale); ties keep one order (the id).
    const column = {
      username: sql`lower(${users.username}) COLLATE "C"`,
      email: sql`lower(${users.email}) COLLATE "C"`,
      createdAt: users.createdAt,
    }[sortBy];
    const direction = sortOrder === 'asc' ? asc : desc;
    const offset = (page - 1) * limit;
    const { rows, total, capped } = await countedPage({
      db,
      where,
      table: users,
      offset,
      searched: Boolean(search),
      limit,
      // Unsearched, the rollup has the count.
      ...(search ? {} : { countMatches: () => countRows(db, ['users']) }),
      page: (filter, mode, window) => {
        const orderBy = sortKeys([column, users.id], direction, mode === 'matches');
        const pageIds = pageIdsOf(db, users.id, {
          where: filter,
          orderBy,
          limit,
          offset,
          window: mode === 'window' && window,
          countAll: mode === 'matches',
        });
        return db
          .select({ ...adminUserColumns, matches: pageIds.matches })
          .from(users)
          .innerJoin(pageIds, eq(pageIds.id, users.id))
          .orderBy(...sortKeys([column, users.id], direction));
      },
    });
    return { users: rows.map(toAdminUser), pagination: paginationOf(page, limit, total, capped) };
  }

  return { list };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
