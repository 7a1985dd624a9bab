/**
 * The server build's entry, bundled by Vite together with the route modules (Node never imports
 * this file directly). Bundling it with the routes keeps the React Router context keys the same
 * objects on both sides; Fastify passes in how to reach the API.
 */
import * as build from 'virtual:react-router/server-build';
import { createRequestHandler, RouterContextProvider } from 'react-router';
import { createApiClient } from '../web/common/api-client.ts';
import { apiContext, nonceContext, shopContext } from '../web/context.ts';

/** Runs an API request in-process (Fastify's inject), as the visitor whose cookies are given. */
export type InternalFetch = (request: {
  method: string;
  url: string;
  cookie: string | undefined;
  body: unknown;
}) => Promise<{ status: number; statusText: string; body: unknown }>;

export function createPageHandler(
  internalFetch: InternalFetch,
  { mode, publicUrl }: { mode: 'production' | 'development'; publicUrl: string },
) {
  const handle = createRequestHandler(build, mode);
  return (request: Request, { nonce }: { nonce: string | undefined }) => {
    const cookie = request.headers.get('cookie') ?? undefined;
    const api = createApiClient(({ method, url, body }) => internalFetch({ method, url, cookie, body }));
    const context = new RouterContextProvider();
    context.set(apiContext, api);
    context.set(nonceContext, nonce);
    context.set(shopContext, { publicUrl });
    return handle(request, context);
  };
}

export type PageHandler = ReturnType<typeof createPageHandler>;
