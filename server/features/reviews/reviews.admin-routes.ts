import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  approveReview,
  deleteReview,
  flagReview,
  listAdminReviews,
  setReviewsStatus,
  withoutApi,
} from '#common/contracts/admin/reviews.ts';
import type { ReviewModerationService } from './review-moderation.service.ts';

/** Where the spec's client sends the reviews tab's writes (spec 7: without /api). */
export const REVIEW_ADMIN_ALIAS_PREFIX = '/admin/reviews/';

/**
 * The reviews tab's routes (back office, every admin: the default access), inside the admin
 * scope of app.ts. The writes are served at their /api path and, with the same handlers, guard,
 * CSRF check and admin rate limit, at the spec's path without /api.
 */
export const reviewsAdminRoutes: FastifyPluginAsyncZod<{ moderation: ReviewModerationService }> = async (
  app,
  { moderation },
) => {
  const tags = ['admin'];
  app.get(
    listAdminReviews.path,
    { schema: { tags, querystring: listAdminReviews.query, response: { 200: listAdminReviews.response } } },
    async (request) => moderation.list(request.query),
  );

  const actor = (request: { user: { id: string } | null; ip: string }) => ({
    userId: request.user?.id ?? '',
    ip: request.ip,
  });
  for (const path of [approveReview.path, withoutApi(approveReview.path)]) {
    app.patch(
      path,
      { schema: { tags, params: approveReview.params, response: { 200: approveReview.response } } },
      async (request) => moderation.approve(actor(request), request.params.id),
    );
  }
  for (const path of [flagReview.path, withoutApi(flagReview.path)]) {
    app.patch(
      path,
      { schema: { tags, params: flagReview.params, body: flagReview.body, response: { 200: flagReview.response } } },
      async (request) => moderation.flag(actor(request), request.params.id, request.body.reason),
    );
  }
  for (const path of [setReviewsStatus.path, withoutApi(setReviewsStatus.path)]) {
    app.patch(
      path,
      { schema: { tags, body: setReviewsStatus.body, response: { 200: setReviewsStatus.response } } },
      async (request) => moderation.setStatus(actor(request), request.body.reviewIds, request.body.status),
    );
  }
  for (const path of [deleteReview.path, withoutApi(deleteReview.path)]) {
    app.delete(
      path,
      { schema: { tags, params: deleteReview.params, response: { 200: deleteReview.response } } },
      async (request) => moderation.remove(actor(request), request.params.id),
    );
  }
};
