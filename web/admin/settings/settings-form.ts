import type { AdminSettings, SettingsChanges } from '#common/contracts/settings.ts';
import { centsToDollars, dollarsToCents } from '#common/money.ts';
import { settingsDefaults } from '#common/settings-defaults.ts';

/**
 * The settings tab's form (spec 3, 5, 9): every setting as the inputs hold it, and back into the
 * changes a save sends (only what differs from the loaded settings). The server checks everything
 * again; these checks give the owner the reason before a round trip.
 */

export const textFields = ['siteName', 'siteDescription', 'contactEmail', 'supportEmail', 'socialUrl'] as const;
export const switchFields = [
  'maintenanceMode',
  'allowRegistration',
  'requireEmailVerification',
  'autoApproveReviews',
  'enableNewsletter',
] as const;
export const secretFields = ['stripeSecretKey', 'aliexpressApiKey', 'aiApiKey'] as const;

/** Spec 5: the rate limits' ranges and the values a field that is not a number falls back to. */
export const rateLimitRules = {
  generalRateLimit: { min: 1, max: 1000, fallback: settingsDefaults.generalRateLimit },
  adminRateLimit: { min: 1, max: 500, fallback: settingsDefaults.adminRateLimit },
  strictRateLimit: { min: 1, max: 100, fallback: settingsDefaults.strictRateLimit },
} as const;
type RateLimitField = keyof typeof rateLimitRules;

export const fieldLabels = {
  siteName: 'Site name',
  siteDescription: 'Site description',
  contactEmail: 'Contact email',
  supportEmail: 'Support email',
  socialUrl: 'Social page URL',
  maintenanceMode: 'Maintenance mode',
  allowRegistration: 'Allow registration',
  requireEmailVerification: 'Require email verification',
  autoApproveReviews: 'Auto-approve reviews',
  enableNewsletter: 'Enable newsletter',
  maxOrdersPerUser: 'Max orders per user (24 hours)',
  generalRateLimit: 'General rate limit (per minute)',
  adminRateLimit: 'Admin rate limit (per minute)',
  strictRateLimit: 'Strict rate limit (per minute)',
  shippingRate: 'Shipping rate (USD)',
  freeShippingThreshold: 'Free shipping from (USD)',
  processingFeeBasisPoints: 'Card processing fee (%)',
  stripePublishableKey: 'Card payments: public key',
  stripeSecretKey: 'Card payments: secret key',
  aliexpressApiKey: 'Marketplace API key',
  aiApiKey: 'AI API key',
} as const satisfies Partial<Record<keyof AdminSettings, string>>;

export type SettingsForm = {
  [K in (typeof textFields)[number]]: string;
} & {
  [K in (typeof switchFields)[number]]: boolean;
} & {
  [K in (typeof secretFields)[number]]: string;
} & {
  maxOrdersPerUser: string;
  generalRateLimit: string;
  adminRateLimit: string;
  strictRateLimit: string;
  shippingRate: string;
  freeShippingThreshold: string;
  processingFee: string;
  stripePublishableKey: string;
  /** Secrets to remove on save. */
  removeSecrets: (typeof secretFields)[number][];
};

const dollars = (cents: number) => centsToDollars(cents).toFixed(2);

/** The form as loaded: secret inputs start empty (typing a new key replaces the saved one). */
export function toForm(settings: AdminSettings): SettingsForm {
  return {
    siteName: settings.siteName,
    siteDescription: settings.siteDescription,
    contactEmail: settings.contactEmail,
    supportEmail: settings.supportEmail,
    socialUrl: settings.socialUrl,
    maintenanceMode: settings.maintenanceMode,
    allowRegistration: settings.allowRegistration,
    requireEmailVerification: settings.requireEmailVerification,
    autoApproveReviews: settings.autoApproveReviews,
    enableNewsletter: settings.enableNewsletter,
    maxOrdersPerUser: String(settings.maxOrdersPerUser),
    generalRateLimit: String(settings.generalRateLimit),
    adminRateLimit: String(settings.adminRateLimit),
    strictRateLimit: String(settings.strictRateLimit),
    shippingRate: dollars(settings.shippingRate),
    freeShippingThreshold: dollars(settings.freeShippingThreshold),
    processingFee: (settings.processingFeeBasisPoints / 100).toFixed(2),
    stripePublishableKey: settings.stripePublishableKey ?? '',
    stripeSecretKey: '',
    aliexpressApiKey: '',
    aiApiKey: '',
    removeSecrets: [],
  };
}

type Errors = Partial<Record<keyof typeof fieldLabels, string>>;

/** Spec 5: a rate limit that is not a whole number falls back; one out of its range is an error. */
export function readRateLimit(field: RateLimitField, text: string): { value: number } | { error: string } {
  const { min, max, fallback } = rateLimitRules[field];
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value)) return { value: fallback };
  if (value < min || value > max) return { error: `${fieldLabels[field]} must be between ${min} and ${max}` };
  return { value };
}

function readWhole(text: string, min: number, max: number, label: string): { value: number } | { error: string } {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isInteger(value) || value < min || value > max) {
    return { error: `${label} must be a whole number from ${min} to ${max}` };
  }
  return { value };
}

function readDollars(text: string, label: string): { value: number } | { error: string } {
  const value = Number(text.trim());
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) return { error: `${label} must be 0 or more` };
  return { value: dollarsToCents(value) };
}

/**
 * The changes of a save: each field that differs from `loaded`, in the API's units (cents, basis
 * points), or the errors by field. A secret is sent only when typed (a new key) or removed.
 */
export function toChanges(
  form: SettingsForm,
  loaded: AdminSettings,
): { changes: SettingsChanges; errors: null } | { changes: null; errors: Errors } {
  const errors: Errors = {};
  const changes: Record<string, unknown> = {};
  const set = (field: keyof AdminSettings, value: unknown) => {
    if (loaded[field] !== value) changes[field] = value;
  };
  for (const field of textFields) {
    const value = form[field].trim();
    if (value === '') errors[field] = `${fieldLabels[field]} is required`;
    else set(field, value);
  }
  for (const field of switchFields) set(field, form[field]);
  for (const field of Object.keys(rateLimitRules) as RateLimitField[]) {
    const read = readRateLimit(field, form[field]);
    if ('error' in read) errors[field] = read.error;
    else set(field, read.value);
  }
  const numbers = [
    ['maxOrdersPerUser', readWhole(form.maxOrdersPerUser, 1, 1000, fieldLabels.maxOrdersPerUser)],
    ['shippingRate', readDollars(form.shippingRate, fieldLabels.shippingRate)],
    ['freeShippingThreshold', readDollars(form.freeShippingThreshold, fieldLabels.freeShippingThreshold)],
  ] as const;
  for (const [field, read] of numbers) {
    if ('error' in read) errors[field] = read.error;
    else set(field, read.value);
  }
  const fee = Number(form.processingFee.trim());
  if (form.processingFee.trim() === '' || !Number.isFinite(fee) || fee < 0 || fee > 10) {
    errors.processingFeeBasisPoints = `${fieldLabels.processingFeeBasisPoints} must be from 0 to 10`;
  } else set('processingFeeBasisPoints', Math.round(fee * 100));
  const publishable = form.stripePublishableKey.trim();
  if (publishable !== (loaded.stripePublishableKey ?? '')) changes.stripePublishableKey = publishable;
  for (const field of secretFields) {
    const typed = form[field].trim();
    if (typed !== '') changes[field] = typed;
    else if (form.removeSecrets.includes(field) && loaded[field] !== null) changes[field] = '';
  }
  return Object.keys(errors).length > 0
    ? { changes: null, errors }
    : { changes: changes as SettingsChanges, errors: null };
}
