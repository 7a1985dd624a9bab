import type { FastifyInstance } from 'fastify';
import type { SessionUser } from '#common/contracts/accounts.ts';
import { unauthorized } from './errors.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in user, or null for a visitor. */
    user: SessionUser | null;
  }
}

/** The cookie that carries a signed-in browser's session token. */
export const SESSION_COOKIE = 'sw_session';

/** The signed-in user of a session token, or null (the accounts feature's session store answers it). */
export type FindSessionUser = (token: string) => Promise<SessionUser | null>;

/** Resolves the session cookie of every request in the scope into request.user. */
export function resolveSessions(app: FastifyInstance, findUser: FindSessionUser) {
  app.decorateRequest('user', null);
  // Before validation, so that the admin guard answers 401 or 403 before a body's schema is
  // checked. A callback hook: a visitor without a session (most requests) goes on without a promise.
  app.addHook('preValidation', (request, _reply, done) => {
    const token = request.cookies[SESSION_COOKIE];
    if (!token) return done();
    findUser(token).then(
      (user) => {
        request.user = user;
        done();
      },
      (error: Error) => done(error),
    );
  });
}

/** The signed-in user, or a 401 that the storefront turns into a redirect to the login page. */
export function requireUser(user: SessionUser | null): SessionUser {
  if (!user) throw unauthorized();
  return user;
}
