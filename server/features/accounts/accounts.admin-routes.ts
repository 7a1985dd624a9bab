import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listAdminUsers } from '#common/contracts/admin/users.ts';
import type { AdminUsersService } from './admin-users.service.ts';

/** The accounts feature's admin routes (back office, users tab): inside the admin scope of app.ts. */
export const accountsAdminRoutes: FastifyPluginAsyncZod<{ adminUsers: AdminUsersService }> = async (
  app,
  { adminUsers },
) => {
  const tags = ['admin'];
  app.get(
    listAdminUsers.path,
    {
      config: { access: 'manageUsers' },
      schema: { tags, querystring: listAdminUsers.query, response: { 200: listAdminUsers.response } },
    },
    async (request) => adminUsers.list(request.query),
  );
};
