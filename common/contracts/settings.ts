import * as z from 'zod/mini';
import { settingsDefaults as d } from '../settings-defaults.ts';

/** A trimmed, non-empty text of at most `max` characters. */
const text = (max: number) => z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max));
const between = (min: number, max: number) => z.int().check(z.gte(min), z.lte(max));

/**
 * Each setting's rule, written once: the back office's saves are checked against it (a bad value
 * is refused, naming the field), and the stored settings are read through it with defaults.
 */
const rules = {
  siteName: text(100),
  siteDescription: text(300),
  contactEmail: z.email(),
  supportEmail: z.email(),
  socialUrl: z.url({ protocol: /^https$/ }),
  maintenanceMode: z.boolean(),
  allowRegistration: z.boolean(),
  requireEmailVerification: z.boolean(),
  maxOrdersPerUser: between(1, 1000),
  autoApproveReviews: z.boolean(),
  enableNewsletter: z.boolean(),
  /** Requests per minute and client (spec 5: 1-1000, 1-500, 1-100). */
  generalRateLimit: between(1, 1000),
  adminRateLimit: between(1, 500),
  strictRateLimit: between(1, 100),
  /** Flat US shipping rate and the subtotal from which shipping is free, integer cents. */
  shippingRate: z.int().check(z.gte(0), z.lte(100_000)),
  freeShippingThreshold: z.int().check(z.gte(0), z.lte(100_000_000)),
  /** Card processing fee passed to the shopper, in basis points of the total (0 = none). */
  processingFeeBasisPoints: between(0, 1000),
};

/** A stored rate limit out of its range falls back to the default (spec 5). */
const limit = (rule: z.ZodMiniInt, fallback: number) => z._default(z.catch(rule, fallback), fallback);

/** System settings of the back office, with their defaults (spec: back office sections 3 and 5). */
export const SystemSettings = z.object({
  siteName: z._default(rules.siteName, d.siteName),
  siteDescription: z._default(rules.siteDescription, d.siteDescription),
  contactEmail: z._default(rules.contactEmail, d.contactEmail),
  supportEmail: z._default(rules.supportEmail, d.supportEmail),
  socialUrl: z._default(rules.socialUrl, d.socialUrl),
  maintenanceMode: z._default(rules.maintenanceMode, d.maintenanceMode),
  allowRegistration: z._default(rules.allowRegistration, d.allowRegistration),
  requireEmailVerification: z._default(rules.requireEmailVerification, d.requireEmailVerification),
  maxOrdersPerUser: z._default(rules.maxOrdersPerUser, d.maxOrdersPerUser),
  autoApproveReviews: z._default(rules.autoApproveReviews, d.autoApproveReviews),
  enableNewsletter: z._default(rules.enableNewsletter, d.enableNewsletter),
  generalRateLimit: limit(rules.generalRateLimit, d.generalRateLimit),
  adminRateLimit: limit(rules.adminRateLimit, d.adminRateLimit),
  strictRateLimit: limit(rules.strictRateLimit, d.strictRateLimit),
  shippingRate: z._default(rules.shippingRate, d.shippingRate),
  freeShippingThreshold: z._default(rules.freeShippingThreshold, d.freeShippingThreshold),
  processingFeeBasisPoints: z._default(rules.processingFeeBasisPoints, d.processingFeeBasisPoints),
});
/** What the settings tab saves: any of the settings, each by its rule; an unknown field is refused. */
export const SettingsChanges = z.partial(z.strictObject(rules));
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
