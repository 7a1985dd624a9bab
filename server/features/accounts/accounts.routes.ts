import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getCsrfToken, getMe, logout } from '#common/contracts/accounts.ts';
import type { createCsrfProtection } from '#server/http/csrf.ts';
import { type AccountsService, SESSION_COOKIE } from './accounts.service.ts';

type Deps = { csrf: ReturnType<typeof createCsrfProtection>; accounts: AccountsService };

export const accountsRoutes: FastifyPluginAsyncZod<Deps> = async (app, { csrf, accounts }) => {
  app.get(
    getCsrfToken.path,
    { schema: { tags: ['auth'], response: { 200: getCsrfToken.response } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return csrf.issueToken(request, reply);
    },
  );

  app.get(getMe.path, { schema: { tags: ['auth'], response: { 200: getMe.response } } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return request.user ? { authenticated: true as const, user: request.user } : { authenticated: false as const };
  });

  app.post(logout.path, { schema: { tags: ['auth'], response: { 200: logout.response } } }, async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    if (token) await accounts.deleteSession(token);
    reply.clearCookie(SESSION_COOKIE, { path: '/' });
    return { success: true as const };
  });
};
