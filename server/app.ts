import { randomBytes } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyRequest, type FastifyServerOptions, LogController } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import { CSRF_HEADER } from '#common/constants.ts';
import { settingsDefaults } from '#common/settings-defaults.ts';
import { createAdapters } from '#server/adapters/adapters.ts';
import type { AiProvider } from '#server/adapters/ai/ai-provider.ts';
import type { Mailer } from '#server/adapters/email/mailer.ts';
import type { Marketplace } from '#server/adapters/marketplace/marketplace.ts';
import type { PaymentProcessor } from '#server/adapters/payments/payment-processor.ts';
import type { SocialShop } from '#server/adapters/social-shop/social-shop.ts';
import type { TikTokShopStandIn } from '#server/adapters/social-shop/tiktok-shop-stand-in.ts';
import { MEDIA_PREFIX, type ObjectStorage } from '#server/adapters/storage/object-storage.ts';
import type { AdEventsApi } from '#server/adapters/tracking/ad-events-api.ts';
import type { Config } from '#server/config.ts';
import { crashSwitch } from '#server/crash/crash-points.ts';
import type { Database } from '#server/db/client.ts';
import { accountsAdminRoutes } from '#server/features/accounts/accounts.admin-routes.ts';
import { accountsRoutes } from '#server/features/accounts/accounts.routes.ts';
import { createAccountsService } from '#server/features/accounts/accounts.service.ts';
import { createAdminManagementService } from '#server/features/accounts/admin-management.service.ts';
import { createAdminUsersService } from '#server/features/accounts/admin-users.service.ts';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { analyticsRoutes } from '#server/features/analytics/analytics.routes.ts';
import { createAnalyticsService } from '#server/features/analytics/analytics.service.ts';
import { auditAdminRoutes } from '#server/features/audit/audit.admin-routes.ts';
import { createAuditService } from '#server/features/audit/audit.service.ts';
import { catalogRoutes } from '#server/features/catalog/catalog.routes.ts';
import { createCatalogService } from '#server/features/catalog/catalog.service.ts';
import { productImagesAdminRoutes } from '#server/features/catalog/product-images.admin-routes.ts';
import { productsAdminRoutes } from '#server/features/catalog/products.admin-routes.ts';
import { createProductsAdminService } from '#server/features/catalog/products-admin.service.ts';
import { seoRoutes } from '#server/features/catalog/seo.routes.ts';
import { checkoutRoutes, paymentWebhookRoutes } from '#server/features/checkout/checkout.routes.ts';
import { createCheckoutService } from '#server/features/checkout/checkout.service.ts';
import { dashboardAdminRoutes } from '#server/features/dashboard/dashboard.admin-routes.ts';
import { createDashboardService } from '#server/features/dashboard/dashboard.service.ts';
import { createDomainEvents, shopRedisPrefix } from '#server/features/events/domain-events.ts';
import { eventsAdminRoutes } from '#server/features/events/events.admin-routes.ts';
import { createFulfilment, fulfilmentSweepJob } from '#server/features/fulfilment/fulfilment.service.ts';
import { marketingRoutes } from '#server/features/marketing/marketing.routes.ts';
import { createMarketingService, createRunningSales } from '#server/features/marketing/marketing.service.ts';
import { salesAdminRoutes } from '#server/features/marketing/sales.admin-routes.ts';
import { createSalesAdminService } from '#server/features/marketing/sales-admin.service.ts';
import { aiContentAdminRoutes } from '#server/features/marketplace/ai-content.admin-routes.ts';
import { createAiContentService } from '#server/features/marketplace/ai-content.service.ts';
import { marketplaceAdminRoutes } from '#server/features/marketplace/marketplace.admin-routes.ts';
import { marketplaceRoutes } from '#server/features/marketplace/marketplace.routes.ts';
import { createMarketplaceRefresh } from '#server/features/marketplace/marketplace-refresh.job.ts';
import { newsletterAdminRoutes } from '#server/features/newsletter/newsletter.admin-routes.ts';
import { newsletterRoutes } from '#server/features/newsletter/newsletter.routes.ts';
import { createNewsletterService } from '#server/features/newsletter/newsletter.service.ts';
import { createNewsletterSends } from '#server/features/newsletter/newsletter-sends.ts';
import { createAdminOrdersService } from '#server/features/orders/admin-orders.service.ts';
import { ordersAdminRoutes } from '#server/features/orders/orders.admin-routes.ts';
import { ordersRoutes } from '#server/features/orders/orders.routes.ts';
import { createOrdersService } from '#server/features/orders/orders.service.ts';
import { createReviewModerationService } from '#server/features/reviews/review-moderation.service.ts';
import { REVIEW_ADMIN_ALIAS_PREFIX, reviewsAdminRoutes } from '#server/features/reviews/reviews.admin-routes.ts';
import { reviewsRoutes } from '#server/features/reviews/reviews.routes.ts';
import { createReviewsService } from '#server/features/reviews/reviews.service.ts';
import { createSecretBox } from '#server/features/settings/secret-box.ts';
import { settingsAdminRoutes } from '#server/features/settings/settings.admin-routes.ts';
import { settingsRoutes } from '#server/features/settings/settings.routes.ts';
import { createSettingsService } from '#server/features/settings/settings.service.ts';
import { socialShopAdminRoutes } from '#server/features/social-shop/social-shop.admin-routes.ts';
import {
  SOCIAL_SHOP_CALLBACK_PATH,
  sandboxShopPages,
  socialShopPublicRoutes,
} from '#server/features/social-shop/social-shop.routes.ts';
import { createSocialShopService } from '#server/features/social-shop/social-shop.service.ts';
import { trackingRoutes } from '#server/features/tracking/tracking.routes.ts';
import { createTrackingService } from '#server/features/tracking/tracking.service.ts';
import { ADMIN_API_PREFIXES, isAdminApiUrl, requireAdminAccess } from '#server/http/admin-access.ts';
import { createCsrfProtection } from '#server/http/csrf.ts';
import { registerDrain } from '#server/http/drain.ts';
import { clientErrorHandler, frameworkErrorHandler, handleError, sendError } from '#server/http/errors.ts';
import { healthRoutes } from '#server/http/health.routes.ts';
import { parseQueryString, refuseUnsafeStrings } from '#server/http/input-guard.ts';
import { logSerializers } from '#server/http/logging.ts';
import { maintenanceMode } from '#server/http/maintenance.ts';
import { mediaRoutes } from '#server/http/media.routes.ts';
import type { Metrics } from '#server/http/metrics.ts';
import { createPublicCache } from '#server/http/public-cache.ts';
import { createRememberedValues } from '#server/http/remembered-values.ts';
import { requestIdLogOptions, trackRequestIds } from '#server/http/request-context.ts';
import { responseSerializerCompiler } from '#server/http/response-serializer.ts';
import { addSecurityHeaders, dataSecurityHeaders } from '#server/http/security.ts';
import { resolveSessions, SESSION_COOKIE } from '#server/http/session.ts';
import { trustProxyFunction } from '#server/http/trust-proxy.ts';
import { mountWeb, type WebMode } from '#server/http/web.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';

export type AppDeps = {
  config: Config;
  database: Database;
  /** Signs CSRF tokens; SESSION_SECRET or the instance's generated secret. */
  signingKey: string;
  storage?: ObjectStorage;
  /** Where email goes; by default SMTP or the outbox, as configured. */
  mailer?: Mailer;
  /** Shared rate-limit counters across instances. */
  redis?: Redis | null;
  /** Structured answers for the review overview and moderation; by default as configured (AI_BASE_URL or built-in). */
  ai?: AiProvider;
  /** Card payments; by default as configured (Stripe keys, or the built-in test processor). */
  payments?: PaymentProcessor;
  /** How pages are served; null for an API-only app (most API tests). */
  web?: WebMode | null;
  /** The background jobs that requests hand work to (main.ts attaches the durable queue). */
  jobs: Jobs;
  /** The ad service's Events API; by default as configured (TIKTOK_EVENTS_TOKEN), else events are only recorded. */
  adEventsApi?: AdEventsApi | null;
  /** The marketplace products come from; by default AliExpress when configured, else the demo marketplace. */
  marketplace?: Marketplace;
  /** The social-shop channel (a client against a stand-in in tests); by default TikTok Shop when configured, else the sandbox. */
  socialShop?: SocialShop;
  /** The stand-in whose authorise page the app serves, with `socialShop` (tests); null: none. */
  socialShopSandbox?: TikTokShopStandIn | null;
  /** How page views are batched before they are written (by default every second or 500 rows). */
  analyticsBatch?: { maxRows?: number; intervalMs?: number };
  /** How often the live stream sends its heartbeat and checks each stream's session (15 s by default). */
  liveHeartbeatMs?: number;
  /** Where the log goes (standard output by default; tests capture it). */
  logStream?: { write(line: string): void };
  /** Prometheus metrics this app feeds (main.ts serves them on METRICS_PORT); none by default. */
  metrics?: Metrics | null;
};

/** Whole requests must arrive within this time: a client trickling its body cannot hold a connection. */
export const REQUEST_TIMEOUT_MS = 30_000;
/** A connection with nothing moving either way for this long is closed (streams send heartbeats). */
export const CONNECTION_TIMEOUT_MS = 120_000;
/** Answers in memory up to this size are compressed in one call rather than through a stream. */
export const COMPRESS_IN_ONE_CALL_MAX_BYTES = 65_536;

/**
 * Every schema is zod's, so Fastify gets zod's compilers as its factories: given them, it does not
 * load its JSON Schema compilers (Ajv and fast-json-stringify), some 60 ms of every start (issue
 * 15, cold start). Fastify's types describe the factories for Ajv; it calls them the same way.
 */
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => responseSerializerCompiler,
} as unknown as NonNullable<FastifyServerOptions['schemaController']>['compilersFactory'];

/** Builds the whole application from its dependencies: the one place where features are wired. */
export async function buildApp(deps: AppDeps) {
  const { config, database } = deps;
  const { db } = database;
  const secureCookies = config.publicUrl.startsWith('https://');

  // Server rendering calls the API in-process; those calls carry this per-process key so the
  // rate limiter counts the page request, not each call made to render it, and the log shows
  // one line per page instead of one per call.
  const internalKey = randomBytes(16).toString('hex');
  const isInternal = (request: { headers: Record<string, unknown> }) =>
    request.headers['x-internal-key'] === internalKey;

  const dataHeaders = dataSecurityHeaders({ https: secureCookies });
  const app = Fastify({
    logger: {
      level: config.logLevel,
      serializers: logSerializers,
      // Lines written while serving a request (app.log, services' log, its jobs) carry its reqId.
      ...requestIdLogOptions,
      ...(deps.logStream ? { stream: deps.logStream } : {}),
    },
    logController: new LogController({
      // Page renders' internal calls, health checks and images would drown the log.
      disableRequestLogging: (request) =>
        isInternal(request) ||
        request.url === '/healthz' ||
        request.url === '/readyz' ||
        request.url.startsWith(MEDIA_PREFIX),
    }),
    trustProxy: trustProxyFunction(config.trustProxy),
    bodyLimit: 1024 * 1024,
    requestTimeout: REQUEST_TIMEOUT_MS,
    connectionTimeout: CONNECTION_TIMEOUT_MS,
    frameworkErrors: frameworkErrorHandler(dataHeaders),
    clientErrorHandler: clientErrorHandler(dataHeaders),
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200, querystringParser: parseQueryString },
    schemaController: { compilersFactory: zodCompilers },
  }).withTypeProvider<ZodTypeProvider>();
  app.setErrorHandler(handleError);
  trackRequestIds(app);
  // Metrics: before every route, so every route's requests are counted.
  const metrics = deps.metrics ?? null;
  if (metrics) {
    metrics.observeRequests(app, { ignore: isInternal });
    deps.jobs.onFailure((queue) => metrics.jobFailed(queue));
    if (database.pool) metrics.watchDatabasePool(database.pool);
  }
  // Before every other hook: a draining instance answers new requests at once.
  registerDrain(app, isInternal);

  // Shops may share one Redis: every channel and key of this one carries the shop's own prefix.
  const redisPrefix = deps.redis ? await shopRedisPrefix(db) : '';
  // Each write's event: stored for the live stream and heard by every instance (PostgreSQL
  // LISTEN/NOTIFY, Redis pub/sub, or in-process on PGlite).
  const events = createDomainEvents({
    database,
    redis: deps.redis ? { client: deps.redis, prefix: redisPrefix } : null,
    log: (message, error) => app.log.error({ err: error }, message),
  });
  await events.start();
  app.addHook('onClose', () => events.close());
  // Before the adapters: the AI and Stripe use the keys saved in the settings (encrypted with a
  // key derived from the signing key). A save is heard by every instance at once.
  const settings = createSettingsService({
    db,
    keyMaterial: deps.signingKey,
    signal: {
      publish: () => events.notifyInternal('settings_changed'),
      subscribe: (onChange) => events.onInternal('settings_changed', onChange),
    },
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  await settings.load();
  app.addHook('onClose', async () => settings.close());
  const { storage, mailer, ai, payments, adEventsApi, marketplace, socialShop, socialShopSandbox } = createAdapters(
    config,
    {
      db,
      log: {
        info: (message, error) => app.log.info({ err: error }, message),
        warn: (message) => app.log.warn(message),
      },
      keys: settings.keys,
      socialShopRedirectUrl: `${config.publicUrl}${SOCIAL_SHOP_CALLBACK_PATH}`,
      sandboxSecret: deps.signingKey,
    },
    deps,
  );
  const sessions = createSessionStore({ db });
  const accounts = createAccountsService({
    db,
    mailer,
    settings,
    events,
    publicUrl: config.publicUrl,
    jobs: deps.jobs,
  });
  // The running sales (the catalogue's sale prices, the checkout's) are read again on every
  // instance as soon as a sale is written, or an order may have used one up.
  const runningSales = createRunningSales({ db });
  events.subscribe((event) => {
    if (event.data.collection === 'sales' || event.type === 'order_created') runningSales.forget();
  });
  // Hot public reads, dropped whenever the shop changes (the events the back office's stream carries).
  const cache = createPublicCache(metrics ? { onLookup: metrics.cacheLookup } : {});
  events.subscribe(() => cache.invalidate());
  /*
   * The admin lists' searched pages, kept until the next change event and at most 10 s (a write
   * that no event tells of): a common search over a million rows reads tens of thousands of
   * matches, and the admins who run it, or run it again, share that read (countedPage's `remembered`).
   */
  const adminSearches = createRememberedValues({ ttlMs: 10_000, maxValues: 200 });
  events.subscribe(() => adminSearches.invalidate());
  // A search's ranking is kept as its answers are, for all of its pages.
  const catalog = createCatalogService({ db, runningSales, remember: cache.remember });
  const marketing = createMarketingService({ db, jobs: deps.jobs });
  const orders = createOrdersService({ db });
  const reviews = createReviewsService({
    db,
    ai,
    settings,
    events,
    jobs: deps.jobs,
    hasPurchased: (userId, productId) => orders.hasPurchased(userId, productId),
  });
  const newsletterDeps = { db, mailer, settings, jobs: deps.jobs, publicUrl: config.publicUrl };
  const newsletter = createNewsletterService({ ...newsletterDeps, events });
  const newsletterSends = createNewsletterSends(newsletterDeps);
  // Paid orders' supplier orders, placed and followed through the marketplace (the sweep runs every minute).
  const fulfilment = createFulfilment({
    db,
    marketplace,
    events,
    mailer,
    jobs: deps.jobs,
    publicUrl: config.publicUrl,
    log: (message, error) => app.log.error({ err: error }, message),
  });
  deps.jobs.schedule(fulfilmentSweepJob(fulfilment));
  const checkout = createCheckoutService({
    db,
    processor: payments,
    settings,
    runningSales,
    events,
    jobs: deps.jobs,
    mailer,
    publicUrl: config.publicUrl,
    subscribeToNewsletter: (email) => newsletter.subscribe(email, 'checkout'),
    fulfil: (orderId) => fulfilment.orderPaid(orderId),
    log: (message, error) => app.log.error({ err: error }, message),
    ...(metrics ? { onPaymentOutcome: metrics.paymentOutcome } : {}),
    crash: crashSwitch(config.crashAt),
  });
  // The social shop's orders come in as paid orders and go the same dropship way.
  const socialShopService = createSocialShopService({
    db,
    socialShop,
    box: createSecretBox(deps.signingKey),
    storage,
    jobs: deps.jobs,
    events,
    fulfil: (orderId) => fulfilment.orderPaid(orderId),
    log: (message, error) => app.log.warn({ err: error }, message),
  });
  app.addHook('onClose', async () => socialShopService.close());
  const analytics = createAnalyticsService({
    db,
    pglite: database.pglite,
    log: (message, error) => app.log.error({ err: error }, message),
    ...(deps.analyticsBatch ? { batch: deps.analyticsBatch } : {}),
  });
  const tracking = createTrackingService({
    db,
    eventsApi: adEventsApi,
    jobs: deps.jobs,
    forwardTestEventCode: !config.isProduction,
  });
  // The page views waiting in memory are written before the database closes.
  app.addHook('onClose', async () => {
    await analytics.close();
  });
  const csrf = createCsrfProtection({ signingKey: deps.signingKey, secureCookies });

  // Clients no limit counts: the server's own render calls and the configured addresses (each read
  // of request.ip resolves the address anew: only read when there is a list).
  const isExempt = (request: FastifyRequest) =>
    isInternal(request) || (config.rateLimitAllowList.length > 0 && config.rateLimitAllowList.includes(request.ip));

  await app.register(fastifyCookie);
  addSecurityHeaders(app, {
    development: deps.web === 'development',
    https: secureCookies,
    // The CSP admits Stripe's hosts only when the shop pays with Stripe.
    stripe: checkout.browserConfig.provider === 'stripe',
    // ... and the ad pixel's host only when the shop has a pixel.
    adPixel: config.tracking.pixelId !== null,
  });
  // An answer in memory up to 64 kB (the API's JSON) is compressed in one call and sent with its
  // length; larger ones (pages, exports) go through a stream, compressed on libuv's threads. The
  // library's default on two cores, 8 kB, streamed an admin list's 23 kB: a quarter more of the
  // shop's CPU per request (docs/performance.md, "Eleventh round"). Zstandard first, for the
  // browsers that take it: at its default level it compresses an admin list or a page 2.5-5 times
  // faster than Brotli at the library's quality 4, 5-8 % larger (the public cache's hot answers
  // keep their Brotli at quality 10: public-cache.ts).
  await app.register(fastifyCompress, {
    threshold: 1024,
    encodings: ['zstd', 'br', 'gzip', 'deflate'],
    syncThreshold: COMPRESS_IN_ONE_CALL_MAX_BYTES,
  });
  await app.register(fastifyRateLimit, {
    global: true,
    timeWindow: '1 minute',
    max: () => settings.current()?.generalRateLimit ?? 100,
    redis: deps.redis ?? undefined,
    nameSpace: `${redisPrefix}rate-`,
    // The limit's headers go with the 429 only (Retry-After), not on every answer.
    addHeadersOnExceeding: { 'x-ratelimit-limit': false, 'x-ratelimit-remaining': false, 'x-ratelimit-reset': false },
    // The admin API has its own limit (the admin scope below).
    allowList: (request) =>
      isExempt(request) ||
      isAdminApiUrl(request.url) ||
      // The reviews tab's writes at the spec's paths without /api (the pages there are GETs).
      ((request.method === 'PATCH' || request.method === 'DELETE') &&
        request.url.startsWith(REVIEW_ADMIN_ALIAS_PREFIX)) ||
      request.url.startsWith('/assets/') ||
      request.url.startsWith(MEDIA_PREFIX) ||
      request.url === '/healthz' ||
      request.url === '/readyz',
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'rate_limited',
      message: `Too many requests: try again in ${context.after}`,
    }),
  });

  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Stillwater API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  // The docs page is a document, not data: it gets its own policy (scripts from itself only).
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    staticCSP:
      "default-src 'self'; base-uri 'self'; img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; style-src 'self' 'unsafe-inline'; font-src 'self' data:; frame-ancestors 'none'",
  });

  // Before every route: maintenance mode closes the shop to all but admins and the open paths.
  maintenanceMode(app, {
    isMaintenance: () => settings.current()?.maintenanceMode ?? false,
    findUser: (token) => sessions.findUser(token),
    siteName: () => settings.current()?.siteName ?? settingsDefaults.siteName,
    isInternal,
  });
  await app.register(healthRoutes, { db });
  await app.register(mediaRoutes, { storage });
  await app.register(seoRoutes, { catalog, publicUrl: config.publicUrl });
  await app.register(paymentWebhookRoutes, { checkout });
  await app.register(socialShopPublicRoutes, { socialShop: socialShopService });
  if (socialShopSandbox) {
    // The sandbox's test orders reach the shop as TikTok's would: by the signed webhook.
    socialShopSandbox.subscribeWebhooks((body, headers) =>
      socialShopService.receiveWebhook(body, headers.authorization),
    );
    await app.register(sandboxShopPages, {
      standIn: socialShopSandbox,
      findUser: (token) => sessions.findUser(token),
      publicUrl: config.publicUrl,
    });
  }

  await app.register(async (api) => {
    csrf.protect(api);
    refuseUnsafeStrings(api);
    resolveSessions(api, (token) => sessions.findUser(token));
    await api.register(accountsRoutes, { csrf, accounts, sessions, settings, secureCookies });
    await api.register(settingsRoutes, { settings });
    await api.register(catalogRoutes, { catalog, cache });
    await api.register(reviewsRoutes, { reviews, cache });
    await api.register(marketingRoutes, { marketing, cache });
    await api.register(ordersRoutes, { orders });
    await api.register(checkoutRoutes, { checkout });
    await api.register(analyticsRoutes, { analytics });
    await api.register(trackingRoutes, { tracking });
    await api.register(newsletterRoutes, { newsletter, settings });
    await api.register(marketplaceRoutes, {
      marketplace,
      refresh: createMarketplaceRefresh({
        db,
        marketplace,
        events,
        jobs: deps.jobs,
        log: { warn: (message, error) => app.log.warn({ err: error }, message) },
      }),
    });
    // The back office's API: admins only, each route by the permission table, under the admin limit.
    await api.register(async (admin) => {
      admin.addHook(
        'onRequest',
        admin.rateLimit({
          max: () => settings.current()?.adminRateLimit ?? 50,
          timeWindow: '1 minute',
          keyGenerator: (request) => `admin:${request.ip}`,
          allowList: isExempt,
        }),
      );
      requireAdminAccess(admin);
      await admin.register(accountsAdminRoutes, {
        adminUsers: createAdminUsersService({ db, remember: adminSearches.remember }),
        adminManagement: createAdminManagementService({ db, events }),
        accounts,
      });
      await admin.register(settingsAdminRoutes, { settings });
      await admin.register(auditAdminRoutes, { audit: createAuditService({ db }) });
      await admin.register(eventsAdminRoutes, {
        events,
        findUser: (token) => sessions.findUser(token),
        heartbeatMs: deps.liveHeartbeatMs,
        watchStreams: metrics?.watchLiveStreams,
      });
      await admin.register(dashboardAdminRoutes, { dashboard: createDashboardService({ db }) });
      await admin.register(ordersAdminRoutes, {
        adminOrders: createAdminOrdersService({ db, remember: adminSearches.remember }),
      });
      await admin.register(newsletterAdminRoutes, { newsletter, sends: newsletterSends });
      await admin.register(productsAdminRoutes, {
        productsAdmin: createProductsAdminService({
          db,
          events,
          storage,
          log: (message, error) => app.log.warn({ err: error }, message),
          remember: adminSearches.remember,
        }),
      });
      await admin.register(salesAdminRoutes, { salesAdmin: createSalesAdminService({ db, events }) });
      await admin.register(productImagesAdminRoutes, { storage, db });
      await admin.register(marketplaceAdminRoutes, { db, marketplace, storage });
      await admin.register(socialShopAdminRoutes, { db, socialShop: socialShopService });
      await admin.register(aiContentAdminRoutes, {
        aiContent: createAiContentService({
          db,
          ai,
          marketplace,
          publicUrl: config.publicUrl,
          log: (message, error) => app.log.warn({ err: error }, message),
        }),
      });
      await admin.register(reviewsAdminRoutes, {
        moderation: createReviewModerationService({
          db,
          events,
          refreshOverview: reviews.refreshOverview,
          remember: adminSearches.remember,
        }),
      });
      for (const prefix of ADMIN_API_PREFIXES) {
        admin.all(`${prefix}*`, async (_request, reply) =>
          sendError(reply, 404, { error: 'Not found', code: 'not_found' }),
        );
      }
    });
    api.all('/api/*', async (_request, reply) => sendError(reply, 404, { error: 'Not found', code: 'not_found' }));
  });

  app.setNotFoundHandler((_request, reply) => sendError(reply, 404, { error: 'Not found', code: 'not_found' }));

  if (deps.web) {
    await mountWeb(app, {
      mode: deps.web,
      publicUrl: config.publicUrl,
      payments: checkout.browserConfig,
      adPixelId: config.tracking.pixelId,
      // GET /logout: the same as POST /api/auth/logout.
      async endSession(request, reply) {
        const token = request.cookies[SESSION_COOKIE];
        if (token) await sessions.remove(token);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
      },
      async internalFetch({ method, url, cookie, body }) {
        const response = await app.inject({
          method: method as 'GET',
          url,
          headers: { 'x-internal-key': internalKey, ...(cookie ? { cookie } : {}) },
          ...(body === undefined ? {} : { payload: body as object }),
        });
        let parsed: unknown = null;
        try {
          parsed = response.body ? JSON.parse(response.body) : null;
        } catch {
          parsed = response.body;
        }
        return { status: response.statusCode, statusText: response.statusMessage, body: parsed };
      },
    });
  }

  return app;
}

export type App = Awaited<ReturnType<typeof buildApp>>;
export { CSRF_HEADER };
