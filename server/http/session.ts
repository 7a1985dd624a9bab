import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '#common/contracts/accounts.ts';
import { SESSION_COOKIE, type SessionStore } from '#server/features/accounts/sessions.ts';
import { unauthorized } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for a visitor. */
    user: SessionUser | null;
  }
}

/** Resolves the session cookie of every request in the scope into request.user. */
export function resolveSessions(app: FastifyInstance, sessions: SessionStore) {
  app.decorateRequest('user', null);
  app.addHook('preHandler', async (request) => {
    const token = request.cookies[SESSION_COOKIE];
    request.user = token ? await sessions.findUser(token) : null;
  });
}

/** The signed-in user, or a 401 that the storefront turns into a redirect to the login page. */
export function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw unauthorized();
  return user;
}
