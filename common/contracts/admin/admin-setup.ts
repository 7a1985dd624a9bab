import * as z from 'zod/mini';
import { AdminPermissions } from '../accounts.ts';
import { AdminUser } from './users.ts';

const UserId = z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(64));
/** A user and the permissions they are to have. */
const UserPermissions = z.object({ userId: UserId, permissions: AdminPermissions });

/** What an admin-management call answers: the spec's success sentence and the user as it now is. */
const AdminChange = z.object({ message: z.string(), user: AdminUser });

/**
 * Spec 7, admin rights (owner only). The permissions are the four of spec 3; `owner` or any other
 * name is refused (spec 6: owner is reserved for the owner role).
 */
export const createAdmin = {
  method: 'POST',
  path: '/api/admin-setup/create-admin',
  body: UserPermissions,
  response: AdminChange,
} as const;

export const removeAdmin = {
  method: 'POST',
  path: '/api/admin-setup/remove-admin',
  body: z.object({ userId: UserId }),
  response: AdminChange,
} as const;

export const updateAdminPermissions = {
  method: 'POST',
  path: '/api/admin-setup/update-permissions',
  body: UserPermissions,
  response: AdminChange,
} as const;

/** Spec 8: the admin-management tab's success sentences. */
export const adminSetupMessages = {
  promoted: 'User promoted to admin successfully',
  removed: 'Admin privileges removed successfully',
  updated: 'Permissions updated successfully',
  ownerProtected: 'Cannot modify owner permissions',
} as const;
