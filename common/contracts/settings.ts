import * as z from 'zod/mini';
import { settingsDefaults as d } from '../settings-defaults.ts';

/** A trimmed, non-empty text of at most `max` characters. */
const text = (max: number) => z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max));
const between = (min: number, max: number) => z.int().check(z.gte(min), z.lte(max));

/** Stripe's keys, as Stripe issues them (the test or live mode in the prefix). */
const STRIPE_SECRET_KEY = /^(sk|rk)_(test|live)_[0-9A-Za-z_]{8,240}$/;
const STRIPE_PUBLISHABLE_KEY = /^pk_(test|live)_[0-9A-Za-z_]{8,240}$/;
/** Another provider's key: printable characters without spaces (the formats differ by provider). */
const API_KEY = /^[\x21-\x7e]+$/;

const stripePublishableKey = z
  .string()
  .check(z.regex(STRIPE_PUBLISHABLE_KEY, 'must be a Stripe publishable key (pk_test_… or pk_live_…)'));

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
  /** The card-payment public key (Stripe's publishable key): not a secret, the browser gets it. Null: not set. */
  stripePublishableKey: z.nullable(stripePublishableKey),
};

/** A stored rate limit out of its range falls back to the default (spec 5). */
const limit = (rule: z.ZodMiniInt, fallback: number) => z._default(z.catch(rule, fallback), fallback);

/** System settings of the back office, with their defaults (spec: back office sections 3 and 5). No secret. */
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
  stripePublishableKey: z._default(rules.stripePublishableKey, d.stripePublishableKey),
});
export type SystemSettings = z.infer<typeof SystemSettings>;

export const defaultSettings: SystemSettings = SystemSettings.parse({});

/**
 * The secret settings (spec 3: the card-payment secret key, the marketplace API key, the AI API
 * key): stored encrypted, shown masked, never sent in full.
 */
export const secretSettingNames = ['stripeSecretKey', 'aliexpressApiKey', 'aiApiKey'] as const;
export type SecretSettingName = (typeof secretSettingNames)[number];

/** What a saved secret is shown as: this mask and its last 4 characters. */
export const SECRET_MASK = '••••';
/** Below this length the last 4 characters would give away too much of a key: the mask alone. */
const MASK_TAIL_MIN_LENGTH = 12;

/** How a saved secret is shown: '••••abcd' (its last 4 characters), or null when none is saved. */
export function maskSecret(value: string | null): string | null {
  if (value === null) return null;
  return value.length >= MASK_TAIL_MIN_LENGTH ? `${SECRET_MASK}${value.slice(-4)}` : SECRET_MASK;
}

/** A masked value sent back as it was shown: it stands for "unchanged" (no key contains '•'). */
export const isMaskedSecret = (value: string) => value.startsWith('•');

/**
 * A secret field of a save: the new key (trimmed, checked by `rule`), '' or null to remove the
 * saved one, or the masked value sent back unchanged, which keeps it.
 */
const secretInput = (rule: z.ZodMiniString, message: string) =>
  z.nullable(
    z.string().check(
      z.trim(),
      z.maxLength(300),
      z.refine((value) => value === '' || isMaskedSecret(value) || rule.safeParse(value).success, message),
    ),
  );

const secretInputs = {
  stripeSecretKey: secretInput(
    z.string().check(z.regex(STRIPE_SECRET_KEY)),
    'must be a Stripe secret key (sk_test_… or sk_live_…)',
  ),
  aliexpressApiKey: secretInput(
    z.string().check(z.minLength(6), z.regex(API_KEY)),
    'must be the key itself: at least 6 characters, no spaces',
  ),
  aiApiKey: secretInput(
    z.string().check(z.minLength(16), z.regex(API_KEY)),
    'must be the key itself: at least 16 characters, no spaces',
  ),
};

/**
 * What the settings tab saves: any of the settings, each by its rule, and the secrets (see
 * `secretInput`); an unknown field is refused. '' removes the publishable key too.
 */
export const SettingsChanges = z.partial(
  z.strictObject({
    ...rules,
    stripePublishableKey: z.nullable(z.union([z.literal(''), stripePublishableKey])),
    ...secretInputs,
  }),
);
export type SettingsChanges = z.infer<typeof SettingsChanges>;

/** The settings as the settings tab reads them: every setting, and each secret masked (null: not set). */
export const AdminSettings = z.extend(SystemSettings, {
  stripeSecretKey: z.nullable(z.string()),
  aliexpressApiKey: z.nullable(z.string()),
  aiApiKey: z.nullable(z.string()),
});
export type AdminSettings = z.infer<typeof AdminSettings>;

export const defaultAdminSettings: AdminSettings = {
  ...defaultSettings,
  stripeSecretKey: null,
  aliexpressApiKey: null,
  aiApiKey: null,
};

/** Stripe's test or live mode, from a key's prefix. */
export const stripeKeyMode = (key: string) => (key.split('_')[1] === 'live' ? 'live' : 'test');

/** What the storefront shows of the settings: no secrets, no keys, no limits. */
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
