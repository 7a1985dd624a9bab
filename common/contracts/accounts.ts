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

/** Free text as typed; the account rules (common/account-rules.ts) check it on both sides. */
const typed = (max: number) => z.string().check(z.maxLength(max));

const UserResponse = z.object({ message: z.string(), user: SessionUser });

export const register = {
  method: 'POST',
  path: '/api/auth/register',
  body: z.object({ username: typed(100), email: typed(320), password: typed(1024) }),
  /** `user` is absent when the email must be verified first (the shop's requireEmailVerification setting). */
  response: z.object({ message: z.string(), user: z.optional(SessionUser), verificationRequired: z.boolean() }),
} as const;

export const login = {
  method: 'POST',
  path: '/api/auth/login',
  body: z.object({ email: typed(320), password: typed(1024) }),
  response: UserResponse,
} as const;

/**
 * A new email takes effect only once confirmed: the change needs the current password, the new
 * address receives a confirmation link (POST /api/auth/verify-email) and the old one a notice.
 * Until then `user.email` stays the old address and `pendingEmail` names the new one.
 */
export const updateProfile = {
  method: 'PUT',
  path: '/api/auth/profile',
  body: z.object({ username: typed(100), email: typed(320), currentPassword: z.optional(typed(1024)) }),
  response: z.object({ message: z.string(), user: SessionUser, pendingEmail: z.optional(z.string()) }),
} as const;

export const changePassword = {
  method: 'PUT',
  path: '/api/auth/change-password',
  body: z.object({ currentPassword: typed(1024), newPassword: typed(1024) }),
  response: z.object({ message: z.string() }),
} as const;

/** Confirms an address: a new account's, or the new address of an email change. */
export const verifyEmail = {
  method: 'POST',
  path: '/api/auth/verify-email',
  body: z.object({ token: typed(200) }),
  response: z.object({ message: z.string() }),
} as const;

export const requestPasswordReset = {
  method: 'POST',
  path: '/api/password-reset/request',
  body: z.object({ email: typed(320) }),
  response: z.object({ message: z.string() }),
} as const;

export const verifyResetToken = {
  method: 'GET',
  path: '/api/password-reset/verify/:token',
  params: z.object({ token: typed(200) }),
  response: z.object({ email: z.string() }),
} as const;

export const resetPassword = {
  method: 'POST',
  path: '/api/password-reset/reset',
  body: z.object({ token: typed(200), password: typed(1024) }),
  response: z.object({ message: z.string() }),
} as const;
