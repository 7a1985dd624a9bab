/**
 * The server build's entry, bundled by Vite together with the route modules (Node never imports
 * this file directly). Bundling it with the routes keeps the React Router context keys the same
 * objects on both sides; Fastify passes in how to reach the API.
 */
import * as build from 'virtual:react-router/server-build';
import { createRequestHandler, RouterContextProvider, type ServerBuild } from 'react-router';
import { createApiClient } from '../web/common/api-client.ts';
import { pageErrorOf } from '../web/common/page-errors.ts';
import { apiContext, nonceContext, type ShopFacts, shopContext } from '../web/context.ts';

/** Runs an API request in-process (Fastify's inject), as the visitor whose cookies are given. */
export type InternalFetch = (request: {
  method: string;
  url: string;
  cookie: string | undefined;
  body: unknown;
}) => Promise<{ status: number; statusText: string; body: unknown }>;

export function createPageHandler(
  internalFetch: InternalFetch,
  { mode, publicUrl, payments, adPixelId }: { mode: 'production' | 'development' } & ShopFacts,
) {
  const handle = createRequestHandler(withPageErrors(build), mode);
  return (request: Request, { nonce }: { nonce: string | undefined }) => {
    const cookie = request.headers.get('cookie') ?? undefined;
    const api = createApiClient(({ method, url, body }) => internalFetch({ method, url, cookie, body }));
    const context = new RouterContextProvider();
    context.set(apiContext, api);
    context.set(nonceContext, nonce);
    context.set(shopContext, { publicUrl, payments, adPixelId });
    return handle(request, context);
  };
}

export type PageHandler = ReturnType<typeof createPageHandler>;

/**
 * The build with every loader under the one rule for a failed API call that the loader lets
 * through (web/common/page-errors.ts): the page answers with the API's status, so a 4xx shows the
 * route's empty or not-found state instead of becoming a 500. Loaders that want another answer
 * (the product page's built-in fallback) catch the ApiRequestError themselves first.
 */
function withPageErrors(serverBuild: ServerBuild): ServerBuild {
  const routes: ServerBuild['routes'] = {};
  for (const [id, route] of Object.entries(serverBuild.routes)) {
    const loader = route?.module.loader;
    routes[id] =
      route && loader
        ? {
            ...route,
            module: {
              ...route.module,
              loader: async (...args: Parameters<typeof loader>) => {
                try {
                  return await loader(...args);
                } catch (error) {
                  throw pageErrorOf(error);
                }
              },
            },
          }
        : route;
  }
  return { ...serverBuild, routes };
}
