import { once } from 'node:events';
import { PassThrough, type Writable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  deleteSubscriber,
  exportSubscribers,
  getNewsletterSend,
  listAdminSubscribers,
  listNewsletterSends,
  previewNewsletter,
  sendNewsletter,
  testNewsletter,
  updateSubscriber,
} from '#common/contracts/admin/newsletter.ts';
import { CSV_BOM, csvRecord } from '#server/features/orders/csv.ts';
import { unauthorized } from '#server/http/errors.ts';
import type { NewsletterService } from './newsletter.service.ts';
import { statusOf } from './newsletter.service.ts';
import type { NewsletterSends } from './newsletter-sends.ts';

export const subscriberExportHeaders = ['Email', 'Status', 'Source', 'Subscribed', 'Last email sent'];

/** subscribers.csv, streamed a batch at a time (RFC 4180 with a BOM; formulas neutralised by csv.ts). */
async function writeSubscribersCsv(batches: ReturnType<NewsletterService['batches']>, out: Writable) {
  out.write(CSV_BOM + csvRecord(subscriberExportHeaders));
  for await (const batch of batches) {
    if (out.destroyed) return;
    let chunk = '';
    for (const row of batch) {
      chunk += csvRecord([
        row.email,
        statusOf(row),
        row.source,
        row.createdAt.toISOString(),
        row.lastEmailSent ? row.lastEmailSent.toISOString() : null,
      ]);
    }
    out.write(chunk);
    if (out.writableNeedDrain && !out.destroyed) await Promise.race([once(out, 'drain'), once(out, 'close')]);
  }
  out.end();
}

/** The newsletter tab (issue 12; permission manageNewsletters): inside the admin scope of app.ts. */
export const newsletterAdminRoutes: FastifyPluginAsyncZod<{
  newsletter: NewsletterService;
  sends: NewsletterSends;
}> = async (app, { newsletter, sends }) => {
  const tags = ['admin'];
  const config = { access: 'manageNewsletters' as const };
  const actor = (request: { user: { id: string } | null; ip: string }) => ({
    userId: request.user?.id ?? '',
    ip: request.ip,
  });
  const adminEmail = (request: { user: { email: string } | null }) => {
    if (!request.user) throw unauthorized();
    return request.user.email;
  };

  app.get(
    listAdminSubscribers.path,
    {
      config,
      schema: { tags, querystring: listAdminSubscribers.query, response: { 200: listAdminSubscribers.response } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return newsletter.list(request.query);
    },
  );

  app.get(
    exportSubscribers.path,
    { config, schema: { tags, querystring: exportSubscribers.query } },
    async (request, reply) => {
      await newsletter.auditExport(actor(request), request.query);
      const out = new PassThrough();
      writeSubscribersCsv(newsletter.batches(request.query), out).catch((error: unknown) => {
        request.log.error({ err: error }, 'subscribers export failed');
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="subscribers.csv"')
        .header('cache-control', 'private, no-store')
        .send(out);
    },
  );

  app.patch(
    updateSubscriber.path,
    {
      config,
      schema: {
        tags,
        params: updateSubscriber.params,
        body: updateSubscriber.body,
        response: { 200: updateSubscriber.response },
      },
    },
    async (request) => newsletter.setActive(actor(request), request.params.id, request.body.isActive),
  );

  app.delete(
    deleteSubscriber.path,
    { config, schema: { tags, params: deleteSubscriber.params, response: { 200: deleteSubscriber.response } } },
    async (request) => newsletter.remove(actor(request), request.params.id),
  );

  app.post(
    sendNewsletter.path,
    { config, schema: { tags, body: sendNewsletter.body, response: { 202: sendNewsletter.response } } },
    async (request, reply) => {
      reply.status(202);
      return sends.queue(actor(request), request.body);
    },
  );

  app.post(
    previewNewsletter.path,
    { config, schema: { tags, body: previewNewsletter.body, response: { 200: previewNewsletter.response } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return sends.preview(request.body, adminEmail(request));
    },
  );

  app.post(
    testNewsletter.path,
    { config, schema: { tags, body: testNewsletter.body, response: { 200: testNewsletter.response } } },
    async (request) => sends.sendTest(actor(request), adminEmail(request), request.body),
  );

  app.get(
    listNewsletterSends.path,
    { config, schema: { tags, response: { 200: listNewsletterSends.response } } },
    async (_request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return sends.latest();
    },
  );

  app.get(
    getNewsletterSend.path,
    { config, schema: { tags, params: getNewsletterSend.params, response: { 200: getNewsletterSend.response } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return sends.progress(request.params.id);
    },
  );
};
