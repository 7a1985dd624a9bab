import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createAdmin, removeAdmin, updateAdminPermissions } from '#common/contracts/admin/admin-setup.ts';
import { listAdminUsers, resetUserPassword } from '#common/contracts/admin/users.ts';
import type { AccountsService } from './accounts.service.ts';
import type { AdminManagementService } from './admin-management.service.ts';
import type { AdminUsersService } from './admin-users.service.ts';

/** The accounts feature's admin routes (back office, users tab): inside the admin scope of app.ts. */
export const accountsAdminRoutes: FastifyPluginAsyncZod<{
  adminUsers: AdminUsersService;
  adminManagement: AdminManagementService;
  accounts: AccountsService;
}> = async (app, { adminUsers, adminManagement, accounts }) => {
  const tags = ['admin'];
  app.get(
    listAdminUsers.path,
    {
      config: { access: 'manageUsers' },
      schema: { tags, querystring: listAdminUsers.query, response: { 200: listAdminUsers.response } },
    },
    async (request) => adminUsers.list(request.query),
  );

  const actor = (request: { user: { id: string } | null; ip: string }) => ({
    userId: request.user?.id ?? '',
    ip: request.ip,
  });
  app.post(
    resetUserPassword.path,
    {
      config: { access: 'manageUsers' },
      schema: { tags, params: resetUserPassword.params, response: { 200: resetUserPassword.response } },
    },
    async (request) => accounts.sendPasswordResetFor(actor(request), request.params.id),
  );

  // Admin management (spec 6): the owner's alone. The admin scope has checked the session.
  const owner = { config: { access: 'owner' as const } };
  app.post(
    createAdmin.path,
    { ...owner, schema: { tags, body: createAdmin.body, response: { 200: createAdmin.response } } },
    async (request) => adminManagement.promote(actor(request), request.body.userId, request.body.permissions),
  );
  app.post(
    removeAdmin.path,
    { ...owner, schema: { tags, body: removeAdmin.body, response: { 200: removeAdmin.response } } },
    async (request) => adminManagement.remove(actor(request), request.body.userId),
  );
  app.post(
    updateAdminPermissions.path,
    {
      ...owner,
      schema: { tags, body: updateAdminPermissions.body, response: { 200: updateAdminPermissions.response } },
    },
    async (request) => adminManagement.updatePermissions(actor(request), request.body.userId, request.body.permissions),
  );
};
