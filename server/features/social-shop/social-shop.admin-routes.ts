import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  getSocialShopAuthUrl,
  getSocialShopCategoryMappings,
  getSocialShopLatestSyncs,
  getSocialShopSync,
  getSocialShops,
  resolveSocialShops,
  saveSocialShopCategoryMapping,
  syncSocialShopInventory,
  syncSocialShopProducts,
} from '#common/contracts/admin/social-shop.ts';
import { SANDBOX_SELLER_CENTRE_PATH } from '#server/adapters/social-shop/sandbox.ts';
import { SocialShopError } from '#server/adapters/social-shop/social-shop.ts';
import type { Db } from '#server/db/client.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { AppError, handleError, unauthorized } from '#server/http/errors.ts';
import { SESSION_COOKIE } from '#server/http/session.ts';
import { loggable } from './grants.ts';
import type { SocialShopService } from './social-shop.service.ts';

/** The channel's refusals as answers that say what to do; never its tokens. */
export function channelErrors(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    if (!(error instanceof SocialShopError)) return handleError(error as never, request, reply);
    request.log.warn(loggable(error), 'TikTok Shop refused a call');
    const answers: Record<SocialShopError['kind'], AppError> = {
      credentials: new AppError(
        502,
        'tiktok_credentials',
        'TikTok Shop refused the app credentials: check TIKTOK_SHOP_APP_KEY and TIKTOK_SHOP_APP_SECRET',
      ),
      not_approved: new AppError(502, 'tiktok_not_approved', 'TikTok Shop has not approved this app for that API yet'),
      token_expired: new AppError(
        409,
        'reconnect_required',
        'The TikTok Shop authorisation has expired: connect the shop again',
      ),
      not_found: new AppError(404, 'not_found', `TikTok Shop: ${error.message}`),
      rejected: new AppError(422, 'tiktok_rejected', `TikTok Shop: ${error.message}`),
      rate_limited: new AppError(429, 'tiktok_rate_limited', 'TikTok Shop is limiting requests: try again in a minute'),
      unavailable: new AppError(503, 'tiktok_unavailable', 'TikTok Shop is not answering: try again shortly'),
    };
    return handleError(answers[error.kind] as never, request, reply);
  });
}

/**
 * The tiktok-shop tab's calls (spec 7, Social shop; issue 14), inside the admin scope: every one
 * needs uploadProducts. The syncs answer their run, with its result when it finished within a
 * few seconds (202 while it still runs: the tab follows it by id).
 */
export const socialShopAdminRoutes: FastifyPluginAsyncZod<{ db: Db; socialShop: SocialShopService }> = async (
  app,
  { db, socialShop },
) => {
  const tags = ['admin'];
  const config = { access: 'uploadProducts' as const };
  channelErrors(app);
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'private, no-store');
  });

  async function audit(
    userId: string | null,
    ip: string,
    action: string,
    entityId: string | null,
    details: Record<string, unknown>,
  ) {
    await db.insert(auditLog).values({ actorUserId: userId, action, entityType: 'social_shop', entityId, details, ip });
  }

  app.get(
    getSocialShopAuthUrl.path,
    { config, schema: { tags, response: { 200: getSocialShopAuthUrl.response } } },
    async (request) => {
      const sessionToken = request.cookies[SESSION_COOKIE];
      if (!request.user || !sessionToken) throw unauthorized();
      return { authUrl: await socialShop.grants.authorizeUrl(request.user.id, sessionToken) };
    },
  );

  app.get(getSocialShops.path, { config, schema: { tags, response: { 200: getSocialShops.response } } }, async () => ({
    shops: await socialShop.grants.shops(),
    sellerCentreUrl: socialShop.mode === 'sandbox' ? SANDBOX_SELLER_CENTRE_PATH : null,
  }));

  app.post(
    resolveSocialShops.path,
    { config, schema: { tags, body: resolveSocialShops.body, response: { 200: resolveSocialShops.response } } },
    async (request) => {
      const resolved = await socialShop.grants.resolveShops();
      const shops = await socialShop.grants.shops();
      await audit(request.user?.id ?? null, request.ip, 'social_shop.shops_resolved', null, { resolved });
      return { shops, resolved };
    },
  );

  app.post(
    syncSocialShopProducts.path,
    {
      config,
      schema: {
        tags,
        body: syncSocialShopProducts.body,
        response: { 200: syncSocialShopProducts.response, 202: syncSocialShopProducts.response },
      },
    },
    async (request, reply) => {
      const { shopId, forceAll = false } = request.body;
      const { run, finished } = await socialShop.sync.start('products', shopId, forceAll);
      await audit(request.user?.id ?? null, request.ip, 'social_shop.products_synced', shopId, {
        syncId: run.syncId,
        forceAll,
      });
      return reply.code(finished ? 200 : 202).send(run);
    },
  );

  app.post(
    syncSocialShopInventory.path,
    {
      config,
      schema: {
        tags,
        body: syncSocialShopInventory.body,
        response: { 200: syncSocialShopInventory.response, 202: syncSocialShopInventory.response },
      },
    },
    async (request, reply) => {
      const { run, finished } = await socialShop.sync.start('inventory', request.body.shopId, false);
      await audit(request.user?.id ?? null, request.ip, 'social_shop.inventory_synced', request.body.shopId, {
        syncId: run.syncId,
      });
      return reply.code(finished ? 200 : 202).send(run);
    },
  );

  app.get(
    getSocialShopSync.path,
    { config, schema: { tags, params: getSocialShopSync.params, response: { 200: getSocialShopSync.response } } },
    async (request) => socialShop.sync.run(request.params.syncId),
  );

  app.get(
    getSocialShopLatestSyncs.path,
    {
      config,
      schema: {
        tags,
        querystring: getSocialShopLatestSyncs.query,
        response: { 200: getSocialShopLatestSyncs.response },
      },
    },
    async (request) => socialShop.sync.latest(request.query.shopId),
  );

  app.get(
    getSocialShopCategoryMappings.path,
    {
      config,
      schema: {
        tags,
        querystring: getSocialShopCategoryMappings.query,
        response: { 200: getSocialShopCategoryMappings.response },
      },
    },
    async (request) => socialShop.sync.categoryMappings(request.query.shopId),
  );

  app.put(
    saveSocialShopCategoryMapping.path,
    {
      config,
      schema: {
        tags,
        body: saveSocialShopCategoryMapping.body,
        response: { 200: saveSocialShopCategoryMapping.response },
      },
    },
    async (request) => {
      const mapping = await socialShop.sync.saveCategoryMapping(request.body);
      await audit(request.user?.id ?? null, request.ip, 'social_shop.category_mapped', request.body.shopId, {
        categoryId: mapping.categoryId,
        channelCategoryId: mapping.channelCategoryId,
      });
      return mapping;
    },
  );
};
