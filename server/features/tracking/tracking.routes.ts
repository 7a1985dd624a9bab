import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { TRACKING_CONSENT_HEADER } from '#common/constants.ts';
import { fetchTrackingClient, trackAdEvent } from '#common/contracts/tracking.ts';
import { isAutomated } from '#server/http/automated.ts';
import { AppError } from '#server/http/errors.ts';
import type { TrackingService } from './tracking.service.ts';

/**
 * The ad tracker's paths (spec section 7). An event is taken only with the visitor's consent, as
 * the browser states it; a browser sending Global Privacy Control is refused whatever it states.
 */
export const trackingRoutes: FastifyPluginAsyncZod<{ tracking: TrackingService }> = async (app, { tracking }) => {
  const tags = ['tracking'];

  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  app.get(
    fetchTrackingClient.path,
    { schema: { tags, response: { 200: fetchTrackingClient.response } } },
    async (request) => ({
      ip: request.ip,
      user_agent: request.headers['user-agent'] ?? '',
    }),
  );

  app.post(
    trackAdEvent.path,
    { schema: { tags, body: trackAdEvent.body, response: { 200: trackAdEvent.response } } },
    async (request) => {
      const consented = request.headers[TRACKING_CONSENT_HEADER] === 'granted';
      if (!consented || request.headers['sec-gpc'] === '1') {
        throw new AppError(403, 'consent_required', 'Ad tracking needs the visitor’s consent (Accept All).');
      }
      if (isAutomated(request)) return { accepted: false };
      const accepted = await tracking.track(request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'] ?? '',
      });
      return { accepted };
    },
  );
};
