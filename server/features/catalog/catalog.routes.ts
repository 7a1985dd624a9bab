import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getProduct, getProductById, listCategories, listProducts, searchProducts } from '#common/contracts/catalog.ts';
import type { CatalogService } from './catalog.service.ts';

export const catalogRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService }> = async (app, { catalog }) => {
  const tags = ['catalog'];

  app.get(
    listProducts.path,
    { schema: { tags, querystring: listProducts.query, response: { 200: listProducts.response } } },
    (request) => catalog.listProducts(request.query),
  );

  app.get(
    searchProducts.path,
    {
      schema: {
        tags,
        params: searchProducts.params,
        querystring: searchProducts.query,
        response: { 200: searchProducts.response },
      },
    },
    (request) => catalog.searchProducts(request.params.term, request.query),
  );

  app.get(
    getProductById.path,
    { schema: { tags, params: getProductById.params, response: { 200: getProductById.response } } },
    (request) => catalog.getProduct(request.params.id),
  );

  app.get(
    getProduct.path,
    { schema: { tags, params: getProduct.params, response: { 200: getProduct.response } } },
    (request) => catalog.getProduct(request.params.id),
  );

  app.get(listCategories.path, { schema: { tags, response: { 200: listCategories.response } } }, async () => ({
    categories: await catalog.listCategories(),
  }));
};
