import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { LIVE_EVENTS_PATH } from '#common/live-events.ts';
import { unauthorized } from '#server/http/errors.ts';
import { type FindSessionUser, SESSION_COOKIE } from '#server/http/session.ts';
import type { DomainEvents } from './domain-events.ts';
import { createLiveStreams } from './live-stream.ts';

/** An event id as the stream gave it: a whole number, at most 15 digits (a safe integer). */
const EventId = z.pipe(
  z.string().check(z.trim(), z.regex(/^\d{1,15}$/, 'must be the id of an event: a whole number')),
  z.transform(Number),
);

/**
 * GET /api/atlas/events (spec 7): the back office's server-sent events, for any admin (the admin
 * scope of app.ts answers 401 and 403). A client resumes with the Last-Event-ID header, as
 * EventSource sends it when it reconnects by itself, or the lastEventId query, for a client that
 * opens a new EventSource (which cannot set headers).
 */
export const eventsAdminRoutes: FastifyPluginAsyncZod<{
  events: DomainEvents;
  findUser: FindSessionUser;
  heartbeatMs?: number | undefined;
  /** Given how to count the open streams (the metrics read it at each scrape). */
  watchStreams?: ((count: () => number) => void) | undefined;
}> = async (app, { events, findUser, heartbeatMs, watchStreams }) => {
  const streams = createLiveStreams({
    events,
    findUser,
    log: (message, error) => app.log.error({ err: error }, message),
    ...(heartbeatMs ? { heartbeatMs } : {}),
  });
  watchStreams?.(() => streams.size);
  // Open streams would keep the server from closing; they end as the drain begins, so their
  // clients reconnect to another instance at once.
  app.whenDraining(() => streams.close());
  app.addHook('preClose', (done) => {
    streams.close();
    done();
  });

  app.get(
    LIVE_EVENTS_PATH,
    {
      // Each event must leave at once, not wait in a compression buffer.
      compress: false,
      schema: {
        tags: ['admin'],
        headers: z.looseObject({ 'last-event-id': z.optional(EventId) }),
        querystring: z.object({ lastEventId: z.optional(EventId) }),
      },
    },
    async (request, reply) => {
      const token = request.cookies[SESSION_COOKIE];
      if (!request.user || !token) throw unauthorized();
      const out = new PassThrough();
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        // Proxies such as nginx must pass each event on as it comes.
        .header('x-accel-buffering', 'no')
        .send(out);
      await streams.open({
        user: request.user,
        token,
        out,
        lastEventId: request.headers['last-event-id'] ?? request.query.lastEventId,
      });
      return reply;
    },
  );
};
