import { z } from 'zod';

/**
 * System settings of the back office, with their defaults. Rate limits are per minute and per
 * client; out-of-range values fall back to the defaults (spec: back office section 5).
 */
export const SystemSettings = z.object({
  siteName: z.string().trim().min(1).max(100).default('Stillwater'),
  siteDescription: z
    .string()
    .trim()
    .max(300)
    .default('Calming home and desk goods: tabletop fountains, soft lighting, aromatherapy and gifts.'),
  contactEmail: z.email().default('hello@stillwater.shop'),
  supportEmail: z.email().default('support@stillwater.shop'),
  socialUrl: z.url({ protocol: /^https$/ }).default('https://www.tiktok.com/@stillwater.shop'),
  maintenanceMode: z.boolean().default(false),
  allowRegistration: z.boolean().default(true),
  requireEmailVerification: z.boolean().default(false),
  maxOrdersPerUser: z.number().int().min(1).max(1000).default(10),
  autoApproveReviews: z.boolean().default(true),
  enableNewsletter: z.boolean().default(true),
  generalRateLimit: z.number().int().min(1).max(1000).catch(100).default(100),
  adminRateLimit: z.number().int().min(1).max(500).catch(50).default(50),
  strictRateLimit: z.number().int().min(1).max(100).catch(10).default(10),
  /** Flat US shipping rate and the subtotal from which shipping is free, integer cents. */
  shippingRate: z.number().int().min(0).default(499),
  freeShippingThreshold: z.number().int().min(0).default(5000),
  /** Card processing fee passed to the shopper, in basis points of the total (0 = none). */
  processingFeeBasisPoints: z.number().int().min(0).max(1000).default(0),
});
export type SystemSettings = z.infer<typeof SystemSettings>;

export const defaultSettings: SystemSettings = SystemSettings.parse({});

/** What the storefront shows of the settings: no secrets, no limits. */
export const PublicSettings = SystemSettings.pick({
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
