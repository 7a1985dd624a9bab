import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  activateSale,
  createSale,
  deactivateSale,
  deleteSale,
  listAdminSales,
  listSaleTargets,
  updateSale,
} from '#common/contracts/admin/sales.ts';
import type { SalesAdminService } from './sales-admin.service.ts';

/**
 * The sales tab (spec 2 and 7: GET /api/sales?dateRange=30d; permission uploadProducts), inside
 * the admin scope of app.ts: the list, the create-sale form's target picker, and the writes the
 * spec leaves unwired (create, edit, activate and deactivate, delete).
 */
export const salesAdminRoutes: FastifyPluginAsyncZod<{ salesAdmin: SalesAdminService }> = async (
  app,
  { salesAdmin },
) => {
  const tags = ['admin'];
  const config = { access: 'uploadProducts' as const };
  const actor = (request: { user: { id: string } | null; ip: string }) => ({
    userId: request.user?.id ?? '',
    ip: request.ip,
  });

  app.get(
    listAdminSales.path,
    { config, schema: { tags, querystring: listAdminSales.query, response: { 200: listAdminSales.response } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return salesAdmin.list(request.query);
    },
  );
  app.get(
    listSaleTargets.path,
    { config, schema: { tags, querystring: listSaleTargets.query, response: { 200: listSaleTargets.response } } },
    async (request) => ({ targets: await salesAdmin.targets(request.query.type, request.query.search) }),
  );
  app.post(
    createSale.path,
    { config, schema: { tags, body: createSale.body, response: { 201: createSale.response } } },
    async (request, reply) => reply.code(201).send(await salesAdmin.create(actor(request), request.body)),
  );
  app.patch(
    updateSale.path,
    {
      config,
      schema: { tags, params: updateSale.params, body: updateSale.body, response: { 200: updateSale.response } },
    },
    async (request) => salesAdmin.update(actor(request), request.params.id, request.body),
  );
  app.patch(
    activateSale.path,
    { config, schema: { tags, params: activateSale.params, response: { 200: activateSale.response } } },
    async (request) => salesAdmin.setActive(actor(request), request.params.id, true),
  );
  app.patch(
    deactivateSale.path,
    { config, schema: { tags, params: deactivateSale.params, response: { 200: deactivateSale.response } } },
    async (request) => salesAdmin.setActive(actor(request), request.params.id, false),
  );
  app.delete(
    deleteSale.path,
    { config, schema: { tags, params: deleteSale.params, response: { 200: deleteSale.response } } },
    async (request) => salesAdmin.remove(actor(request), request.params.id),
  );
};
