import type { AdminPermissionName, SessionUser } from './contracts/accounts.ts';

/**
 * The back office's permission table (back-office spec, section 6): one table that the admin app
 * reads to show tabs and the server reads to guard every admin route.
 */

/** The tab ids, in the spec's order (section 2). */
export const adminTabs = [
  'dashboard',
  'products',
  'users',
  'orders',
  'reviews',
  'newsletter',
  'sales',
  'tiktok-shop',
  'admin-management',
  'settings',
] as const;
export type AdminTab = (typeof adminTabs)[number];

/** What a tab or an admin route needs: any admin, one permission, or the owner. */
export type AdminAccess = 'admin' | AdminPermissionName | 'owner';

/** Spec 6: dashboard and reviews for every admin; the gated tabs by their permission; two tabs for the owner only. */
export const tabAccess: Record<AdminTab, AdminAccess> = {
  dashboard: 'admin',
  reviews: 'admin',
  users: 'manageUsers',
  orders: 'downloadXlsx',
  products: 'uploadProducts',
  sales: 'uploadProducts',
  'tiktok-shop': 'uploadProducts',
  newsletter: 'manageNewsletters',
  'admin-management': 'owner',
  settings: 'owner',
};

/** Spec 6: the permission labels, as the admin-management tab shows them. */
export const permissionLabels: Record<AdminPermissionName, string> = {
  uploadProducts: 'Manage Products & Sales',
  downloadXlsx: 'Download XLSX Data',
  manageUsers: 'Manage User Accounts',
  manageNewsletters: 'Manage Newsletters & Subscribers',
};

/** The permissions in the spec's order, as plain data: browser code lists them without loading zod. */
export const permissionNames = Object.keys(permissionLabels) as AdminPermissionName[];

/**
 * What a signed-in user without the access is told (spec 6 where it gives the sentence; the
 * manageUsers and manageNewsletters sentences follow its pattern).
 */
export const deniedMessages: Record<AdminAccess, string> = {
  admin: 'Admin access required',
  owner: 'Only the owner can access admin management features.',
  uploadProducts: "You don't have permission to manage products.",
  downloadXlsx: "You don't have permission to export data.",
  manageUsers: "You don't have permission to manage users.",
  manageNewsletters: "You don't have permission to manage newsletters.",
};

/** Spec 6: a permission named owner is reserved for the owner role; it can never be granted. */
export const RESERVED_PERMISSION = 'owner';

type Who = Pick<SessionUser, 'role' | 'isAdmin' | 'adminPermissions'> | null;

/** Whether a signed-in user (or a visitor, null) has the access: the owner has all, non-admins none. */
export function hasAccess(user: Who, access: AdminAccess): boolean {
  if (!user?.isAdmin) return false;
  if (user.role === 'owner') return true;
  if (access === 'owner') return false;
  if (access === 'admin') return true;
  return user.adminPermissions[access] === true;
}

/** The tabs a user sees, in the spec's order. */
export function visibleTabs(user: Who): AdminTab[] {
  return adminTabs.filter((tab) => hasAccess(user, tabAccess[tab]));
}
