import type { FastifyRequest } from 'fastify';
import { isbot } from 'isbot';

// isbot's pattern is long and most requests come from a browser seen a moment before: the
// verdicts of recent user agents are kept (bounded; emptied when full).
const MAX_REMEMBERED = 5_000;
const verdicts = new Map<string, boolean>();

/**
 * Crawlers and scripts are not visitors (analytics and ad events ignore them): a request without
 * a user agent counts as one too.
 */
export function isAutomated(request: FastifyRequest): boolean {
  const userAgent = request.headers['user-agent'];
  if (!userAgent) return true;
  let automated = verdicts.get(userAgent);
  if (automated === undefined) {
    automated = isbot(userAgent);
    if (verdicts.size >= MAX_REMEMBERED) verdicts.clear();
    verdicts.set(userAgent, automated);
  }
  return automated;
}
