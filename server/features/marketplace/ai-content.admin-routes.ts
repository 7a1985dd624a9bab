import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { aiExtractForMarketplaceProduct, aiExtractForProduct } from '#common/contracts/admin/ai-content.ts';
import type { AiContentService } from './ai-content.service.ts';

/**
 * The AI Content Generator's calls (spec 7, permission uploadProducts), inside the admin scope of
 * app.ts: copy for a product of the shop, or for a marketplace product before it is imported.
 * They write nothing (the admin applies the content in the form and saves it there), so there is
 * no audit entry and no live event; the admin rate limit bounds how often a model is asked.
 */
export const aiContentAdminRoutes: FastifyPluginAsyncZod<{ aiContent: AiContentService }> = async (
  app,
  { aiContent },
) => {
  const tags = ['admin'];
  const config = { access: 'uploadProducts' as const };

  app.post(
    aiExtractForProduct.path,
    {
      config,
      schema: {
        tags,
        params: aiExtractForProduct.params,
        body: aiExtractForProduct.body,
        response: { 200: aiExtractForProduct.response },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { content: await aiContent.forProduct(request.params.productId, request.body) };
    },
  );
  app.post(
    aiExtractForMarketplaceProduct.path,
    {
      config,
      schema: {
        tags,
        params: aiExtractForMarketplaceProduct.params,
        body: aiExtractForMarketplaceProduct.body,
        response: { 200: aiExtractForMarketplaceProduct.response },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return { content: await aiContent.forMarketplaceProduct(request.params.aliId, request.body) };
    },
  );
};
