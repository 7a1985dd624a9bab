import type { Config } from '#server/config.ts';
import type { Db } from '#server/db/client.ts';
import type { AiProvider } from './ai/ai-provider.ts';
import { createAi } from './ai/create-ai.ts';
import { createMailer } from './email/create-mailer.ts';
import type { Mailer } from './email/mailer.ts';
import { createAliExpressMarketplace } from './marketplace/aliexpress-marketplace.ts';
import { createDemoMarketplace } from './marketplace/demo-marketplace.ts';
import type { Marketplace } from './marketplace/marketplace.ts';
import { createPaymentProcessor } from './payments/create-payment-processor.ts';
import type { PaymentProcessor } from './payments/payment-processor.ts';
import { createSandboxSocialShop } from './social-shop/sandbox.ts';
import type { SocialShop } from './social-shop/social-shop.ts';
import { createTikTokShopClient } from './social-shop/tiktok-shop-client.ts';
import type { TikTokShopStandIn } from './social-shop/tiktok-shop-stand-in.ts';
import { createDiskObjectStorage } from './storage/disk-object-storage.ts';
import type { ObjectStorage } from './storage/object-storage.ts';
import { createS3ObjectStorage } from './storage/s3-object-storage.ts';
import { type AdEventsApi, createTikTokEventsApi } from './tracking/ad-events-api.ts';

/** The outside services the shop talks to, each through its port (README, "What runs locally"). */
export type Adapters = {
  storage: ObjectStorage;
  mailer: Mailer;
  ai: AiProvider;
  payments: PaymentProcessor;
  /** The ad service's Events API; null: consented events are only recorded. */
  adEventsApi: AdEventsApi | null;
  /** Where products are imported from and supplier orders placed: AliExpress when configured, else the demo marketplace. */
  marketplace: Marketplace;
  /** The social-shop channel: TikTok Shop's Partner API when configured, else the sandbox stand-in in process. */
  socialShop: SocialShop;
  /** The sandbox stand-in behind `socialShop` (its authorise page is served by the app); null with TikTok. */
  socialShopSandbox: TikTokShopStandIn | null;
};

/**
 * The keys the owner saved in the settings (the settings service provides them), read at each
 * call so that a saved key is used without a restart; null when none is saved.
 */
export type SavedKeys = {
  aiApiKey(): string | null;
  /** Stripe's secret and publishable keys, only as a pair. */
  stripeKeys(): { secretKey: string; publishableKey: string } | null;
  /** The marketplace's access token, replacing ALIEXPRESS_ACCESS_TOKEN while it is saved (a refreshed token without a restart). */
  marketplaceApiKey(): string | null;
};

const noSavedKeys: SavedKeys = { aiApiKey: () => null, stripeKeys: () => null, marketplaceApiKey: () => null };

/** Where the adapters report what goes wrong outside (a mail not sent, a model not answering). */
export type AdapterLog = { info(message: string, error?: unknown): void; warn(message: string): void };

/** Uploaded and generated files: in the S3-compatible bucket when configured, on disk in the uploads folder otherwise. */
export function createStorage(config: Config): ObjectStorage {
  return config.s3 ? createS3ObjectStorage(config.s3) : createDiskObjectStorage(config.uploadsDir);
}

/**
 * AliExpress's dropshipping API when its credentials are configured (the access token saved in
 * the settings, when there is one, before ALIEXPRESS_ACCESS_TOKEN); the offline demo marketplace otherwise.
 */
export function createMarketplace(config: Config, savedAccessToken: () => string | null = () => null): Marketplace {
  const aliexpress = config.aliexpress;
  if (!aliexpress) return createDemoMarketplace({ shopOrigin: config.publicUrl });
  return createAliExpressMarketplace({
    appKey: aliexpress.appKey,
    appSecret: aliexpress.appSecret,
    accessToken: () => savedAccessToken() || aliexpress.accessToken,
    apiBase: aliexpress.apiBase,
    shipToCountry: aliexpress.shipToCountry,
    logisticsServiceName: aliexpress.logisticsServiceName,
    payAutomatically: aliexpress.payAutomatically,
  });
}

/**
 * TikTok Shop's Partner API when the app's keys are configured; the sandbox shop otherwise (the
 * same client, talking in process to the stand-in, whose keys derive from `secret`).
 */
export function createSocialShop(
  config: Config,
  { redirectUrl, secret }: { redirectUrl: string; secret: string },
): { socialShop: SocialShop; socialShopSandbox: TikTokShopStandIn | null } {
  const tiktok = config.tiktokShop;
  if (!tiktok) {
    const sandbox = createSandboxSocialShop({ publicUrl: config.publicUrl, redirectUrl, secret });
    return { socialShop: sandbox.socialShop, socialShopSandbox: sandbox.standIn };
  }
  return {
    socialShop: createTikTokShopClient({
      mode: 'tiktok-shop',
      appKey: tiktok.appKey,
      appSecret: tiktok.appSecret,
      serviceId: tiktok.serviceId,
      apiBase: tiktok.apiBase,
      authBase: tiktok.authBase,
      authorizeBase: tiktok.authorizeUrl,
    }),
    socialShopSandbox: null,
  };
}

/**
 * The one place where the configuration picks each outside service's adapter: the real provider
 * when it is configured (or, for the AI and Stripe, when the owner saved its key in the
 * settings: `keys`), the embedded default otherwise. `given` replaces any of them (tests;
 * main.ts's storage, which the seed uses before the app exists).
 */
export function createAdapters(
  config: Config,
  {
    db,
    log,
    keys = noSavedKeys,
    socialShopRedirectUrl,
    sandboxSecret,
  }: {
    db: Db;
    log: AdapterLog;
    keys?: SavedKeys;
    /** Our OAuth callback, where the channel sends the seller back. */
    socialShopRedirectUrl: string;
    /** Derives the sandbox shop's keys (the app's signing key: stable across restarts and instances). */
    sandboxSecret: string;
  },
  given: Partial<Adapters> = {},
): Adapters {
  const { pixelId, eventsToken } = config.tracking;
  return {
    storage: given.storage ?? createStorage(config),
    mailer: given.mailer ?? createMailer(config, { db, log: (line, error) => log.info(line, error) }),
    ai: given.ai ?? createAi(config, { log: (line) => log.warn(line), savedApiKey: keys.aiApiKey }),
    payments:
      given.payments ??
      createPaymentProcessor(
        { db },
        {
          stripeSecretKey: config.stripe?.secretKey,
          stripePublishableKey: config.stripe?.publishableKey,
          stripeWebhookSecret: config.stripe?.webhookSecret,
          stripeApiBase: config.stripe?.apiBase,
          savedStripeKeys: keys.stripeKeys,
        },
      ),
    adEventsApi:
      given.adEventsApi !== undefined
        ? given.adEventsApi
        : pixelId && eventsToken
          ? createTikTokEventsApi({ pixelId, accessToken: eventsToken })
          : null,
    marketplace: given.marketplace ?? createMarketplace(config, keys.marketplaceApiKey),
    ...(given.socialShop
      ? { socialShop: given.socialShop, socialShopSandbox: given.socialShopSandbox ?? null }
      : createSocialShop(config, { redirectUrl: socialShopRedirectUrl, secret: sandboxSecret })),
  };
}
