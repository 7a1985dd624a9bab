import type { Db } from '#server/db/client.ts';
import { createLocalTestProcessor, type LocalTestProcessor } from './local-test-processor.ts';
import type { PaymentProcessor } from './payment-processor.ts';
import { createStripeProcessor } from './stripe-processor.ts';

export type PaymentProcessorSettings = {
  stripeSecretKey?: string | null;
  stripePublishableKey?: string | null;
  stripeWebhookSecret?: string | null;
};

/**
 * Stripe when STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY are both set, otherwise the built-in
 * test processor. One of the two keys without the other is a mistake, not a reason to fall back.
 */
export function createPaymentProcessor(
  { db }: { db: Db },
  { stripeSecretKey, stripePublishableKey, stripeWebhookSecret }: PaymentProcessorSettings,
): LocalTestProcessor | (PaymentProcessor & { readonly name: 'stripe' }) {
  if (stripeSecretKey && stripePublishableKey) {
    return createStripeProcessor({
      secretKey: stripeSecretKey,
      publishableKey: stripePublishableKey,
      webhookSecret: stripeWebhookSecret || null,
    });
  }
  if (stripeSecretKey || stripePublishableKey) {
    throw new Error('Set both STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY to take payments with Stripe, or neither.');
  }
  return createLocalTestProcessor({ db });
}
