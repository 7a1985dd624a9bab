import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getDashboard } from '#common/contracts/admin/dashboard.ts';
import type { DashboardService } from './dashboard.service.ts';

/** The dashboard tab's data, for every admin (spec 6): inside the admin scope of app.ts. */
export const dashboardAdminRoutes: FastifyPluginAsyncZod<{ dashboard: DashboardService }> = async (
  app,
  { dashboard },
) => {
  app.get(
    getDashboard.path,
    { schema: { tags: ['admin'], querystring: getDashboard.query, response: { 200: getDashboard.response } } },
    async (request) => dashboard.read(request.query.timeRange),
  );
};
