import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getFlashSale, listBestSellers } from '#common/contracts/marketing.ts';
import type { PublicCache } from '#server/http/public-cache.ts';
import type { MarketingService } from './marketing.service.ts';

export const marketingRoutes: FastifyPluginAsyncZod<{ marketing: MarketingService; cache: PublicCache }> = async (
  app,
  { marketing, cache },
) => {
  const tags = ['marketing'];

  app.get(
    listBestSellers.path,
    { schema: { tags, querystring: listBestSellers.query, response: { 200: listBestSellers.response } } },
    (request, reply) =>
      cache.respond(request, reply, {
        key: `best-sellers:${request.query.limit}`,
        schema: listBestSellers.response,
        maxAge: 300,
        load: async () => ({ success: true, data: await marketing.bestSellers(request.query.limit) }),
      }),
  );

  app.get(
    getFlashSale.path,
    { schema: { tags, params: getFlashSale.params, response: { 200: getFlashSale.response } } },
    (request, reply) =>
      cache.respond(request, reply, {
        key: `flash-sale:${request.params.productId}`,
        schema: getFlashSale.response,
        // Short: a sale that ends must disappear soon after.
        maxAge: 30,
        load: async () => ({ success: true, data: await marketing.flashSale(request.params.productId) }),
      }),
  );
};
