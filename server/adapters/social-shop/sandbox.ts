import { createHmac } from 'node:crypto';
import type { SocialShop } from './social-shop.ts';
import { createTikTokShopClient } from './tiktok-shop-client.ts';
import { createTikTokShopStandIn, type TikTokShopStandIn } from './tiktok-shop-stand-in.ts';

/*
 * The social-shop channel of the demo, when no TikTok Shop keys are configured: the real client
 * talking to the stand-in in-process. Its fetch hands real Request objects to the stand-in's
 * handler, so the wire format, the signatures and the token checks run exactly as over HTTP.
 */

/** Where the in-process client believes the API lives; never resolved (.invalid). */
const SANDBOX_ORIGIN = 'https://sandbox.tiktok-shop.invalid';
/** Where the app serves the stand-in's pages (GET /sandbox/tiktok-shop/* → standIn.handle, unchanged). */
export const SANDBOX_BASE_PATH = '/sandbox/tiktok-shop';
/** The sandbox's seller centre, where an admin places test orders (social-shop.routes.ts serves it). */
export const SANDBOX_SELLER_CENTRE_PATH = `${SANDBOX_BASE_PATH}/open/seller-centre`;

export function createSandboxSocialShop({
  publicUrl,
  redirectUrl,
  secret,
}: {
  /** The shop's public origin, e.g. http://localhost:3000 (the authorise page opens there). */
  publicUrl: string;
  /** Our OAuth callback. */
  redirectUrl: string;
  /** The app's secret; the sandbox's keys and token secret derive from it, so they survive restarts. */
  secret: string;
}): { socialShop: SocialShop; standIn: TikTokShopStandIn } {
  const derive = (purpose: string) =>
    createHmac('sha256', secret).update(`tiktok-shop-sandbox:${purpose}`).digest('hex');
  const appKey = `sbx${derive('app-key').slice(0, 13)}`;
  const appSecret = derive('app-secret');
  const serviceId = derive('service-id').slice(0, 19);
  const standIn = createTikTokShopStandIn({
    appKey,
    appSecret,
    serviceId,
    redirectUrl,
    tokenSecret: derive('token-secret'),
    basePath: SANDBOX_BASE_PATH,
  });
  const socialShop = createTikTokShopClient({
    mode: 'sandbox',
    appKey,
    appSecret,
    serviceId,
    apiBase: `${SANDBOX_ORIGIN}/api`,
    authBase: `${SANDBOX_ORIGIN}/auth/api/v2`,
    authorizeBase: `${publicUrl.replace(/\/+$/, '')}${SANDBOX_BASE_PATH}/open/authorize`,
    fetch: (input, init) => standIn.handle(new Request(input, init)),
    // In-process calls fail only on purpose; no need to wait long between attempts.
    retry: { attempts: 3, baseDelayMs: 50 },
  });
  return { socialShop, standIn };
}
