import type { FastifyInstance } from 'fastify';
import { type AdminAccess, deniedMessages, hasAccess } from '#common/permissions.ts';
import { forbidden, unauthorized } from './errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call an admin route (common/permissions.ts); any admin when not given. */
    access?: AdminAccess;
    /** The sentence a signed-in user without the access is told, when the route has its own (spec 6). */
    deniedMessage?: string;
  }
}

/**
 * Where the admin routes live (spec 7: the lists and settings, admin management, the live
 * events' stream, the sales tab's /api/sales, and the marketplace calls under /api/aliexpress/);
 * the general rate limit leaves them to the admin limit, but for the public paths below.
 */
export const ADMIN_API_PREFIXES = [
  '/api/admin/',
  '/api/admin-setup/',
  '/api/atlas/',
  '/api/sales',
  '/api/aliexpress/',
  '/api/tiktok-shop/',
] as const;

/**
 * Public routes under an admin prefix (the storefront's marketplace refresh, the social shop's
 * OAuth callback and webhook): the general limit counts them (the webhook is exempt by its route).
 */
export const PUBLIC_PATHS_UNDER_ADMIN_PREFIXES: readonly string[] = [
  '/api/aliexpress/refresh',
  '/api/tiktok-shop/callback',
  '/api/tiktok-shop/webhook',
];

/** Whether a request URL is the admin API's (under an admin prefix, and not one of its public paths). */
export function isAdminApiUrl(url: string): boolean {
  const path = url.split('?', 1)[0] ?? url;
  if (PUBLIC_PATHS_UNDER_ADMIN_PREFIXES.some((open) => path === open || path === `${open}/`)) return false;
  return ADMIN_API_PREFIXES.some((prefix) => url.startsWith(prefix));
}

/**
 * Guards every route of the scope by the permission table: a visitor gets 401, a signed-in user
 * without the route's access 403 with the spec's sentence. It reads `request.user`, which the
 * session hook resolves from the database on every request, so a demoted admin loses the access
 * at once. Register it inside the scope that resolves sessions.
 */
export function requireAdminAccess(app: FastifyInstance) {
  // Before validation: a caller without the access learns nothing of a route's schema.
  app.addHook('preValidation', (request, _reply, done) => {
    const access = request.routeOptions.config.access ?? 'admin';
    if (!request.user) return done(unauthorized());
    if (!hasAccess(request.user, access)) {
      return done(forbidden(request.routeOptions.config.deniedMessage ?? deniedMessages[access]));
    }
    done();
  });
}
