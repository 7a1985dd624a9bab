import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PaymentConfig } from '#web/context.ts';
import { appRoot } from '../app-root.ts';
import type { InternalFetch, PageHandler } from '../react-router-entry.ts';
import { sendError } from './errors.ts';
import { isSharedPage, matchesEtag, pageEtag, SHARED_PAGE_CACHE_CONTROL } from './page-cache.ts';
import { SESSION_COOKIE } from './session.ts';

export const clientBuildDir = path.join(appRoot, 'build/client');
export const serverBuildFile = path.join(appRoot, 'build/server/index.js');

export type WebMode = 'production' | 'development';

/** The methods pages answer; no route module has an action, so a page takes no body. */
const PAGE_METHODS = ['GET', 'HEAD'];

export type MountWebOptions = {
  mode: WebMode;
  internalFetch: InternalFetch;
  publicUrl: string;
  /** The checkout's card processor, as the browser needs it. */
  payments: PaymentConfig;
  /** The TikTok pixel's code, loaded by the pages after the visitor accepts cookies; null: none. */
  adPixelId: string | null;
  /** Ends the session of the request's session cookie and clears the cookie (GET /logout). */
  endSession: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
};

/**
 * Serves the React Router app: in production the built assets and the built server bundle; in
 * development Vite's middleware with hot reload. Every path that no other route claims is a page.
 */
export async function mountWeb(
  app: FastifyInstance,
  { mode, internalFetch, publicUrl, payments, adPixelId, endSession }: MountWebOptions,
) {
  let getHandler: () => Promise<PageHandler>;

  if (mode === 'production') {
    if (!existsSync(serverBuildFile)) {
      throw new Error('The web app is not built: run `npm run build` (npm start builds it for you).');
    }
    // The built files, in two parts. In both, the .br and .gz files the build wrote beside each
    // text file (precompress.ts) are sent for their file's URL when the browser takes that coding.
    // First the hashed assets: one route for the folder, not one per file (listing the files and
    // making their routes took about 40 ms of a start). A missing one is the app's plain 404.
    await app.register(fastifyStatic, {
      root: path.join(clientBuildDir, 'assets'),
      prefix: '/assets/',
      index: false,
      preCompressed: true,
      // Hashed file names never change content: cache them for a year.
      maxAge: '365d',
      immutable: true,
    });
    // The few files outside it (favicons, the image placeholder): a route each, so that any other
    // path is left to the pages.
    await app.register(fastifyStatic, {
      root: clientBuildDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      globIgnore: ['assets/**', '**/*.br', '**/*.gz'],
      maxAge: '1h',
      decorateReply: false,
    });
    const entry = (await import(serverBuildFile)) as typeof import('../react-router-entry.ts');
    const handler = entry.createPageHandler(internalFetch, { mode, publicUrl, payments, adPixelId });
    getHandler = async () => handler;
  } else {
    const [{ createServer }, { default: middie }] = await Promise.all([import('vite'), import('@fastify/middie')]);
    const vite = await createServer({
      server: { middlewareMode: true, hmr: { server: app.server } },
      appType: 'custom',
    });
    app.addHook('onClose', () => vite.close());
    await app.register(middie);
    app.use(vite.middlewares);
    const ssr = vite.environments.ssr as unknown as { runner: { import(id: string): Promise<unknown> } };
    getHandler = async () => {
      const entry = (await ssr.runner.import(
        '/server/react-router-entry.ts',
      )) as typeof import('../react-router-entry.ts');
      return entry.createPageHandler(internalFetch, { mode, publicUrl, payments, adPixelId });
    };
  }

  async function render(request: FastifyRequest, reply: FastifyReply) {
    const handler = await getHandler();
    const response = await handler(toWebRequest(request, reply, publicUrl), { nonce: request.cspNonce });
    const shared =
      request.method === 'GET' &&
      response.status === 200 &&
      request.cookies[SESSION_COOKIE] === undefined &&
      !response.headers.has('set-cookie') &&
      isSharedPage(request.url);
    return shared ? sendSharedPage(request, reply, response) : response;
  }

  /** A page every signed-out visitor gets alike: cacheable, and a 304 when the visitor's copy is current. */
  async function sendSharedPage(request: FastifyRequest, reply: FastifyReply, response: Response) {
    const html = await response.text();
    const etag = pageEtag(html, request.cspNonce);
    for (const [name, value] of response.headers) reply.header(name, value);
    const vary = reply.getHeader('vary');
    reply
      .header('etag', etag)
      .header('cache-control', SHARED_PAGE_CACHE_CONTROL)
      .header('vary', vary ? `${vary}, Cookie` : 'Cookie');
    if (matchesEtag(request.headers['if-none-match'], etag)) {
      // The copy the visitor holds carries the nonce of its own policy: a 304 must not replace that policy.
      reply.removeHeader('content-security-policy');
      reply.removeHeader('content-type');
      return reply.code(304).send();
    }
    return reply.code(200).send(html);
  }

  await app.register(async (pages) => {
    // No page takes a body (see PAGE_METHODS): leave the stream unread, even for the 405s.
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser('*', (_request, _payload, done) => done(null));
    // A page for a signed-in visitor shows their account (the header holds their name, the account
    // page their email): no cache may keep it. Visitors' pages keep their caching as it is.
    pages.addHook('onSend', async (request, reply, payload) => {
      if (request.cookies[SESSION_COOKIE] !== undefined) reply.header('cache-control', 'private, no-store');
      return payload;
    });
    // The signed-out page ends the session before it renders, also when the visit comes from
    // another site: a forged link can only sign someone out. The `.data` twin is the same page
    // reached by a client-side navigation. A HEAD only looks: it is answered by the catch-all.
    for (const path of ['/logout', '/logout.data']) {
      pages.route({
        method: 'GET',
        url: path,
        exposeHeadRoute: false,
        handler: async (request, reply) => {
          await endSession(request, reply);
          return render(request, reply);
        },
      });
    }
    pages.route({ method: PAGE_METHODS, url: '/*', handler: render });
    // Any other method: the API's error format and Allow, never React Router's answer (which
    // names internal route ids). TRACE included: a web Request cannot even carry it.
    pages.route({
      method: pages.supportedMethods.filter((method) => !PAGE_METHODS.includes(method)),
      url: '/*',
      handler: (_request, reply) => {
        reply.header('allow', PAGE_METHODS.join(', '));
        return sendError(reply, 405, { error: 'Method not allowed', code: 'method_not_allowed' });
      },
    });
  });
}

/** The origin the visitor asked for; the shop's public one when the Host header is not a host. */
function originOf(request: FastifyRequest, publicUrl: string): string {
  try {
    return new URL(`${request.protocol}://${request.host}`).origin;
  } catch {
    return new URL(publicUrl).origin;
  }
}

function toWebRequest(request: FastifyRequest, reply: FastifyReply, publicUrl: string): Request {
  // request.url is the raw request target: appended to the origin (not resolved against it), `//`
  // and `//host/path` stay paths instead of reading as protocol-relative URLs.
  const path = request.url.startsWith('/') ? request.url : `/${request.url}`;
  const url = new URL(`${originOf(request, publicUrl)}${path}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  reply.raw.once('close', () => controller.abort());
  // GET or HEAD only (PAGE_METHODS): no body.
  return new Request(url, { method: request.method, headers, signal: controller.signal });
}
