import { existsSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { InternalFetch, PageHandler } from '../react-router-entry.ts';
import { sendError } from './errors.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const clientBuildDir = `${root}build/client`;
export const serverBuildFile = `${root}build/server/index.js`;

export type WebMode = 'production' | 'development';

/**
 * Serves the React Router app: in production the built assets and the built server bundle; in
 * development Vite's middleware with hot reload. Every path that no other route claims is a page.
 */
export async function mountWeb(
  app: FastifyInstance,
  { mode, internalFetch, publicUrl }: { mode: WebMode; internalFetch: InternalFetch; publicUrl: string },
) {
  let getHandler: () => Promise<PageHandler>;

  if (mode === 'production') {
    if (!existsSync(serverBuildFile)) {
      throw new Error('The web app is not built: run `npm run build` (npm start builds it for you).');
    }
    await app.register(fastifyStatic, {
      root: clientBuildDir,
      wildcard: false,
      index: false,
      maxAge: '1h',
      // Hashed file names never change content: cache them for a year.
      setHeaders(reply, filePath) {
        if (filePath.startsWith(`${clientBuildDir}/assets/`)) {
          reply.header('cache-control', 'public, max-age=31536000, immutable');
        }
      },
    });
    const entry = (await import(serverBuildFile)) as typeof import('../react-router-entry.ts');
    const handler = entry.createPageHandler(internalFetch, { mode, publicUrl });
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
      return entry.createPageHandler(internalFetch, { mode, publicUrl });
    };
  }

  await app.register(async (pages) => {
    // React Router reads the body of form submissions itself: leave the stream untouched here.
    pages.removeAllContentTypeParsers();
    pages.addContentTypeParser('*', (_request, _payload, done) => done(null));
    // A missing hashed asset is a plain 404, not a page.
    pages.get('/assets/*', (_request, reply) => sendError(reply, 404, { error: 'Not found', code: 'not_found' }));
    pages.all('/*', async (request, reply) => {
      const handler = await getHandler();
      return handler(toWebRequest(request, reply), { nonce: request.cspNonce });
    });
  });
}

function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const url = new URL(request.url, `${request.protocol}://${request.host}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const controller = new AbortController();
  reply.raw.once('close', () => controller.abort());
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  return new Request(url, {
    method: request.method,
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' } : {}),
  } as RequestInit);
}
