/** The default system settings, as plain data (the browser reads them without zod). */
export const settingsDefaults = {
  siteName: 'Stillwater',
  siteDescription: 'Calming home and desk goods: tabletop fountains, soft lighting, aromatherapy and gifts.',
  contactEmail: 'hello@stillwater.shop',
  supportEmail: 'support@stillwater.shop',
  socialUrl: 'https://www.tiktok.com/@stillwater.shop',
  maintenanceMode: false,
  allowRegistration: true,
  requireEmailVerification: false,
  maxOrdersPerUser: 10,
  autoApproveReviews: true,
  enableNewsletter: true,
  generalRateLimit: 100,
  adminRateLimit: 50,
  strictRateLimit: 10,
  shippingRate: 499,
  freeShippingThreshold: 5000,
  processingFeeBasisPoints: 0,
  /** Stripe's publishable key; null until the owner saves one (the environment's is used meanwhile). */
  stripePublishableKey: null,
} as const;

/** Spec 5: the rate limits' recommended minimums (per minute and client), which the settings tab warns about. */
export const recommendedRateLimitMinimums = {
  generalRateLimit: 100,
  adminRateLimit: 50,
  strictRateLimit: 10,
} as const;

/** Spec 5: the settings tab's warning, with the minimums above. */
export const rateLimitWarning = `The recommended minimums are ${recommendedRateLimitMinimums.generalRateLimit}, ${recommendedRateLimitMinimums.adminRateLimit} and ${recommendedRateLimitMinimums.strictRateLimit}.`;

/** The rate limits set below their recommended minimum (the warning applies to them). */
export function rateLimitsBelowRecommended(limits: Record<keyof typeof recommendedRateLimitMinimums, number>) {
  return (Object.keys(recommendedRateLimitMinimums) as (keyof typeof recommendedRateLimitMinimums)[]).filter(
    (name) => limits[name] < recommendedRateLimitMinimums[name],
  );
}
