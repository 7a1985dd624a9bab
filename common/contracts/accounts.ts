import * as z from 'zod/mini';

/** The four admin permissions of the back office (the owner has them all). */
export const adminPermissionNames = ['uploadProducts', 'downloadXlsx', 'manageUsers', 'manageNewsletters'] as const;
export type AdminPermissionName = (typeof adminPermissionNames)[number];

export const AdminPermissions = z.partialRecord(z.enum(adminPermissionNames), z.boolean());
export type AdminPermissions = z.infer<typeof AdminPermissions>;

export const userRoles = ['owner', 'admin', 'user'] as const;
export const UserRole = z.enum(userRoles);
export type UserRole = z.infer<typeof UserRole>;

/** The signed-in user as the storefront and back office see it. */
export const SessionUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  isAdmin: z.boolean(),
  role: UserRole,
  adminPermissions: AdminPermissions,
});
export type SessionUser = z.infer<typeof SessionUser>;

export const Me = z.discriminatedUnion('authenticated', [
  z.object({ authenticated: z.literal(false) }),
  z.object({ authenticated: z.literal(true), user: SessionUser }),
]);
export type Me = z.infer<typeof Me>;

export const getMe = { method: 'GET', path: '/api/auth/me', response: Me } as const;

export const CsrfToken = z.object({
  token: z.string(),
  /** Seconds until the token expires. */
  expiresIn: z.int().check(z.positive()),
});
export type CsrfToken = z.infer<typeof CsrfToken>;

export const getCsrfToken = { method: 'GET', path: '/api/auth/csrf-token', response: CsrfToken } as const;

export const logout = {
  method: 'POST',
  path: '/api/auth/logout',
  response: z.object({ success: z.literal(true) }),
} as const;
