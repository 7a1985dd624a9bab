import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { refreshMarketplaceData } from '#common/contracts/admin/marketplace.ts';
import { DEMO_IMAGE_PATH, type DemoMarketplace } from '#server/adapters/marketplace/demo-marketplace.ts';
import type { Marketplace } from '#server/adapters/marketplace/marketplace.ts';
import { sendError } from '#server/http/errors.ts';
import type { MarketplaceRefresh } from './marketplace-refresh.job.ts';

/**
 * The marketplace's public routes, in the api scope of app.ts: the refresh the storefront fires
 * once at start (spec 7), and, when the demo marketplace is the one in use, its pictures.
 */
export const marketplaceRoutes: FastifyPluginAsyncZod<{
  marketplace: Marketplace;
  refresh: MarketplaceRefresh;
}> = async (app, { marketplace, refresh }) => {
  app.get(
    refreshMarketplaceData.path,
    { schema: { tags: ['marketplace'], response: { 202: refreshMarketplaceData.response } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return reply.code(202).send(refresh.request());
    },
  );

  if (marketplace.name !== 'demo') return;
  const demo = marketplace as DemoMarketplace;
  app.get(
    `${DEMO_IMAGE_PATH}/:aliId/:file`,
    {
      schema: {
        tags: ['marketplace'],
        params: z.object({
          aliId: z.string().check(z.regex(/^\d{1,20}$/, 'must be a marketplace product id (digits)')),
          file: z.string().check(z.regex(/^[a-z0-9-]{1,40}\.png$/, 'must be a picture name such as 1.png')),
        }),
      },
    },
    async (request, reply) => {
      const picture = await demo.picture(request.params.aliId, request.params.file);
      if (!picture) return sendError(reply, 404, { error: 'No such demo marketplace picture', code: 'not_found' });
      // The same address always draws the same picture.
      return reply.header('cache-control', 'public, max-age=31536000, immutable').type('image/png').send(picture);
    },
  );
};
