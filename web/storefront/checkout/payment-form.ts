/**
 * The seam between the checkout modal and whichever processor takes the card.
 *
 * The modal renders a `PaymentForm` and, on Pay Now, calls its handle's `confirm`; it never
 * knows which processor it talks to. Today there is one implementation, the built-in test
 * processor's card form (test-card-form.tsx). Stripe's Payment Element is the second one, to be
 * added as `stripe-payment-form.tsx` once `@stripe/stripe-js` and `@stripe/react-stripe-js` are
 * installed: `<Elements stripe={loadStripe(publishableKey)} options={{ clientSecret, appearance:
 * { theme: 'night' } }} key={clientSecret}>` around `<PaymentElement onReady onChange>`, whose
 * `confirm` calls `stripe.confirmPayment({ elements, confirmParams: { return_url,
 * payment_method_data: { billing_details } }, redirect: 'if_required' })` and maps an error with
 * `paymentErrorMessage(error.decline_code ?? error.code, error.message)`. It must be imported
 * lazily (see `paymentFormFor`), so no Stripe code reaches a shop that does not use Stripe.
 */

import type { ComponentType, Ref } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { DraftAddress } from '#common/contracts/checkout.ts';
import type { PaymentConfig } from '#web/context.ts';
import { TestCardForm } from './test-card-form.tsx';

/** What the browser is told about the server's processor (the server's `processor.browserConfig`). */
export type { PaymentConfig };

/** Who pays, as the processor records it with the card (spec 7: name, email and address). */
export type BillingDetails = { name: string; email: string; address: DraftAddress };

/** How confirming the card went: authorised (the order may be made), or the shopper's message. */
export type PaymentOutcome = { ok: true } | { ok: false; message: string };

export type PaymentFormHandle = {
  /** Confirms the payment with the card entered; resolves with the shopper's message on failure, never rejects. */
  confirm(input: { clientSecret: string; billing: BillingDetails }): Promise<PaymentOutcome>;
};

/** `ready`: the form can take a card (spec: "the payment provider is ready"); `complete`: it holds one. */
export type PaymentFormState = { ready: boolean; complete: boolean };

export type PaymentFormProps = {
  /** The payment intent's client secret; null while the first sync is on its way. */
  clientSecret: string | null;
  disabled: boolean;
  onStateChange: (state: PaymentFormState) => void;
  ref: Ref<PaymentFormHandle>;
};

export type PaymentForm = ComponentType<PaymentFormProps>;

const BUILT_IN: PaymentConfig = { provider: 'local' };

/**
 * The processor the server uses, from the root loader's `payments` (the server's
 * `processor.browserConfig`). Until the root loader provides it, the built-in processor, which
 * is the only one the server uses unless Stripe is configured.
 */
export function usePaymentConfig(): PaymentConfig {
  const root = useRouteLoaderData('root') as { payments?: PaymentConfig } | undefined;
  return root?.payments ?? BUILT_IN;
}

/**
 * The form for the processor; null when this build has none for it (Pay Now then stays
 * disabled). Wrap it in <Suspense>: the Stripe form will be `lazy(() =>
 * import('./stripe-payment-form.tsx'))`, created once at module level.
 */
export function paymentFormFor(config: PaymentConfig): PaymentForm | null {
  switch (config.provider) {
    case 'local':
      return TestCardForm;
    case 'stripe':
      return null;
  }
}
