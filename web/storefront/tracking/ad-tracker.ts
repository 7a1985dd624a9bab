import {
  type AdEventName,
  type AdEventProperties,
  TRACKING_CONSENT_HEADER,
  TRACKING_TEST_EVENT_CODE,
  type trackAdEvent,
} from '#common/contracts/tracking.ts';
import { api } from '#web/common/browser-api.ts';
import { readConsentState } from './consent.ts';
import { randomToken } from './random-token.ts';

/** The TikTok pixel's command queue, as its base code defines it (integrations 4.1). */
type PixelQueue = unknown[] & {
  methods: readonly string[];
  load: (pixelId: string, options?: object) => void;
  page: () => void;
  track: (event: string, properties?: object, options?: { event_id: string }) => void;
  _i?: Record<string, unknown[] & { _u?: string }>;
  _t?: Record<string, number>;
  _o?: Record<string, object>;
} & Record<string, unknown>;

declare global {
  interface Window {
    ttq?: PixelQueue;
    TiktokAnalyticsObject?: string;
  }
}

const PIXEL_SCRIPT = 'https://analytics.tiktok.com/i18n/pixel/events.js';
const PIXEL_METHODS = [
  'page',
  'track',
  'identify',
  'instances',
  'debug',
  'on',
  'off',
  'once',
  'ready',
  'alias',
  'group',
  'enableCookie',
  'disableCookie',
  'holdConsent',
  'revokeConsent',
  'grantConsent',
] as const;

/** The shop's pixel (null: none), set by the root before any page's effect can send an event. */
let configuredPixelId: string | null = null;

export function configureAdPixel(pixelId: string | null): void {
  configuredPixelId = pixelId;
}

/**
 * Loads the TikTok pixel: the command queue its script expects (calls made before the script
 * arrives are kept and replayed by it), then the script itself, async and off the critical path.
 * Called only after Accept All, and only on a shop with a pixel (the CSP admits its host then).
 */
let pixelRequested = false;

function loadAdPixel(pixelId: string): void {
  // Once: a blocker may keep `ttq` from ever being set.
  if (pixelRequested || window.ttq) return;
  pixelRequested = true;
  window.TiktokAnalyticsObject = 'ttq';
  const queue = [] as unknown as PixelQueue;
  const defer = (target: Record<string, unknown>, method: string) => {
    target[method] = (...args: unknown[]) => {
      (target as unknown as unknown[]).push([method, ...args]);
    };
  };
  queue.methods = PIXEL_METHODS;
  for (const method of PIXEL_METHODS) defer(queue, method);
  queue.load = (id: string, options: object = {}) => {
    const instance = [] as unknown as unknown[] & { _u?: string };
    instance._u = PIXEL_SCRIPT;
    queue._i = { ...queue._i, [id]: instance };
    queue._t = { ...queue._t, [id]: Date.now() };
    queue._o = { ...queue._o, [id]: options };
    const script = document.createElement('script');
    script.async = true;
    script.src = `${PIXEL_SCRIPT}?sdkid=${encodeURIComponent(id)}&lib=ttq`;
    document.head.appendChild(script);
  };
  window.ttq = queue;
  queue.load(pixelId);
}

/**
 * Sends one ad event, only with consent (Accept All, no Global Privacy Control): to the pixel
 * when it is present, and to our server's tracker path with the same random event id, which the
 * ad service de-duplicates on. Add-to-cart is skipped silently without a pixel (spec 7).
 */
export function sendAdEvent(event: AdEventName, properties?: AdEventProperties): void {
  if (!readConsentState().accepted) return;
  if (configuredPixelId) loadAdPixel(configuredPixelId);
  const pixel = window.ttq;
  if (!pixel && event === 'AddToCart') return;
  const eventId = randomToken();
  if (event === 'Pageview') pixel?.page();
  else pixel?.track(event, properties, { event_id: eventId });
  const { origin, pathname } = window.location;
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
          page: { url: `${origin}${pathname}` },
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
export function adContent(item: { id: string; title: string; price: number; quantity: number }) {
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
