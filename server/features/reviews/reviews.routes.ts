import { createHash } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  createReview,
  deleteReview,
  getRatingSummary,
  getReviewAnalysis,
  listMyReviews,
  listProductReviews,
  markReviewHelpful,
  updateReview,
} from '#common/contracts/reviews.ts';
import { CSRF_COOKIE } from '#server/http/csrf.ts';
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
      const { user } = request;
      // A shopper who reviewed the product sees their review marked as theirs, and sees it while
      // it awaits moderation: an answer of their own. Everyone else shares the visitors' answer.
      if (user && (await reviews.hasReviewed(request.params.id, user.id))) {
        reply.header('cache-control', 'private, no-store');
        return reviews.listForProduct(request.params.id, query, user.id);
      }
      return cache.respond(request, reply, {
        key: `reviews:${request.params.id}:${JSON.stringify(query)}`,
        schema: listProductReviews.response,
        maxAge: 60,
        load: () => reviews.listForProduct(request.params.id, query, null),
        signedIn: user !== null,
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

  app.post(
    createReview.path,
    { schema: { tags, body: createReview.body, response: { 201: createReview.response } } },
    async (request, reply) => {
      const user = requireUser(request.user);
      const { productId, rating, title, content, verified } = request.body;
      reply.status(201);
      return reviews.create(user, { productId, rating, title, content, verified });
    },
  );

  app.put(
    updateReview.path,
    {
      schema: { tags, params: updateReview.params, body: updateReview.body, response: { 200: updateReview.response } },
    },
    async (request) => reviews.update(requireUser(request.user), request.params.id, request.body),
  );

  app.delete(
    deleteReview.path,
    { schema: { tags, params: deleteReview.params, response: { 200: deleteReview.response } } },
    async (request) => {
      await reviews.remove(requireUser(request.user), request.params.id);
      return { success: true as const };
    },
  );

  app.post(
    markReviewHelpful.path,
    { schema: { tags, params: markReviewHelpful.params, response: { 200: markReviewHelpful.response } } },
    async (request) => {
      // Once per shopper: the account when signed in, else the browser (its CSRF secret, which
      // the CSRF check has just required, hashed so the secret itself is never stored).
      const browser = createHash('sha256')
        .update(request.cookies[CSRF_COOKIE] ?? '')
        .digest('hex');
      const voter = request.user ? `user:${request.user.id}` : `browser:${browser}`;
      return reviews.markHelpful(request.params.id, voter);
    },
  );
};
