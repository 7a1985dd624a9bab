import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listAuditLog } from '#common/contracts/admin/audit.ts';
import type { AuditService } from './audit.service.ts';

/** The audit log's reader (owner only): inside the admin scope of app.ts. */
export const auditAdminRoutes: FastifyPluginAsyncZod<{ audit: AuditService }> = async (app, { audit }) => {
  app.get(
    listAuditLog.path,
    {
      config: { access: 'owner' },
      schema: { tags: ['admin'], querystring: listAuditLog.query, response: { 200: listAuditLog.response } },
    },
    async (request) => audit.list(request.query),
  );
};
