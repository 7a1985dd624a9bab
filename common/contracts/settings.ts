import * as z from 'zod/mini';
import { settingsDefaults as d } from '../settings-defaults.ts';

/** An integer setting within bounds; an out-of-range stored value falls back to the default. */
const limit = (min: number, max: number, fallback: number) =>
  z._default(z.catch(z.int().check(z.gte(min), z.lte(max)), fallback), fallback);

const text = (max: number, fallback: string) =>
  z._default(z.string().check(z.trim(), z.minLength(1), z.maxLength(max)), fallback);

/**
 * System settings of the back office, with their defaults. Rate limits are per minute and per
 * client; out-of-range values fall back to the defaults (spec: back office section 5).
 */
export const SystemSettings = z.object({
  siteName: text(100, d.siteName),
  siteDescription: text(300, d.siteDescription),
  contactEmail: z._default(z.email(), d.contactEmail),
  supportEmail: z._default(z.email(), d.supportEmail),
  socialUrl: z._default(z.url({ protocol: /^https$/ }), d.socialUrl),
  maintenanceMode: z._default(z.boolean(), d.maintenanceMode),
  allowRegistration: z._default(z.boolean(), d.allowRegistration),
  requireEmailVerification: z._default(z.boolean(), d.requireEmailVerification),
  maxOrdersPerUser: z._default(z.int().check(z.gte(1), z.lte(1000)), d.maxOrdersPerUser),
  autoApproveReviews: z._default(z.boolean(), d.autoApproveReviews),
  enableNewsletter: z._default(z.boolean(), d.enableNewsletter),
  generalRateLimit: limit(1, 1000, d.generalRateLimit),
  adminRateLimit: limit(1, 500, d.adminRateLimit),
  strictRateLimit: limit(1, 100, d.strictRateLimit),
  /** Flat US shipping rate and the subtotal from which shipping is free, integer cents. */
  shippingRate: z._default(z.int().check(z.gte(0)), d.shippingRate),
  freeShippingThreshold: z._default(z.int().check(z.gte(0)), d.freeShippingThreshold),
  /** Card processing fee passed to the shopper, in basis points of the total (0 = none). */
  processingFeeBasisPoints: z._default(z.int().check(z.gte(0), z.lte(1000)), d.processingFeeBasisPoints),
});
export type SystemSettings = z.infer<typeof SystemSettings>;

export const defaultSettings: SystemSettings = SystemSettings.parse({});

/** What the storefront shows of the settings: no secrets, no limits. */
export const PublicSettings = z.pick(SystemSettings, {
  siteName: true,
  siteDescription: true,
  supportEmail: true,
  socialUrl: true,
  freeShippingThreshold: true,
  allowRegistration: true,
  enableNewsletter: true,
});
export type PublicSettings = z.infer<typeof PublicSettings>;

export const getPublicSettings = { method: 'GET', path: '/api/settings/public', response: PublicSettings } as const;
