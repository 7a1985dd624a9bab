import { sql } from 'drizzle-orm';
import type { FastifyPluginAsync } from 'fastify';
import type { Db } from '#server/db/client.ts';

/** Liveness (the process answers) and readiness (it can reach its database). */
export const healthRoutes: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  // Their requests are left out of the request log (see app.ts), not logged at another level.
  app.get('/healthz', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/readyz', async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      await db.execute(sql`select 1`);
      return { status: 'ready' };
    } catch (err) {
      request.log.error({ err }, 'database not reachable');
      return reply.status(503).send({ error: 'Database not reachable', code: 'not_ready' });
    }
  });
};
