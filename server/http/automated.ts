import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';

/**
 * Crawlers and scripts are not visitors (analytics and ad events ignore them): a request without
 * a user agent counts as one too.
 */
export function isAutomated(request: FastifyRequest): boolean {
  const userAgent = request.headers['user-agent'];
  return !userAgent || isbot(userAgent);
}
