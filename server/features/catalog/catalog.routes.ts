import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getProduct, getProductById, listCategories, listProducts, searchProducts } from '#common/contracts/catalog.ts';
import type { PublicCache } from '#server/http/public-cache.ts';
import type { CatalogService } from './catalog.service.ts';

/** Public catalogue reads: cached in memory, with ETag and Cache-Control (see PublicCache). */
export const catalogRoutes: FastifyPluginAsyncZod<{ catalog: CatalogService; cache: PublicCache }> = async (
  app,
  { catalog, cache },
) => {
  const tags = ['catalog'];
  const maxAge = 60;
  // The cache sends its answers compressed already (and a GET has no body to inflate): neither
  // of @fastify/compress's hooks has anything to do on these routes.
  const precompressed = { compress: false, decompress: false } as const;

  /**
   * Answers carrying prices, cached until the next start or end of an automatic sale at the
   * latest: that instant is part of the key, so once it passes the next request computes anew,
   * and browsers keep the answer, stale-while-revalidate included, no longer than until then. A sale's write drops the whole cache
   * (its live event), as every write does.
   */
  async function respondPriced<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    options: { key: string; schema: { parse(value: unknown): T }; load: () => Promise<unknown> },
  ) {
    const next = await catalog.nextPriceChange();
    if (next === null) return cache.respond(request, reply, { ...options, key: `${options.key}@`, maxAge });
    const left = Math.max(0, Math.ceil((next - Date.now()) / 1000));
    const fresh = Math.min(maxAge, left);
    return cache.respond(request, reply, {
      ...options,
      key: `${options.key}@${next}`,
      maxAge: fresh,
      // Nor shown stale past the change while the browser fetches anew.
      staleWhileRevalidate: Math.min(fresh * 5, left - fresh),
    });
  }

  app.get(
    listProducts.path,
    { ...precompressed, schema: { tags, querystring: listProducts.query, response: { 200: listProducts.response } } },
    (request, reply) => {
      const { page, limit, category } = request.query;
      return respondPriced(request, reply, {
        key: `products:${page}:${limit}:${category?.toLowerCase() ?? ''}`,
        schema: listProducts.response,
        load: () => catalog.listProducts(request.query),
      });
    },
  );

  app.get(
    searchProducts.path,
    {
      ...precompressed,
      schema: {
        tags,
        params: searchProducts.params,
        querystring: searchProducts.query,
        response: { 200: searchProducts.response },
      },
    },
    (request, reply) => {
      const { page, limit } = request.query;
      const term = request.params.term.toLowerCase();
      return respondPriced(request, reply, {
        key: `search:${term}:${page}:${limit}`,
        schema: searchProducts.response,
        load: () => catalog.searchProducts(term, request.query),
      });
    },
  );

  for (const endpoint of [getProductById, getProduct]) {
    app.get(
      endpoint.path,
      { ...precompressed, schema: { tags, params: endpoint.params, response: { 200: endpoint.response } } },
      (request, reply) =>
        respondPriced(request, reply, {
          key: `product:${request.params.id}`,
          schema: endpoint.response,
          load: () => catalog.getProduct(request.params.id),
        }),
    );
  }

  app.get(
    listCategories.path,
    { ...precompressed, schema: { tags, response: { 200: listCategories.response } } },
    (request, reply) =>
      cache.respond(request, reply, {
        key: 'categories',
        schema: listCategories.response,
        maxAge: 300,
        load: async () => ({ categories: await catalog.listCategories() }),
      }),
  );
};
