/**
 * The seam between the checkout modal and whichever processor takes the card.
 *
 * The modal renders a `PaymentForm` and, on Pay Now, calls its handle's `confirm`; it never
 * knows which processor it talks to. There are two implementations: the built-in test
 * processor's card form (test-card-form.tsx), and Stripe's Payment Element
 * (stripe-payment-form.tsx), which is imported lazily (see `paymentFormFor`) so no Stripe code
 * reaches a shop that does not use Stripe, nor any page's first load.
 */

import { type ComponentType, lazy, type Ref } from 'react';
import { useRouteLoaderData } from 'react-router';
import type { DraftAddress } from '#common/contracts/checkout.ts';
import { PAYMENT_FAILED_MESSAGE, paymentErrorMessage } from '#common/payment-errors.ts';
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
  const root = useRouteLoaderData('frame') as { payments?: PaymentConfig } | undefined;
  return root?.payments ?? BUILT_IN;
}

/** Stripe's Payment Element, in its own chunk: downloaded the first time a Stripe shop's checkout shows it. */
const StripePaymentForm: PaymentForm = lazy(() => import('./stripe-payment-form.tsx'));

/**
 * The form for the processor; null when this build has none for it (Pay Now then stays
 * disabled). Wrap it in <Suspense>: the Stripe form is lazy.
 */
export function paymentFormFor(config: PaymentConfig): PaymentForm | null {
  switch (config.provider) {
    case 'local':
      return TestCardForm;
    case 'stripe':
      return StripePaymentForm;
  }
}

/**
 * The billing details as Stripe.js takes them (`payment_method_data.billing_details`). The
 * Payment Element does not ask for them again (the modal has them), so every field is given,
 * empty ones as ''.
 */
export function stripeBillingDetails({ name, email, address }: BillingDetails) {
  return {
    name: name.trim(),
    email: email.trim(),
    address: {
      line1: address.street.trim(),
      line2: address.line2.trim(),
      city: address.city.trim(),
      state: address.state.trim(),
      postal_code: address.zipCode.trim(),
      country: address.country.trim().toUpperCase(),
    },
  };
}

/** What we read of a Stripe.js error (`StripeError`): `decline_code` gives a decline's reason. */
export type StripeErrorLike = {
  type?: string;
  code?: string | null | undefined;
  decline_code?: string | null | undefined;
  message?: string | null | undefined;
};

/**
 * The shopper's message for a Stripe.js error: the spec's text for its `decline_code ?? code`,
 * else Stripe's own message (written for shoppers), else 'Payment failed'.
 */
export function stripeErrorMessage(error: StripeErrorLike): string {
  return paymentErrorMessage(error.decline_code ?? error.code, error.message);
}

/**
 * The payment intent statuses after which the order may be made: authorised for later capture
 * (the shop captures after the stock is taken), already captured, or still being processed by a
 * payment method that settles later (the server and the webhook decide).
 */
const CONFIRMED = new Set(['requires_capture', 'succeeded', 'processing']);

/**
 * The outcome of `stripe.confirmPayment(…, redirect: 'if_required')`: its error, mapped to the
 * shopper's message; or the intent's status, which must be one that lets the order be made.
 */
export function stripeConfirmOutcome(result: {
  error?: StripeErrorLike | undefined;
  paymentIntent?: { status: string } | undefined;
}): PaymentOutcome {
  if (result.error) return { ok: false, message: stripeErrorMessage(result.error) };
  if (result.paymentIntent && CONFIRMED.has(result.paymentIntent.status)) return { ok: true };
  return { ok: false, message: PAYMENT_FAILED_MESSAGE };
}
