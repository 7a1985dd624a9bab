import { PassThrough } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { exportAdminOrders, listAdminOrders } from '#common/contracts/admin/orders.ts';
import type { AdminOrdersService } from './admin-orders.service.ts';
import { writeOrdersCsv, writeOrdersXlsx } from './orders-export.ts';

const files = {
  xlsx: { name: 'orders.xlsx', type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' },
  csv: { name: 'orders.csv', type: 'text/csv; charset=utf-8' },
} as const;

/** The orders tab (spec 2 and 7; permission downloadXlsx): inside the admin scope of app.ts. */
export const ordersAdminRoutes: FastifyPluginAsyncZod<{ adminOrders: AdminOrdersService }> = async (
  app,
  { adminOrders },
) => {
  const tags = ['admin'];
  const config = { access: 'downloadXlsx' as const };

  app.get(
    listAdminOrders.path,
    { config, schema: { tags, querystring: listAdminOrders.query, response: { 200: listAdminOrders.response } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      return adminOrders.list(request.query);
    },
  );

  // The rows go out as they are read: the answer starts at once and memory stays flat. A failure
  // after the headers can only cut the download short (the client sees an incomplete file).
  app.get(
    exportAdminOrders.path,
    { config, schema: { tags, querystring: exportAdminOrders.query } },
    (request, reply) => {
      const { format, ...filters } = request.query;
      const file = files[format];
      const out = new PassThrough();
      const write = format === 'csv' ? writeOrdersCsv : writeOrdersXlsx;
      write(adminOrders.batches(filters), out).catch((error: unknown) => {
        request.log.error({ err: error }, 'orders export failed');
        out.destroy(error instanceof Error ? error : new Error(String(error)));
      });
      return reply
        .header('content-type', file.type)
        .header('content-disposition', `attachment; filename="${file.name}"`)
        .header('cache-control', 'private, no-store')
        .send(out);
    },
  );
};
