import type { Db } from '#server/db/client.ts';
import { createLocalTestProcessor, type LocalTestProcessor } from './local-test-processor.ts';
import type { PaymentProcessor } from './payment-processor.ts';
import { createStripeProcessor, type StripeProcessorOptions } from './stripe-processor.ts';

type StripeKeys = { secretKey: string; publishableKey: string };

export type PaymentProcessorSettings = {
  stripeSecretKey?: string | null;
  stripePublishableKey?: string | null;
  stripeWebhookSecret?: string | null;
  /** Where Stripe's API is (a stand-in); null or unset: Stripe itself. */
  stripeApiBase?: StripeProcessorOptions['apiBase'] | null;
  /** Stripe's keys saved in the settings (both or none), read at each call. */
  savedStripeKeys?: () => StripeKeys | null;
};

/**
 * The processor is chosen once, at start: Stripe when STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY
 * are both set or the owner has saved Stripe's keys, otherwise the built-in test processor (the
 * pages' policy and the checkout's payment form follow that choice, so switching between the two
 * takes a restart). Once on Stripe, each call uses the saved keys when there are any, else the
 * keys it started with: a new or rotated pair applies without a restart. One of the two
 * environment keys without the other is a mistake, not a reason to fall back.
 */
export function createPaymentProcessor(
  { db }: { db: Db },
  {
    stripeSecretKey,
    stripePublishableKey,
    stripeWebhookSecret,
    stripeApiBase,
    savedStripeKeys = () => null,
  }: PaymentProcessorSettings,
): LocalTestProcessor | (PaymentProcessor & { readonly name: 'stripe' }) {
  if (!stripeSecretKey !== !stripePublishableKey) {
    throw new Error('Set both STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take payments with Stripe, or neither.');
  }
  const configured =
    stripeSecretKey && stripePublishableKey
      ? { secretKey: stripeSecretKey, publishableKey: stripePublishableKey }
      : null;
  const started = configured ?? savedStripeKeys();
  if (started) {
    return createStripeProcessor({
      ...started,
      webhookSecret: stripeWebhookSecret || null,
      ...(stripeApiBase ? { apiBase: stripeApiBase } : {}),
      currentKeys: savedStripeKeys,
    });
  }
  return createLocalTestProcessor({ db });
}
