import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { CRASH_POINTS } from './crash/crash-points.ts';

/** One trusted proxy: an address, a CIDR range, or one of proxy-addr's names for a range. */
function isProxyAddress(entry: string): boolean {
  if (['loopback', 'linklocal', 'uniquelocal'].includes(entry)) return true;
  const [address = '', bits, ...rest] = entry.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  const max = family === 4 ? 32 : 128;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= max;
}

/**
 * Which X-Forwarded-For entries to believe. A blanket `true` would let any client choose its own
 * address (and so its own rate-limit counter) by writing the header, so only a hop count or the
 * proxies' own addresses are accepted.
 */
const TrustProxy = z
  .string()
  .trim()
  .refine((value) => value !== 'true', {
    error:
      'true would trust any client-written X-Forwarded-For: give the number of proxies in front (e.g. 1) or their addresses (e.g. 10.0.0.0/8)',
  })
  .refine(
    (value) => /^(false|\d{1,2})$/.test(value) || value.split(',').every((entry) => isProxyAddress(entry.trim())),
    {
      error: 'must be false, a number of proxy hops, or proxy addresses/CIDR ranges separated by commas',
    },
  )
  .transform((value): false | number | string[] => {
    if (value === 'false' || value === '0') return false;
    if (/^\d+$/.test(value)) return Number(value);
    return value.split(',').map((entry) => entry.trim());
  });

/**
 * The only reader of process.env. Every variable is optional: unset, the shop runs on its
 * embedded defaults (PGlite under DATA_DIR, in-process rate limits, generated secrets).
 */
const Env = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  HOST: z.string().min(1).default('0.0.0.0'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Serves Prometheus metrics at /metrics on this port, apart from the shop. Unset: no metrics.
  METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
  // The address the metrics server binds (default 127.0.0.1): metrics are never for the public.
  METRICS_HOST: z.string().trim().min(1, 'must not be empty').optional(),
  // Where the embedded database, uploads and generated secrets live.
  DATA_DIR: z.string().min(1).default('./data'),
  // Where uploaded and generated images are kept (default: DATA_DIR/uploads).
  UPLOADS_DIR: z.string().min(1).optional(),
  // A PostgreSQL URL switches from the embedded PGlite to a real server.
  DATABASE_URL: z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
  // Shared rate-limit counters when several instances run behind a load balancer.
  REDIS_URL: z.url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' }).optional(),
  // The address shoppers use; links in emails and canonical URLs are built from it.
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  // Signs CSRF tokens and encrypts stored secrets. Unset: generated once and kept in the database.
  SESSION_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  // Sends email through this SMTP server (smtp:// or smtps://). Unset: mail is kept in the outbox and the log.
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  // The sender of the shop's emails.
  MAIL_FROM: z.string().min(3).optional(),
  // The owner account, created on first start (a password is generated when unset).
  OWNER_EMAIL: z.email('must be an email address').optional(),
  OWNER_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  // Behind a reverse proxy or load balancer: how many proxies to trust, or their addresses, so
  // client addresses come from the entries of X-Forwarded-For that those proxies wrote.
  TRUST_PROXY: TrustProxy.optional(),
  // Client addresses never rate limited (monitoring, internal services), comma-separated.
  RATE_LIMIT_ALLOW_LIST: z
    .string()
    .regex(/^[0-9a-fA-F:.]+(,[0-9a-fA-F:.]+)*$/, 'must be IP addresses separated by commas')
    .optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  // Seed the demo catalogue into an empty database (default: on, except production on DATABASE_URL).
  SEED_DEMO_DATA: z.enum(['true', 'false']).optional(),
  // An OpenAI-compatible server (OpenAI, Ollama, llama.cpp, vLLM, LM Studio) for the review overview
  // and moderation, e.g. https://api.openai.com/v1 or http://localhost:11434/v1. Unset: built-in rules.
  AI_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  // Its API key (local servers need none).
  AI_API_KEY: z.string().trim().min(1, 'must not be empty').optional(),
  // The model to ask, e.g. gpt-4o-mini or llama3.1:8b; required with AI_BASE_URL.
  AI_MODEL: z.string().trim().min(1, 'must not be empty').optional(),
  // Stripe: set both keys to take card payments with Stripe. Unset: the built-in test processor (test cards only).
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .regex(/^(sk|rk)_(test|live)_/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
    .optional(),
  STRIPE_PUBLISHABLE_KEY: z
    .string()
    .trim()
    .regex(/^pk_(test|live)_/, 'must be a Stripe publishable key (pk_test_… or pk_live_…)')
    .optional(),
  // The webhook endpoint's signing secret (whsec_…); without it Stripe's webhooks are refused.
  STRIPE_WEBHOOK_SECRET: z.string().trim().startsWith('whsec_', 'must start with whsec_').optional(),
  // Where Stripe's API is: Stripe itself unless set (a stand-in, for the crash suites).
  STRIPE_API_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  // Fault injection for the crash suites: the process kills itself (SIGKILL) at this step of a checkout.
  CRASH_AT: z.enum(CRASH_POINTS).optional(),
  // The TikTok pixel's code: set, the storefront loads the pixel for visitors who accept cookies.
  TIKTOK_PIXEL_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{8,40}$/, 'must be a TikTok pixel code (letters and digits)')
    .optional(),
  // An Events API access token: set (with TIKTOK_PIXEL_ID), consented events are also sent server-side.
  TIKTOK_EVENTS_TOKEN: z.string().trim().min(8, 'must be at least 8 characters').optional(),
  // An S3-compatible bucket (Amazon S3, MinIO, Cloudflare R2, Backblaze B2, Ceph) for uploaded and
  // generated images. Unset: files on disk (UPLOADS_DIR).
  S3_BUCKET: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{1,62}$/, 'must be a bucket name (3-63 letters, digits, dots, hyphens)')
    .optional(),
  // The store's address, e.g. http://localhost:9000 (MinIO). Unset: Amazon S3 itself.
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  // The region (MinIO us-east-1, R2 auto). Default us-east-1.
  S3_REGION: z
    .string()
    .trim()
    .regex(/^[a-z0-9-]{2,32}$/, 'must be a region name such as us-east-1 or auto')
    .optional(),
  S3_ACCESS_KEY_ID: z.string().trim().min(1, 'must not be empty').optional(),
  S3_SECRET_ACCESS_KEY: z.string().trim().min(1, 'must not be empty').optional(),
  // Where browsers load the images from (the bucket's public URL or a CDN). Unset: the shop serves them at /media/.
  S3_PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  // AliExpress's dropshipping API: set the app key, the app secret and the seller's access token
  // together. Unset: the offline demo marketplace.
  ALIEXPRESS_APP_KEY: z
    .string()
    .trim()
    .regex(/^\d{4,20}$/, 'must be the app key (4-20 digits)')
    .optional(),
  ALIEXPRESS_APP_SECRET: z
    .string()
    .trim()
    .regex(/^\S{16,128}$/, 'must be the app secret (16-128 characters, no spaces)')
    .optional(),
  ALIEXPRESS_ACCESS_TOKEN: z
    .string()
    .trim()
    .regex(/^\S{8,512}$/, 'must be an access token (8-512 characters, no spaces)')
    .optional(),
  // The API gateway (a stand-in in tests). Default https://api-sg.aliexpress.com.
  ALIEXPRESS_API_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  // Where products are priced and shipped to (ISO 3166-1 alpha-2). Default US.
  ALIEXPRESS_SHIP_TO_COUNTRY: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{2}$/, 'must be a two-letter country code such as US')
    .transform((code) => code.toUpperCase())
    .optional(),
  // The carrier service asked for on supplier orders (e.g. CAINIAO_STANDARD). Unset: the marketplace's default.
  ALIEXPRESS_LOGISTICS_SERVICE: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{2,64}$/, 'must be a logistics service name such as CAINIAO_STANDARD')
    .optional(),
  // Pay supplier orders at once with the account's payment method. Default false (they wait to be paid on AliExpress).
  ALIEXPRESS_AUTO_PAY: z.enum(['true', 'false'], { error: 'must be true or false' }).optional(),
  // The TikTok Shop app (Partner Center): all three, or none for the offline sandbox shop.
  TIKTOK_SHOP_APP_KEY: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9]{4,64}$/, 'must be the app key (4-64 letters and digits)')
    .optional(),
  TIKTOK_SHOP_APP_SECRET: z
    .string()
    .trim()
    .regex(/^\S{16,128}$/, 'must be the app secret (16-128 characters, no spaces)')
    .optional(),
  TIKTOK_SHOP_SERVICE_ID: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be the service id of the app')
    .optional(),
  // Hosts (a stand-in in tests; the sandbox hosts of TikTok for a sandbox app). Defaults: TikTok's production hosts.
  TIKTOK_SHOP_API_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  TIKTOK_SHOP_AUTH_BASE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
  TIKTOK_SHOP_AUTHORIZE_URL: z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional(),
});

/** A half-configured AI, Stripe or bucket is an error, not a silent fallback to the built-in one. */
const CheckedEnv = Env.superRefine((e, ctx) => {
  if (e.METRICS_PORT !== undefined && e.METRICS_PORT === e.PORT) {
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: `must differ from PORT (${e.PORT})` });
  }
  if (e.METRICS_HOST && e.METRICS_PORT === undefined) {
    ctx.addIssue({ code: 'custom', path: ['METRICS_PORT'], message: 'must be set when METRICS_HOST is' });
  }
  if (e.AI_BASE_URL && !e.AI_MODEL) {
    ctx.addIssue({ code: 'custom', path: ['AI_MODEL'], message: 'must be set when AI_BASE_URL is' });
  }
  if (!e.AI_BASE_URL && (e.AI_MODEL || e.AI_API_KEY)) {
    ctx.addIssue({ code: 'custom', path: ['AI_BASE_URL'], message: 'must be set when AI_MODEL or AI_API_KEY is' });
  }
  if (!e.STRIPE_SECRET_KEY !== !e.STRIPE_PUBLISHABLE_KEY) {
    ctx.addIssue({
      code: 'custom',
      path: [e.STRIPE_SECRET_KEY ? 'STRIPE_PUBLISHABLE_KEY' : 'STRIPE_SECRET_KEY'],
      message: 'set STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY together',
    });
  }
  if (e.TIKTOK_EVENTS_TOKEN && !e.TIKTOK_PIXEL_ID) {
    ctx.addIssue({ code: 'custom', path: ['TIKTOK_PIXEL_ID'], message: 'must be set when TIKTOK_EVENTS_TOKEN is' });
  }
  if (e.STRIPE_WEBHOOK_SECRET && !e.STRIPE_SECRET_KEY) {
    ctx.addIssue({ code: 'custom', path: ['STRIPE_SECRET_KEY'], message: 'must be set when STRIPE_WEBHOOK_SECRET is' });
  }
  if (e.NODE_ENV === 'production' && e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'is required in production with Stripe' });
  }
  const s3Set = (
    ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_PUBLIC_URL'] as const
  ).filter((name) => e[name] !== undefined);
  if (!e.S3_BUCKET && s3Set.length > 0) {
    ctx.addIssue({ code: 'custom', path: ['S3_BUCKET'], message: `must be set when ${s3Set.join(', ')} is` });
  }
  if (e.S3_BUCKET && (!e.S3_ACCESS_KEY_ID || !e.S3_SECRET_ACCESS_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: [e.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
      message: 'set S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY with S3_BUCKET',
    });
  }
  const tiktokShopNames = ['TIKTOK_SHOP_APP_KEY', 'TIKTOK_SHOP_APP_SECRET', 'TIKTOK_SHOP_SERVICE_ID'] as const;
  const tiktokShopMissing = tiktokShopNames.filter((name) => e[name] === undefined);
  if (tiktokShopMissing.length > 0 && tiktokShopMissing.length < 3) {
    ctx.addIssue({
      code: 'custom',
      path: [tiktokShopMissing[0] ?? 'TIKTOK_SHOP_APP_KEY'],
      message: `set TIKTOK_SHOP_APP_KEY, TIKTOK_SHOP_APP_SECRET and TIKTOK_SHOP_SERVICE_ID together (missing ${tiktokShopMissing.join(', ')})`,
    });
  }
  const aliexpressSet = (['ALIEXPRESS_APP_KEY', 'ALIEXPRESS_APP_SECRET', 'ALIEXPRESS_ACCESS_TOKEN'] as const).filter(
    (name) => e[name] !== undefined,
  );
  if (aliexpressSet.length > 0 && aliexpressSet.length < 3) {
    const missing = (['ALIEXPRESS_APP_KEY', 'ALIEXPRESS_APP_SECRET', 'ALIEXPRESS_ACCESS_TOKEN'] as const).filter(
      (name) => e[name] === undefined,
    );
    ctx.addIssue({
      code: 'custom',
      path: [missing[0] ?? 'ALIEXPRESS_APP_KEY'],
      message: `set ALIEXPRESS_APP_KEY, ALIEXPRESS_APP_SECRET and ALIEXPRESS_ACCESS_TOKEN together (missing ${missing.join(', ')})`,
    });
  }
  // The credentials travel in the request body: never over plain http in production.
  if (e.NODE_ENV === 'production' && e.ALIEXPRESS_API_BASE_URL && !e.ALIEXPRESS_API_BASE_URL.startsWith('https://')) {
    ctx.addIssue({
      code: 'custom',
      path: ['ALIEXPRESS_API_BASE_URL'],
      message: 'must be an https:// URL in production',
    });
  }
  // The pages' Content-Security-Policy loads images over https only (besides the shop's own).
  if (e.NODE_ENV === 'production' && e.S3_PUBLIC_URL && !e.S3_PUBLIC_URL.startsWith('https://')) {
    ctx.addIssue({ code: 'custom', path: ['S3_PUBLIC_URL'], message: 'must be an https:// URL in production' });
  }
});

export type Env = z.infer<typeof Env>;

export class ConfigError extends Error {}

export function loadConfig(env: Record<string, string | undefined> = process.env) {
  const parsed = CheckedEnv.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n  ${problems.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const port = e.PORT;
  return {
    env: e.NODE_ENV,
    isProduction: e.NODE_ENV === 'production',
    host: e.HOST,
    port,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
    // Null: no metrics server.
    metrics: e.METRICS_PORT ? { host: e.METRICS_HOST ?? '127.0.0.1', port: e.METRICS_PORT } : null,
    dataDir,
    database: e.DATABASE_URL
      ? ({ kind: 'postgres', url: e.DATABASE_URL } as const)
      : ({ kind: 'pglite', dir: path.join(dataDir, 'db') } as const),
    trustProxy: e.TRUST_PROXY ?? false,
    rateLimitAllowList: e.RATE_LIMIT_ALLOW_LIST?.split(',') ?? [],
    redisUrl: e.REDIS_URL ?? null,
    sessionSecret: e.SESSION_SECRET ?? null,
    smtpUrl: e.SMTP_URL ?? null,
    mailFrom: e.MAIL_FROM ?? 'Stillwater <hello@stillwater.shop>',
    owner: { email: e.OWNER_EMAIL ?? null, password: e.OWNER_PASSWORD ?? null },
    uploadsDir: e.UPLOADS_DIR ? path.resolve(e.UPLOADS_DIR) : path.join(dataDir, 'uploads'),
    // Null: images on disk in uploadsDir.
    s3:
      e.S3_BUCKET && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            bucket: e.S3_BUCKET,
            endpoint: e.S3_ENDPOINT,
            region: e.S3_REGION ?? 'us-east-1',
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
            publicUrl: e.S3_PUBLIC_URL,
          }
        : null,
    // Null: the offline demo marketplace.
    aliexpress:
      e.ALIEXPRESS_APP_KEY && e.ALIEXPRESS_APP_SECRET && e.ALIEXPRESS_ACCESS_TOKEN
        ? {
            appKey: e.ALIEXPRESS_APP_KEY,
            appSecret: e.ALIEXPRESS_APP_SECRET,
            accessToken: e.ALIEXPRESS_ACCESS_TOKEN,
            apiBase: (e.ALIEXPRESS_API_BASE_URL ?? 'https://api-sg.aliexpress.com').replace(/\/$/, ''),
            shipToCountry: e.ALIEXPRESS_SHIP_TO_COUNTRY ?? 'US',
            logisticsServiceName: e.ALIEXPRESS_LOGISTICS_SERVICE ?? null,
            payAutomatically: e.ALIEXPRESS_AUTO_PAY === 'true',
          }
        : null,
    // Null: the offline sandbox shop (the stand-in, in process).
    tiktokShop:
      e.TIKTOK_SHOP_APP_KEY && e.TIKTOK_SHOP_APP_SECRET && e.TIKTOK_SHOP_SERVICE_ID
        ? {
            appKey: e.TIKTOK_SHOP_APP_KEY,
            appSecret: e.TIKTOK_SHOP_APP_SECRET,
            serviceId: e.TIKTOK_SHOP_SERVICE_ID,
            apiBase: (e.TIKTOK_SHOP_API_BASE_URL ?? 'https://open-api.tiktokglobalshop.com').replace(/\/$/, ''),
            authBase: (e.TIKTOK_SHOP_AUTH_BASE_URL ?? 'https://auth.tiktok-shops.com/api/v2').replace(/\/$/, ''),
            authorizeUrl: e.TIKTOK_SHOP_AUTHORIZE_URL ?? 'https://services.tiktokshop.com/open/authorize',
          }
        : null,
    logLevel: e.LOG_LEVEL ?? (e.NODE_ENV === 'test' ? 'silent' : 'info'),
    // The embedded shop starts with its demo content; a production PostgreSQL starts empty.
    seedDemoData: e.SEED_DEMO_DATA ? e.SEED_DEMO_DATA === 'true' : !(e.NODE_ENV === 'production' && e.DATABASE_URL),
    // Null: the built-in review overview and moderation rules.
    ai:
      e.AI_BASE_URL && e.AI_MODEL ? { baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY ?? null, model: e.AI_MODEL } : null,
    // The ad pixel (browser) and its Events API (server); null members: not configured.
    tracking: { pixelId: e.TIKTOK_PIXEL_ID ?? null, eventsToken: e.TIKTOK_EVENTS_TOKEN ?? null },
    // Null: the built-in test processor (test cards only).
    stripe:
      e.STRIPE_SECRET_KEY && e.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: e.STRIPE_SECRET_KEY,
            publishableKey: e.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? null,
            apiBase: e.STRIPE_API_BASE_URL ? apiBaseOf(e.STRIPE_API_BASE_URL) : null,
          }
        : null,
    // Null: no crash point armed (always so outside the crash suites).
    crashAt: e.CRASH_AT ?? null,
  };
}

export type Config = ReturnType<typeof loadConfig>;

/** An API's base URL as the Stripe SDK takes it. */
function apiBaseOf(url: string) {
  const { hostname, port, protocol } = new URL(url);
  const scheme = protocol === 'http:' ? 'http' : 'https';
  return { host: hostname, port: Number(port) || (scheme === 'http' ? 80 : 443), protocol: scheme } as const;
}
