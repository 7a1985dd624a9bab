import * as z from 'zod/mini';
import { ADMIN_PAGE_SIZE } from '../../constants.ts';
import { AdminPermissions, UserRole } from '../accounts.ts';
import { Pagination } from '../pagination.ts';

/** The users tab's sortable columns (spec 2: search, sort, order toggle). */
export const adminUserSortFields = ['username', 'email', 'createdAt'] as const;

/** page and limit of every admin list, 10 a page by default (spec 7). */
export const AdminPageQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), ADMIN_PAGE_SIZE),
});

/** ...with the search and order of the searchable lists. */
export const AdminListQuery = z.extend(AdminPageQuery, {
  search: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  sortOrder: z._default(z.enum(['asc', 'desc']), 'desc'),
});

/** A user as the users tab lists them (spec 3, User). */
export const AdminUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  role: UserRole,
  isAdmin: z.boolean(),
  adminPermissions: AdminPermissions,
  createdAt: z.string(),
  lastLoginAt: z.nullable(z.string()),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const listAdminUsers = {
  method: 'GET',
  path: '/api/admin/users',
  query: z.extend(AdminListQuery, { sortBy: z._default(z.enum(adminUserSortFields), 'createdAt') }),
  response: z.object({ users: z.array(AdminUser), pagination: Pagination }),
} as const;

/** A user's id in a path: the ids are random hex, so anything else names no one. */
export const UserIdParam = z.object({
  id: z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(64)),
});

/** The users tab's Reset password (spec 2): mails the user the landed password-reset link. */
export const resetUserPassword = {
  method: 'POST',
  path: '/api/admin/users/:id/reset-password',
  params: UserIdParam,
  response: z.object({ message: z.string() }),
} as const;
