import { data, isRouteErrorResponse } from 'react-router';
import { ApiRequestError } from './api-client.ts';

/** The data of a page's error response: the API's sentence and code (spec section 8). */
export type PageErrorData = { message: string; code?: string };

/**
 * The one rule for an API call that fails in a loader, applied on the server to whatever a loader
 * lets through (see server/react-router-entry.ts): the page answers with the API's status and
 * sentence. A 4xx is the request's fault (a search term too long, an unknown category or product),
 * so the route's ErrorBoundary shows its empty or not-found state; only a 5xx, the shop's own
 * failure, shows the error state. Any other error is left as it is (React Router makes it a 500).
 */
export function pageErrorOf(error: unknown): unknown {
  if (!(error instanceof ApiRequestError)) return error;
  const status = error.status >= 400 && error.status <= 599 ? error.status : 502;
  return data<PageErrorData>({ message: error.message, ...(error.code ? { code: error.code } : {}) }, { status });
}

/** For ErrorBoundaries: the page failed because of the request (a 4xx), not because of the shop. */
export function isClientError(error: unknown): boolean {
  return isRouteErrorResponse(error) && error.status >= 400 && error.status < 500;
}
