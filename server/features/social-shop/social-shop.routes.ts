import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod/mini';
import { hasAccess } from '#common/permissions.ts';
import { SANDBOX_BASE_PATH, SANDBOX_SELLER_CENTRE_PATH } from '#server/adapters/social-shop/sandbox.ts';
import type { TikTokShopStandIn } from '#server/adapters/social-shop/tiktok-shop-stand-in.ts';
import { type FindSessionUser, SESSION_COOKIE } from '#server/http/session.ts';
import { channelErrors } from './social-shop.admin-routes.ts';
import type { SocialShopService } from './social-shop.service.ts';

/** Where the channel sends the seller back after the authorise page (the app's registered redirect URL). */
export const SOCIAL_SHOP_CALLBACK_PATH = '/api/tiktok-shop/callback';
/** Where the channel delivers its events (subscribed in TikTok Shop's partner centre). */
export const SOCIAL_SHOP_WEBHOOK_PATH = '/api/tiktok-shop/webhook';

const param = z.optional(z.string().check(z.maxLength(2048)));
const CallbackQuery = z.object({ state: param, code: param, auth_code: param });

/**
 * The channel's two calls to us, outside the admin scope: the OAuth redirect back (the browser
 * of the admin who connected; the state binds it to that admin's session) and the signed webhook
 * (outside the CSRF scope: its HMAC signature stands instead; read raw, as the signature covers
 * the body's exact bytes).
 */
export const socialShopPublicRoutes: FastifyPluginAsyncZod<{ socialShop: SocialShopService }> = async (
  app,
  { socialShop },
) => {
  channelErrors(app);
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit: 256 * 1024 }, (_request, body, done) =>
    done(null, body),
  );

  app.get(
    SOCIAL_SHOP_CALLBACK_PATH,
    { schema: { tags: ['admin'], hide: true, querystring: CallbackQuery } },
    async (request, reply) => {
      const { state, code, auth_code } = request.query;
      const target = await socialShop.grants.completeAuthorisation({
        state,
        code: code || auth_code || undefined,
        sessionToken: request.cookies[SESSION_COOKIE],
      });
      reply.header('cache-control', 'no-store');
      // The code and state stay out of the next page's Referer.
      reply.header('referrer-policy', 'no-referrer');
      return reply.redirect(target, 303);
    },
  );

  // Not limited per client: the channel delivers from a few addresses, and the signature refuses anyone else.
  app.post(
    SOCIAL_SHOP_WEBHOOK_PATH,
    { schema: { tags: ['admin'], hide: true }, config: { rateLimit: false } },
    async (request) => {
      const raw = typeof request.body === 'string' ? request.body : '';
      const header = request.headers.authorization;
      return socialShop.receiveWebhook(raw, Array.isArray(header) ? header[0] : header);
    },
  );
};

/**
 * The sandbox shop's pages, served by the app when no TikTok Shop app is configured: the
 * authorise page the demo's popup opens, and its seller centre, where an admin who may manage
 * products places test orders (delivered to the webhook in process). Only its pages: the
 * stand-in's API is called in process.
 */
export const sandboxShopPages: FastifyPluginAsyncZod<{
  standIn: TikTokShopStandIn;
  findUser: FindSessionUser;
  publicUrl: string;
}> = async (app, { standIn, findUser, publicUrl }) => {
  const sellerCentre = SANDBOX_SELLER_CENTRE_PATH;
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => done(null, body),
  );

  async function forward(request: FastifyRequest, reply: FastifyReply) {
    const url = new URL(request.url, 'http://sandbox.local');
    if (url.pathname.startsWith(sellerCentre)) {
      // Test orders become orders of this shop: only for those who may manage its products.
      const token = request.cookies[SESSION_COOKIE];
      const user = token ? await findUser(token) : null;
      if (!user || !hasAccess(user, 'uploadProducts')) {
        return reply
          .code(303)
          .header('location', `/login?redirect=${encodeURIComponent(url.pathname)}`)
          .send();
      }
      // A form of this site only (the session cookie is SameSite=Lax, so another site's POST has
      // none anyway). Browsers say so in Sec-Fetch-Site; the Origin is null under no-referrer.
      const site = request.headers['sec-fetch-site'];
      const sameOrigin = site ? site === 'same-origin' : request.headers.origin === new URL(publicUrl).origin;
      if (request.method === 'POST' && !sameOrigin) {
        return reply.code(403).type('text/plain').send('Test orders are placed from the seller centre only');
      }
    }
    // The stand-in's own paths (it takes them with or without the prefix).
    url.pathname = url.pathname.slice(SANDBOX_BASE_PATH.length);
    const answer = await standIn.handle(
      new Request(url, {
        method: request.method,
        ...(request.method === 'POST'
          ? {
              body: typeof request.body === 'string' ? request.body : '',
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
            }
          : {}),
      }),
    );
    reply.code(answer.status);
    for (const name of ['content-type', 'location', 'cache-control']) {
      const value = answer.headers.get(name);
      if (value) reply.header(name, value);
    }
    return reply.send(await answer.text());
  }

  app.get(`${SANDBOX_BASE_PATH}/open/*`, { schema: { hide: true } }, forward);
  app.post(`${sellerCentre}/orders`, { schema: { hide: true } }, forward);
};
