import { afterAll } from 'vitest';
import type { SocialShop } from '#server/adapters/social-shop/social-shop.ts';
import { createTikTokShopClient } from '#server/adapters/social-shop/tiktok-shop-client.ts';
import {
  createTikTokShopStandIn,
  type StandInOptions,
  type TikTokShopStandIn,
} from '#server/adapters/social-shop/tiktok-shop-stand-in.ts';

/** The redirect URL the tests' stand-ins send the seller back to (the shop's callback at its default address). */
export const STAND_IN_REDIRECT_URL = 'http://localhost:3000/api/tiktok-shop/callback';

/**
 * A TikTok Shop stand-in listening on a port of its own (closed after the file), and the real
 * client pointed at it over HTTP with short retry delays: how the social-shop suites talk to the
 * channel.
 */
export async function standInOverHttp(
  options: Omit<StandInOptions, 'redirectUrl'> & { redirectUrl?: string },
  client: Partial<Parameters<typeof createTikTokShopClient>[0]> = {},
): Promise<{ standIn: TikTokShopStandIn; url: string; client: SocialShop }> {
  const standIn = createTikTokShopStandIn({ redirectUrl: STAND_IN_REDIRECT_URL, ...options });
  const server = await standIn.listen();
  afterAll(() => server.close());
  return {
    standIn,
    url: server.url,
    client: createTikTokShopClient({
      mode: 'sandbox',
      appKey: options.appKey,
      appSecret: options.appSecret,
      serviceId: options.serviceId,
      apiBase: `${server.url}/api`,
      authBase: `${server.url}/auth/api/v2`,
      authorizeBase: `${server.url}/open/authorize`,
      retry: { attempts: 2, baseDelayMs: 5 },
      ...(options.now ? { now: options.now } : {}),
      ...client,
    }),
  };
}
