import { createContext } from 'react-router';
import type { ApiClient } from './common/api-client.ts';

/** The API as seen by loaders on the server: the same endpoints, called in-process with the visitor's cookies. */
export const apiContext = createContext<ApiClient>();

/** The CSP nonce of this response's inline scripts (set by the server for each page). */
export const nonceContext = createContext<string | undefined>(undefined);

/** The card processor the browser pays with (no secret: Stripe's publishable key at most). */
export type PaymentConfig = { provider: 'local' } | { provider: 'stripe'; publishableKey: string };

/**
 * Facts about the shop the pages need: its public address (for canonical URLs and sharing), the
 * card processor of the checkout, and the TikTok pixel's code (null: no pixel), which the pages
 * load only after the visitor accepts cookies.
 */
export type ShopFacts = { publicUrl: string; payments: PaymentConfig; adPixelId: string | null };

export const shopContext = createContext<ShopFacts>({
  publicUrl: '',
  payments: { provider: 'local' },
  adPixelId: null,
});
