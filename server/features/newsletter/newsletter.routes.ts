import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import {
  confirmNewsletter,
  newsletterPages,
  subscribeNewsletter,
  unsubscribeNewsletter,
} from '#common/contracts/newsletter.ts';
import type { SettingsService } from '#server/features/settings/settings.service.ts';
import { invalid } from '#server/http/errors.ts';
import type { NewsletterService } from './newsletter.service.ts';

/** RFC 8058's body, whichever of its two encodings a mail client sends. */
const ONE_CLICK = 'One-Click';
const oneClickBody = z.object({ 'List-Unsubscribe': z.optional(z.string()) });

/** A multipart/form-data body's List-Unsubscribe field, if it has one (RFC 8058 allows this encoding). */
function multipartField(body: string): Record<string, string> {
  const match = /name="List-Unsubscribe"\r?\n(?:[^\r\n]+\r?\n)*\r?\n([^\r\n]*)/i.exec(body);
  return match?.[1] === undefined ? {} : { 'List-Unsubscribe': match[1] };
}

/**
 * The newsletter's public routes (issue 12): sign-up and confirmation under the strict limit
 * (they send mail), and the unsubscribe link, which needs neither a session nor a CSRF token:
 * its token is the proof, and mail clients post it without cookies (RFC 8058).
 */
export const newsletterRoutes: FastifyPluginAsyncZod<{
  newsletter: NewsletterService;
  settings: SettingsService;
}> = async (app, { newsletter, settings }) => {
  const tags = ['newsletter'];
  const strictLimit = app.rateLimit({
    max: () => settings.current()?.strictRateLimit ?? 10,
    timeWindow: '1 minute',
    keyGenerator: (request) => `newsletter:${request.ip}`,
  });
  const strict = { config: { rateLimit: false as const }, onRequest: strictLimit };

  // Only this scope reads form bodies: the one-click POST's, small by nature.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.addContentTypeParser('multipart/form-data', { parseAs: 'string', bodyLimit: 4096 }, (_request, body, done) =>
    done(null, multipartField(body as string)),
  );

  app.post(
    subscribeNewsletter.path,
    { ...strict, schema: { tags, body: subscribeNewsletter.body, response: { 200: subscribeNewsletter.response } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return newsletter.subscribe(request.body.email, 'footer');
    },
  );

  app.post(
    confirmNewsletter.path,
    { ...strict, schema: { tags, body: confirmNewsletter.body, response: { 200: confirmNewsletter.response } } },
    async (request) => newsletter.confirm(request.body.token),
  );

  app.post(
    unsubscribeNewsletter.path,
    {
      config: { csrf: false },
      schema: {
        tags,
        querystring: unsubscribeNewsletter.query,
        body: z.optional(oneClickBody),
        response: { 200: unsubscribeNewsletter.response },
      },
    },
    async (request, reply) => {
      if (request.body?.['List-Unsubscribe'] !== ONE_CLICK) {
        throw invalid('List-Unsubscribe', `The body must be List-Unsubscribe=${ONE_CLICK} (RFC 8058)`);
      }
      reply.header('cache-control', 'no-store');
      return newsletter.unsubscribe(request.query.token);
    },
  );

  // A GET changes nothing (RFC 8058 section 4: anti-spam filters fetch the addresses in mail
  // headers on their own): a mail client without one-click opens this address in a browser, which
  // is sent on to the page, whose button posts the one-click body.
  app.get(
    unsubscribeNewsletter.path,
    { schema: { tags, querystring: unsubscribeNewsletter.query } },
    (request, reply) =>
      reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .redirect(`${newsletterPages.unsubscribe}?token=${encodeURIComponent(request.query.token)}`, 303),
  );
};
