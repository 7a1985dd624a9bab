import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { recordConversion, recordPageView } from '#common/contracts/analytics.ts';
import { isAutomated } from '#server/http/automated.ts';
import type { AnalyticsService } from './analytics.service.ts';

/** First-party analytics (spec section 7), behind CSRF like every state-changing call. */
export const analyticsRoutes: FastifyPluginAsyncZod<{ analytics: AnalyticsService }> = async (app, { analytics }) => {
  const tags = ['analytics'];
  // Beacons: small JSON both ways, so compression's hooks would only cost time on the hot path.
  const beacon = { compress: false, decompress: false } as const;

  app.post(
    recordPageView.path,
    {
      ...beacon,
      schema: { tags, body: recordPageView.body, response: { [recordPageView.status]: recordPageView.response } },
    },
    async (request, reply) => {
      if (!isAutomated(request)) {
        const { page, sessionId, referrer, cookiesAccepted } = request.body;
        const waiting = analytics.recordPageView({
          page,
          sessionId,
          referrer: referrer ?? null,
          cookiesAccepted,
          // The signed-in user's own id: a browser cannot file its views under someone else.
          userId: request.user?.id ?? null,
          visitor: { ip: request.ip, userAgent: request.headers['user-agent'] ?? '' },
        });
        // A promise only for the day's first views, while the day's salt is read.
        if (waiting) await waiting;
      }
      return reply.code(recordPageView.status).send(null);
    },
  );

  app.post(
    recordConversion.path,
    { ...beacon, schema: { tags, body: recordConversion.body, response: { 200: recordConversion.response } } },
    async (request) => {
      if (isAutomated(request)) return { recorded: false };
      return { recorded: await analytics.recordConversion(request.body) };
    },
  );
};
