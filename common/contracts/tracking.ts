import * as z from 'zod/mini';

/**
 * The ad tracker's two calls (spec section 7: "the tracker's fetchClient and event paths"; the
 * prefix is the ad service's name). Events go to the server only with the visitor's consent,
 * stated in the TRACKING_CONSENT_HEADER (common/constants.ts).
 */

/** The pixel's standard events the shop sends (integrations 4.2). */
export const adEventNames = [
  'Pageview',
  'ViewContent',
  'AddToCart',
  'InitiateCheckout',
  'AddPaymentInfo',
  'CompletePayment',
  'PlaceAnOrder',
  'Search',
] as const;
export type AdEventName = (typeof adEventNames)[number];

const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));
const amount = z.number().check(z.gte(0), z.lte(10_000_000));

export const AdEventContent = z.object({
  content_id: z.string().check(z.trim(), z.minLength(1), z.maxLength(100)),
  content_type: z.optional(z.literal('product')),
  content_name: z.optional(text(300)),
  content_category: z.optional(text(200)),
  price: z.optional(amount),
  quantity: z.optional(z.int().check(z.gte(1), z.lte(999))),
  brand: z.optional(text(100)),
});

/** Amounts in dollars, as the pixel takes them. */
export const AdEventProperties = z.object({
  contents: z.optional(z.array(AdEventContent).check(z.maxLength(50))),
  content_type: z.optional(z.literal('product')),
  currency: z.optional(z.literal('USD')),
  value: z.optional(amount),
  num_items: z.optional(z.int().check(z.gte(0), z.lte(10_000))),
  order_id: z.optional(text(64)),
  search_string: z.optional(text(200)),
});
export type AdEventProperties = z.infer<typeof AdEventProperties>;

/** Raw or already SHA-256 hashed: the server hashes whatever is not before it leaves. */
export const AdEventUser = z.object({
  email: z.optional(text(254)),
  phone: z.optional(text(40)),
  external_id: z.optional(text(100)),
  ttclid: z.optional(text(500)),
  ttp: z.optional(text(500)),
});

export const trackAdEvent = {
  method: 'POST',
  path: '/api/tiktok/event',
  body: z.object({
    event: z.enum(adEventNames),
    /** Random, the same the pixel got: the ad service de-duplicates browser and server events on it. */
    event_id: z.string().check(z.regex(/^[A-Za-z0-9_-]{8,64}$/, 'must be 8-64 letters or digits')),
    /** Unix seconds. */
    event_time: z.int().check(z.gte(0)),
    properties: z.optional(AdEventProperties),
    user: z.optional(AdEventUser),
    page: z.optional(z.object({ url: text(2048), referrer: z.optional(text(2048)) })),
    test_event_code: z.optional(text(64)),
  }),
  /** accepted false: this event id was reported before. */
  response: z.object({ accepted: z.boolean() }),
} as const;
export type AdEventInput = z.infer<typeof trackAdEvent.body>;

export const fetchTrackingClient = {
  method: 'GET',
  path: '/api/tiktok/fetch-client',
  response: z.object({ ip: z.string(), user_agent: z.string() }),
} as const;
