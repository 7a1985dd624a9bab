import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

type NonceRequest = IncomingMessage & { cspNonce?: string };

declare module 'fastify' {
  interface FastifyRequest {
    /** The nonce allowed for this page's inline scripts by the Content-Security-Policy. */
    cspNonce: string | undefined;
  }
}

/** Requests answered with data or files, not pages: their headers never change. */
const NOT_PAGES = /^\/(api|media|assets)\/|^\/(healthz|readyz|robots\.txt|sitemap\.xml|favicon\.(?:svg|ico))$/;

/**
 * The hosts Stripe.js needs, as Stripe documents them for a Content-Security-Policy: its script
 * (js.stripe.com), its API (api.stripe.com), and the frames of the Payment Element and of 3-D
 * Secure (js.stripe.com and its subdomains, hooks.stripe.com).
 */
export const stripeSources = {
  scriptSrc: ['https://js.stripe.com'],
  connectSrc: ['https://api.stripe.com'],
  frameSrc: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
} as const;

/**
 * The host of the TikTok pixel: its script (analytics.tiktok.com/i18n/pixel/events.js, which
 * loads its further scripts from the same host) and the events it reports there.
 */
export const adPixelSources = {
  scriptSrc: ['https://analytics.tiktok.com'],
  connectSrc: ['https://analytics.tiktok.com'],
} as const;

/** The outside services a shop's pages use, each admitted by the policy only when configured. */
type PageServices = { stripe: boolean; adPixel: boolean };

/**
 * Pages get a Content-Security-Policy that admits only our own scripts, plus React Router's
 * inline scripts through a per-request nonce; inline style attributes are allowed (React renders
 * them); images from any https host (marketplace images). Vite's development server needs inline
 * scripts and websockets. The payment provider (Stripe) and the ad pixel are admitted only when
 * the shop uses them.
 */
function pageDirectives(development: boolean, { stripe, adPixel }: PageServices) {
  const nonce = (request: IncomingMessage) => `'nonce-${(request as NonceRequest).cspNonce ?? ''}'`;
  const provider = (sources: readonly string[]) => (stripe ? sources : []);
  const pixel = (sources: readonly string[]) => (adPixel ? sources : []);
  return {
    defaultSrc: ["'self'"],
    scriptSrc: [
      ...(development ? ["'self'", "'unsafe-inline'"] : ["'self'", nonce]),
      ...provider(stripeSources.scriptSrc),
      ...pixel(adPixelSources.scriptSrc),
    ],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
    connectSrc: [
      ...(development ? ["'self'", 'ws:', 'wss:'] : ["'self'"]),
      ...provider(stripeSources.connectSrc),
      ...pixel(adPixelSources.connectSrc),
    ],
    // Without a provider, frames fall back to default-src ('self').
    ...(stripe ? { frameSrc: ["'self'", ...stripeSources.frameSrc] } : {}),
    fontSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    upgradeInsecureRequests: null,
  };
}

/** The headers a helmet middleware would set, computed once. */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => {
      headers[name.toLowerCase()] = value;
    },
    removeHeader: () => {},
  } as unknown as ServerResponse;
  middleware({} as IncomingMessage, response, () => {});
  return headers;
}

/**
 * The headers of answers that are data or files, not pages: JSON and files need only the headers
 * that matter outside a document; fewer headers also make each hot response cheaper.
 */
export function dataSecurityHeaders({ https }: { https: boolean }): Record<string, string> {
  return headersOf(
    helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
      },
      // Kept at helmet's defaults: X-Content-Type-Options, Cross-Origin-Resource-Policy,
      // Referrer-Policy and (over https) Strict-Transport-Security.
      ...(https ? {} : { strictTransportSecurity: false }),
      crossOriginEmbedderPolicy: false,
      crossOriginOpenerPolicy: false,
      originAgentCluster: false,
      xDnsPrefetchControl: false,
      xDownloadOptions: false,
      xFrameOptions: false,
      xPermittedCrossDomainPolicies: false,
      xXssProtection: false,
      xPoweredBy: false,
    }),
  );
}

/**
 * Security headers (helmet) on every response. Pages get the nonce policy, computed per request;
 * API answers, media and assets get a fixed set computed once, as they are the hot path.
 * `stripe`: the shop takes cards with Stripe, so its pages admit Stripe.js (`stripeSources`);
 * `adPixel`: the shop has a TikTok pixel, so its pages admit the pixel's host (`adPixelSources`).
 */
export function addSecurityHeaders(
  app: FastifyInstance,
  {
    development,
    https,
    stripe = false,
    adPixel = false,
  }: { development: boolean; https: boolean } & Partial<PageServices>,
) {
  const common: HelmetOptions = {
    crossOriginEmbedderPolicy: false,
    // HSTS only when the shop is served over https (helmet refuses a literal true).
    ...(https ? {} : { strictTransportSecurity: false }),
  };
  const forPages = helmet({
    ...common,
    contentSecurityPolicy: { directives: pageDirectives(development, { stripe, adPixel }) },
  });
  const fixed = dataSecurityHeaders({ https });
  app.decorateRequest('cspNonce', undefined);
  app.addHook('onRequest', (request, reply, done) => {
    if (NOT_PAGES.test(request.url)) {
      reply.headers(fixed);
      return done();
    }
    const nonce = randomBytes(16).toString('base64');
    request.cspNonce = nonce;
    (request.raw as NonceRequest).cspNonce = nonce;
    forPages(request.raw, reply.raw, () => done());
  });
}
