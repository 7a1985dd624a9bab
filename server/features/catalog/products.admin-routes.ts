import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createAdminProduct,
  deleteAdminProduct,
  getAdminProduct,
  listAdminCategories,
  listAdminProducts,
  updateAdminProduct,
} from '#common/contracts/admin/products.ts';
import type { ProductsAdminService } from './products-admin.service.ts';

/**
 * The products tab (spec 2 and 7; permission uploadProducts), inside the admin scope of app.ts:
 * the list, one product, the categories to pick from, and create, edit and delete.
 */
export const productsAdminRoutes: FastifyPluginAsyncZod<{ productsAdmin: ProductsAdminService }> = async (
  app,
  { productsAdmin },
) => {
  const tags = ['admin'];
  const config = { access: 'uploadProducts' as const };
  const actor = (request: { user: { id: string } | null; ip: string }) => ({
    userId: request.user?.id ?? '',
    ip: request.ip,
  });
  const privately = (reply: { header(name: string, value: string): unknown }) =>
    reply.header('cache-control', 'private, no-store');

  app.get(
    listAdminProducts.path,
    { config, schema: { tags, querystring: listAdminProducts.query, response: { 200: listAdminProducts.response } } },
    async (request, reply) => {
      privately(reply);
      return productsAdmin.list(request.query);
    },
  );
  app.get(
    getAdminProduct.path,
    { config, schema: { tags, params: getAdminProduct.params, response: { 200: getAdminProduct.response } } },
    async (request, reply) => {
      privately(reply);
      return productsAdmin.get(request.params.id);
    },
  );
  app.get(
    listAdminCategories.path,
    { config, schema: { tags, response: { 200: listAdminCategories.response } } },
    async (_request, reply) => {
      privately(reply);
      return { categories: await productsAdmin.listCategories() };
    },
  );
  app.post(
    createAdminProduct.path,
    { config, schema: { tags, body: createAdminProduct.body, response: { 201: createAdminProduct.response } } },
    async (request, reply) => reply.code(201).send(await productsAdmin.create(actor(request), request.body)),
  );
  app.patch(
    updateAdminProduct.path,
    {
      config,
      schema: {
        tags,
        params: updateAdminProduct.params,
        body: updateAdminProduct.body,
        response: { 200: updateAdminProduct.response },
      },
    },
    async (request) => productsAdmin.update(actor(request), request.params.id, request.body),
  );
  app.delete(
    deleteAdminProduct.path,
    {
      // Spec 6: its own denied sentence.
      config: { access: 'uploadProducts' as const, deniedMessage: "You don't have permission to delete products." },
      schema: { tags, params: deleteAdminProduct.params, response: { 200: deleteAdminProduct.response } },
    },
    async (request) => productsAdmin.remove(actor(request), request.params.id),
  );
};
