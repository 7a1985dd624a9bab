import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { hasPurchased, listMyOrders } from '#common/contracts/orders.ts';
import { requireUser } from '#server/http/session.ts';
import type { OrdersService } from './orders.service.ts';

export const ordersRoutes: FastifyPluginAsyncZod<{ orders: OrdersService }> = async (app, { orders }) => {
  const tags = ['orders'];

  app.get(listMyOrders.path, { schema: { tags, response: { 200: listMyOrders.response } } }, async (request, reply) => {
    const user = requireUser(request.user);
    reply.header('cache-control', 'private, no-store');
    return { orders: await orders.listForUser(user.id) };
  });

  app.get(
    hasPurchased.path,
    { schema: { tags, params: hasPurchased.params, response: { 200: hasPurchased.response } } },
    async (request, reply) => {
      reply.header('cache-control', 'private, no-store');
      // A visitor has bought nothing (spec: a failure counts as false).
      if (!request.user) return { purchased: false };
      return { purchased: await orders.hasPurchased(request.user.id, request.params.productId) };
    },
  );
};
