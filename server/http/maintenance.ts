import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MEDIA_PREFIX } from '#server/adapters/storage/object-storage.ts';
import { sendError } from './errors.ts';
import { type FindSessionUser, SESSION_COOKIE } from './session.ts';

/** How long a visitor is asked to wait before trying again, in seconds (Retry-After). */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

export const MAINTENANCE_MESSAGE = 'The shop is closed for maintenance. Please try again in a few minutes.';

/**
 * What keeps working for everyone while the shop is closed, so that an admin can sign in and open
 * it again: signing in and out, the CSRF token, `me`, the public settings, the password-reset
 * flow, the payment provider's webhook (payments already made still become orders), health
 * checks, built assets, media, the pages of those flows and the back office's page.
 */
const OPEN_PATHS = new Set([
  '/api/auth/login',
  '/api/auth/logout',
  '/api/auth/csrf-token',
  '/api/auth/me',
  '/api/settings/public',
  '/api/webhooks/stripe',
  // Leaving the newsletter works while the shop is closed: mail clients' one-click (RFC 8058)
  // and the page the mail links to.
  '/api/newsletter/unsubscribe',
  '/healthz',
  '/readyz',
  '/favicon.svg',
  '/favicon.ico',
  // The pages (and their client-navigation `.data` twins); /admin sends a visitor to sign in and
  // shows its data to admins only (the admin API is closed to everyone else anyway).
  ...['/login', '/logout', '/request-password-reset', '/reset-password', '/newsletter/unsubscribe', '/admin'].flatMap(
    (page) => [page, `${page}.data`],
  ),
]);
const OPEN_PREFIXES = ['/api/password-reset/', '/assets/', '/images/', MEDIA_PREFIX];
// `/login/../products` is an open path to the router but the products page to the browser's URL
// rules, which the page renderer follows: a path with a dot segment is never open.
const DOT_SEGMENT = /\/(\.|%2e){1,2}(\/|$)/i;

export type MaintenanceOptions = {
  /** Whether the shop is closed (the settings' maintenanceMode): asked on every request, so it must be quick. */
  isMaintenance: () => boolean;
  /** The signed-in user of a session token: admins (owner and admin) get in as usual. */
  findUser: FindSessionUser;
  /** The shop's name for the maintenance page. */
  siteName: () => string;
  /** The server's own calls while it renders a page: the page itself was already let through. */
  isInternal: (request: FastifyRequest) => boolean;
};

/**
 * Maintenance mode: while it is on, the storefront's pages answer 503 with a short maintenance
 * page and the API answers 503 `{ error, code: 'maintenance' }`, both with Retry-After, except
 * for admins and the open paths above. One hook for the whole app, registered before the routes
 * (hooks are copied into the scopes registered after them). It runs before validation, after the
 * rate limit and the CSRF check: a closed shop counts requests as an open one does. The session is
 * looked up here only while the shop is closed (the API scope resolves it later in the same stage).
 */
export function maintenanceMode(
  app: FastifyInstance,
  { isMaintenance, findUser, siteName, isInternal }: MaintenanceOptions,
) {
  app.addHook('preValidation', (request, reply, done) => {
    if (!isMaintenance() || isInternal(request)) return done();
    const path = pathOf(request.url);
    if (isOpen(path)) return done();
    const token = request.cookies[SESSION_COOKIE];
    if (!token) {
      closed(reply, path);
      return;
    }
    findUser(token).then(
      (user) => {
        if (user?.isAdmin) done();
        else closed(reply, path);
      },
      (error: Error) => done(error),
    );
  });

  function closed(reply: FastifyReply, path: string) {
    reply.header('retry-after', String(MAINTENANCE_RETRY_AFTER_SECONDS)).header('cache-control', 'no-store');
    if (path.startsWith('/api/')) {
      sendError(reply, 503, { error: MAINTENANCE_MESSAGE, code: 'maintenance' });
      return;
    }
    reply.status(503).type('text/html; charset=utf-8').send(maintenancePage(siteName()));
  }
}

/** The path of a request target, without its query and trailing slash. */
function pathOf(url: string): string {
  const end = url.indexOf('?');
  const path = end === -1 ? url : url.slice(0, end);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

function isOpen(path: string): boolean {
  if (DOT_SEGMENT.test(path)) return false;
  return OPEN_PATHS.has(path) || OPEN_PREFIXES.some((prefix) => path.startsWith(prefix));
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/**
 * The maintenance page: plain HTML with the shop's colours and no script, readable without the
 * app's assets. Staff get a link to sign in (admins see the shop as usual once signed in).
 */
export function maintenancePage(siteName: string): string {
  const name = escapeHtml(siteName);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Closed for maintenance · ${name}</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
<style>
  html { color: #1f2924; background: #faf8f4; font-family: ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; }
  main { max-width: 32rem; margin: 2rem; padding: 2.5rem 2rem; background: #f3f6f4; border: 1px solid #c8d6cc; border-radius: 1rem; text-align: center; }
  .brand { margin: 0 0 1.5rem; font-family: ui-serif, Georgia, Cambria, "Times New Roman", serif; font-size: 1.5rem; color: #3c5343; }
  h1 { margin: 0 0 1rem; font-family: ui-serif, Georgia, Cambria, "Times New Roman", serif; font-size: 1.75rem; color: #223027; }
  p { margin: 0 0 1rem; line-height: 1.6; }
  .staff { margin: 1.5rem 0 0; font-size: 0.875rem; }
  a { color: #3c5343; text-underline-offset: 2px; }
  a:hover, a:focus-visible { color: #223027; }
  a:focus-visible { outline: 2px solid #4b6854; outline-offset: 2px; }
</style>
</head>
<body>
<main>
<p class="brand">${name}</p>
<h1>We’ll be back soon</h1>
<p>The shop is closed for maintenance. Please come back in a few minutes.</p>
<p class="staff"><a href="/login?redirect=%2Fadmin">Staff sign in</a></p>
</main>
</body>
</html>
`;
}
