import { TRACKING_CONSENT_HEADER, TRACKING_TEST_EVENT_CODE } from '#common/constants.ts';
import type { AdEventName, AdEventProperties, trackAdEvent } from '#common/contracts/tracking.ts';
import { api } from '#web/common/browser-api.ts';
import { loadAdPixel } from './ad-pixel.ts';
import { readConsentState } from './consent.ts';
import { randomToken } from './random-token.ts';

/** The shop's pixel (null: none), set by the root before any page's effect can send an event. */
let configuredPixelId: string | null = null;

export function configureAdPixel(pixelId: string | null): void {
  configuredPixelId = pixelId;
}

/**
 * Sends one ad event, only with consent (Accept All, no Global Privacy Control): to the pixel
 * when there is one, and to our server's tracker path with the same random event id, which the
 * ad service de-duplicates on. Add-to-cart is skipped silently without a pixel (spec 7). The
 * pixel's own script loads on the first event with consent.
 */
export function sendAdEvent(event: AdEventName, properties?: AdEventProperties): void {
  if (!readConsentState().accepted) return;
  const pixel = configuredPixelId ? loadAdPixel(configuredPixelId) : window.ttq;
  if (!pixel && event === 'AddToCart') return;
  const eventId = randomToken();
  if (event === 'Pageview') pixel?.page();
  else pixel?.track(event, properties, { event_id: eventId });
  api
    .call<typeof trackAdEvent>(
      { method: 'POST', path: '/api/tiktok/event' },
      {
        body: {
          event,
          event_id: eventId,
          event_time: Math.floor(Date.now() / 1000),
          ...(properties ? { properties } : {}),
          // The page without its query, which may hold what is not the ad service's (a reset token).
          page: { url: `${window.location.origin}${window.location.pathname}` },
          test_event_code: TRACKING_TEST_EVENT_CODE,
        },
        headers: { [TRACKING_CONSENT_HEADER]: 'granted' },
      },
    )
    .catch(() => {});
}

let lastPageViewPath: string | null = null;

/** Spec 2: the ad page view goes once per path change, de-duplicated per path (and only with consent). */
export function sendAdPageView(path: string): void {
  if (path === lastPageViewPath || !readConsentState().accepted) return;
  lastPageViewPath = path;
  sendAdEvent('Pageview');
}

/** A product as the pixel's events describe it: amounts in dollars (integrations 4.1). */
function adContent(item: { id: string; title: string; price: number; quantity: number }) {
  return {
    content_id: item.id,
    content_type: 'product' as const,
    content_name: item.title.slice(0, 300),
    price: item.price,
    quantity: Math.min(999, Math.max(1, item.quantity)),
  };
}

/** The event properties of a set of cart lines (prices in dollars). */
export function adCartProperties(
  items: { id: string; title: string; price: number; quantity: number }[],
  value: number,
): AdEventProperties {
  return {
    contents: items.slice(0, 50).map(adContent),
    content_type: 'product',
    currency: 'USD',
    value: Math.round(value * 100) / 100,
    num_items: Math.min(
      10_000,
      items.reduce((sum, item) => sum + item.quantity, 0),
    ),
  };
}
