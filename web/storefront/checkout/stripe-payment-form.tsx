/**
 * Stripe's Payment Element as the checkout's `PaymentForm` (used when the server takes cards with
 * Stripe). The card goes from the shopper's browser to Stripe, never through our server: the
 * Element is Stripe's own frame, and `confirm` asks Stripe.js to confirm the payment intent whose
 * client secret the cart sync gave us. Loaded lazily by `paymentFormFor` (its own chunk), and
 * Stripe.js itself from https://js.stripe.com, which the page policy admits only in a Stripe shop.
 */

import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { type Appearance, loadStripe, type Stripe } from '@stripe/stripe-js';
import { use, useEffect, useImperativeHandle, useState } from 'react';
import { PAYMENT_FAILED_MESSAGE } from '#common/payment-errors.ts';
import {
  type PaymentFormProps,
  type PaymentOutcome,
  stripeBillingDetails,
  stripeConfirmOutcome,
  usePaymentConfig,
} from './payment-form.ts';

const LOAD_FAILED = 'The payment form could not be loaded. Check your connection and reload the page.';
/** The cart sync replaced the payment intent between the Element's mount and Pay Now (rare). */
const INTENT_CHANGED = 'The payment was updated. Check the payment details and press Pay Now again.';

/** Stripe.js for each publishable key, loaded once per page; null when it could not be loaded. */
const stripes = new Map<string, Promise<Stripe | null>>();
const NO_STRIPE: Promise<Stripe | null> = Promise.resolve(null);

function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = stripes.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => null);
    stripes.set(publishableKey, stripe);
  }
  return stripe;
}

/**
 * Stripe's dark theme, in the colours of the built-in card form's panel (app.css: sage-800 inputs,
 * sage-300 focus, red-300 errors).
 */
const appearance: Appearance = {
  theme: 'night',
  variables: {
    colorPrimary: '#a3baa9',
    colorBackground: '#2f4135',
    colorText: '#ffffff',
    colorDanger: '#ffa2a2',
    fontFamily: 'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
    borderRadius: '8px',
  },
};

/** The shop's fields already hold the shopper's name, email and address: the Element asks only for the card. */
const elementOptions = {
  fields: { billingDetails: { name: 'never', email: 'never', address: 'never' } },
  layout: 'tabs',
} as const;

export default function StripePaymentForm({ clientSecret, disabled, onStateChange, ref }: PaymentFormProps) {
  const config = usePaymentConfig();
  // Suspends (the modal's "Loading the payment form…") until Stripe.js is there.
  const stripe = use(config.provider === 'stripe' ? stripeFor(config.publishableKey) : NO_STRIPE);

  // No Element without a payment intent: the form is not ready while the first sync is on its way.
  useEffect(() => {
    if (clientSecret === null || stripe === null) onStateChange({ ready: false, complete: false });
  }, [clientSecret, stripe, onStateChange]);

  if (stripe === null) return <Notice>{LOAD_FAILED}</Notice>;
  if (clientSecret === null) return <Notice>Preparing the payment…</Notice>;

  // A mounted <Elements> cannot take another client secret: a new payment intent gets a new one.
  return (
    <Elements key={clientSecret} stripe={stripe} options={{ clientSecret, appearance }}>
      <PaymentFields clientSecret={clientSecret} disabled={disabled} onStateChange={onStateChange} ref={ref} />
    </Elements>
  );
}

/** The Payment Element of one payment intent, and the handle that confirms it. */
function PaymentFields({
  clientSecret,
  disabled,
  onStateChange,
  ref,
}: Omit<PaymentFormProps, 'clientSecret'> & { clientSecret: string }) {
  const stripe = useStripe();
  const elements = useElements();
  const [ready, setReady] = useState(false);
  const [complete, setComplete] = useState(false);
  const [loadFailed, setLoadFailed] = useState(false);

  useEffect(() => {
    onStateChange({ ready: ready && !loadFailed && stripe !== null && elements !== null, complete });
  }, [ready, complete, loadFailed, stripe, elements, onStateChange]);

  useImperativeHandle(
    ref,
    () => ({
      async confirm({ clientSecret: secret, billing }): Promise<PaymentOutcome> {
        if (!stripe || !elements) return { ok: false, message: PAYMENT_FAILED_MESSAGE };
        if (secret !== clientSecret) return { ok: false, message: INTENT_CHANGED };
        try {
          const result = await stripe.confirmPayment({
            elements,
            confirmParams: {
              // Only for payment methods that leave the page; cards are confirmed here and the
              // modal then completes the order and goes to /success with its reference.
              return_url: `${window.location.origin}/success`,
              payment_method_data: { billing_details: stripeBillingDetails(billing) },
            },
            redirect: 'if_required',
          });
          return stripeConfirmOutcome(result);
        } catch {
          return { ok: false, message: PAYMENT_FAILED_MESSAGE };
        }
      },
    }),
    [stripe, elements, clientSecret],
  );

  return (
    <div className="rounded-xl bg-sage-900 p-4 sm:p-5">
      <PaymentElement
        options={{ ...elementOptions, readOnly: disabled }}
        onReady={() => setReady(true)}
        onChange={(event) => setComplete(event.complete)}
        onLoadError={() => setLoadFailed(true)}
      />
      {loadFailed ? (
        <p role="alert" className="mt-3 text-sm text-red-200">
          {LOAD_FAILED}
        </p>
      ) : null}
    </div>
  );
}

function Notice({ children }: { children: string }) {
  return <p className="text-sm text-stone-600">{children}</p>;
}
