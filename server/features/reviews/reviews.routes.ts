import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { getRatingSummary, getReviewAnalysis, listMyReviews, listProductReviews } from '#common/contracts/reviews.ts';
import type { PublicCache } from '#server/http/public-cache.ts';
import { requireUser } from '#server/http/session.ts';
import type { ReviewsService } from './reviews.service.ts';

export const reviewsRoutes: FastifyPluginAsyncZod<{ reviews: ReviewsService; cache: PublicCache }> = async (
  app,
  { reviews, cache },
) => {
  const tags = ['reviews'];

  app.get(
    listProductReviews.path,
    {
      schema: {
        tags,
        params: listProductReviews.params,
        querystring: listProductReviews.query,
        response: { 200: listProductReviews.response },
      },
    },
    async (request, reply) => {
      const { t: _cacheBuster, ...query } = request.query;
      // A signed-in shopper also sees their own reviews awaiting moderation: not shareable.
      if (request.user) {
        reply.header('cache-control', 'private, no-store');
        return reviews.listForProduct(request.params.id, query, request.user.id);
      }
      return cache.respond(request, reply, {
        key: `reviews:${request.params.id}:${JSON.stringify(query)}`,
        schema: listProductReviews.response,
        maxAge: 60,
        load: () => reviews.listForProduct(request.params.id, query, null),
      });
    },
  );

  app.get(
    listMyReviews.path,
    { schema: { tags, response: { 200: listMyReviews.response } } },
    async (request, reply) => {
      const user = requireUser(request.user);
      reply.header('cache-control', 'private, no-store');
      return { reviews: await reviews.listForUser(user.id) };
    },
  );

  app.get(
    getRatingSummary.path,
    {
      schema: {
        tags,
        params: getRatingSummary.params,
        querystring: getRatingSummary.query,
        response: { 200: getRatingSummary.response },
      },
    },
    (request, reply) =>
      cache.respond(request, reply, {
        key: `rating:${request.params.id}`,
        schema: getRatingSummary.response,
        maxAge: 60,
        load: () => reviews.ratingSummary(request.params.id),
      }),
  );

  app.get(
    getReviewAnalysis.path,
    { schema: { tags, params: getReviewAnalysis.params, response: { 200: getReviewAnalysis.response } } },
    (request, reply) =>
      cache.respond(request, reply, {
        key: `analysis:${request.params.id}`,
        schema: getReviewAnalysis.response,
        maxAge: 300,
        load: () => reviews.analysis(request.params.id),
      }),
  );
};
