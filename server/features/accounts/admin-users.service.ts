import { asc, desc, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type * as z from 'zod/mini';
import type { AdminUser, listAdminUsers } from '#common/contracts/admin/users.ts';
import { paginationOf } from '#common/contracts/pagination.ts';
import type { Db } from '#server/db/client.ts';
import {
  countedPage,
  firstPageOf,
  type PageStatementShape,
  pageIdsPlaceholderOf,
  sortKeys,
} from '#server/db/counted-page.ts';
import { containing } from '#server/db/like-pattern.ts';
import { countRows, rowCountsSum } from '#server/db/row-counts.ts';
import { statementPerShape } from '#server/db/statement-shapes.ts';
import { loadEachTime, type Remember } from '#server/http/remembered-values.ts';
import { userSearchText, users } from './accounts.tables.ts';

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

/** Users sort by these, names whatever their case, by code point (one order on every database). */
const sortColumns = {
  username: sql`lower(${users.username}) COLLATE "C"`,
  email: sql`lower(${users.email}) COLLATE "C"`,
  createdAt: users.createdAt,
} as const;

type PageShape = Pick<ListQuery, 'sortBy' | 'sortOrder'> & PageStatementShape;

/** Users whose name or email holds the search (`pattern`, lower case: a placeholder or a value). */
function searchedFor(pattern: string | Placeholder): SQL {
  return sql`${userSearchText(users)} LIKE ${pattern}`;
}

/** The users tab of the back office (spec 2 and 7): every account, searched, sorted, a page at a time. */
export function createAdminUsersService({
  db,
  remember = loadEachTime,
}: {
  db: Db;
  /** Keeps a searched page's ids for the readers after it (countedPage's `remembered`); without it each searches. */
  remember?: Remember;
}) {
  /** A page of users, its ids read first; ties keep one order (the id). */
  const pageStatement = statementPerShape(
    'admin_users',
    ({ sortBy, sortOrder, searched, mode, firstPage }: PageShape, name) => {
      const keys = [sortColumns[sortBy], users.id];
      const direction = sortOrder === 'asc' ? asc : desc;
      const pageIds = pageIdsPlaceholderOf(db, users.id, {
        where: searched ? searchedFor(sql.placeholder('pattern')) : undefined,
        keys,
        direction,
        mode,
        firstPage,
        total: rowCountsSum(),
      });
      return db
        .select({ ...adminUserColumns, matches: pageIds.matches })
        .from(users)
        .innerJoin(pageIds, eq(pageIds.id, users.id))
        .orderBy(...sortKeys(keys, direction))
        .prepare(name);
    },
  );

  async function list(query: ListQuery) {
    const { page, limit, search, sortBy, sortOrder } = query;
    const pattern = search ? containing(search.toLowerCase()) : undefined;
    const offset = (page - 1) * limit;
    const { rows, total, capped } = await countedPage({
      db,
      where: pattern === undefined ? undefined : searchedFor(pattern),
      table: users,
      offset,
      searched: pattern !== undefined,
      limit,
      // Unsearched, the rollup has the count, read with the page.
      ...(pattern === undefined ? { countMatches: () => countRows(db, ['users']), totalInPage: true } : {}),
      remembered: { remember, key: `admin-users:${JSON.stringify(query)}` },
      page: (_filter, mode, window, ids) =>
        pageStatement({
          sortBy,
          sortOrder,
          searched: pattern !== undefined,
          mode,
          firstPage: firstPageOf(offset, limit, pattern === undefined),
        }).execute({ pattern, limit, offset, window, ids, scopes: ['users'] }),
    });
    return { users: rows.map(toAdminUser), pagination: paginationOf(page, limit, total, capped) };
  }

  return { list };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
