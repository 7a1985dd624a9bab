import {
  type FormEvent,
  type KeyboardEvent,
  type MouseEvent,
  type RefObject,
  Suspense,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react';
import { Link, useNavigate, useRouteLoaderData } from 'react-router';
import { validateEmail } from '#common/account-rules.ts';
import type { completeCheckout } from '#common/contracts/checkout.ts';
import { centsToDollars, formatCents } from '#common/money.ts';
import { PAYMENT_FAILED_MESSAGE } from '#common/payment-errors.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { primaryButton, TextField } from '#web/common/form-fields.tsx';
import type { loader as frameLoader } from '#web/routes/frame.tsx';
import { clearCart, useCartSync } from '#web/storefront/cart/cart-sync.ts';
import { adCartProperties } from '#web/storefront/tracking/ad-tracker.ts';
import { notePaidOrder } from '#web/storefront/tracking/paid-order.ts';
import { AddressFields } from './address-fields.tsx';
import { emptyAddress, payBlockers, shippingText } from './checkout-form.ts';
import { type PaymentFormHandle, type PaymentFormState, paymentFormFor, usePaymentConfig } from './payment-form.ts';

const TABBABLE =
  'a[href], button:not(:disabled), input:not(:disabled):not([type="hidden"]), select:not(:disabled), textarea:not(:disabled), [tabindex]:not([tabindex="-1"])';

/** The elements Tab moves through inside the dialog, in order. */
function tabbables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.tabIndex >= 0 && element.getClientRects().length > 0,
  );
}

/**
 * The checkout modal (spec: Checkout modal; states "Cart and payment sync" and "Checkout"): a
 * native modal dialog that Escape, a backdrop click, the close button, and Tab or Shift-Tab out
 * of the form all close, focus then going back to `returnFocusTo` (the cart's Checkout button).
 * What the shopper types goes to the cart-sync store, which syncs the payment intent with the
 * change's reason and keeps it while the page does; the card details go with each close.
 */
export function CheckoutModal({
  open,
  onClose,
  returnFocusTo,
}: {
  open: boolean;
  onClose: () => void;
  returnFocusTo?: RefObject<HTMLElement | null>;
}) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const cart = useCartSync();
  const { ready, items, clientSecret, syncNow } = cart;
  const empty = ready && items.length === 0;
  /** Set once the order is made: the cart then empties under the modal on its way to /success. */
  const completedRef = useRef(false);
  const onCloseRef = useRef(onClose);
  onCloseRef.current = onClose;

  // The parent opens and closes the dialog.
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      completedRef.current = false;
      dialog.showModal();
      dialog.querySelector<HTMLInputElement>('input[type="email"]')?.focus();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // Without a payment yet (its sync failed, or is still to come), opening asks for one now.
  useEffect(() => {
    if (open && ready && items.length > 0 && clientSecret === null) void syncNow();
  }, [open, ready, items.length, clientSecret, syncNow]);

  // Spec 4: an empty cart (the store then clears the client secret) closes the modal.
  useEffect(() => {
    if (empty && !completedRef.current) dialogRef.current?.close();
  }, [empty]);

  const close = () => dialogRef.current?.close();

  // A click on the backdrop lands on the dialog element itself, outside its box.
  const pressedOutside = useRef(false);
  const outside = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target !== event.currentTarget) return false;
    const box = event.currentTarget.getBoundingClientRect();
    return (
      event.clientX < box.left || event.clientX > box.right || event.clientY < box.top || event.clientY > box.bottom
    );
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDialogElement>) => {
    if (event.key !== 'Tab') return;
    const order = tabbables(event.currentTarget);
    const edge = event.shiftKey ? order[0] : order[order.length - 1];
    // Spec 4: Tab past the last control or Shift-Tab before the first leaves the form: it closes.
    if (edge && document.activeElement === edge) {
      event.preventDefault();
      close();
    }
  };

  return (
    <dialog
      ref={dialogRef}
      aria-labelledby={titleId}
      onClose={() => {
        onCloseRef.current();
        returnFocusTo?.current?.focus();
      }}
      onKeyDown={onKeyDown}
      onMouseDown={(event) => {
        pressedOutside.current = outside(event);
      }}
      onClick={(event) => {
        if (pressedOutside.current && outside(event)) close();
        pressedOutside.current = false;
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-2xl overflow-y-auto overscroll-contain rounded-2xl bg-sand-50 p-0 text-ink shadow-2xl backdrop:bg-stone-950/60"
    >
      {open ? (
        <CheckoutForm
          titleId={titleId}
          cart={cart}
          onClose={close}
          onCompleted={() => {
            completedRef.current = true;
          }}
        />
      ) : null}
    </dialog>
  );
}

function CheckoutForm({
  titleId,
  cart,
  onClose,
  onCompleted,
}: {
  titleId: string;
  cart: ReturnType<typeof useCartSync>;
  onClose: () => void;
  onCompleted: () => void;
}) {
  const navigate = useNavigate();
  const settings = useRouteLoaderData<typeof frameLoader>('frame')?.settings;
  const PaymentForm = paymentFormFor(usePaymentConfig());
  const paymentForm = useRef<PaymentFormHandle>(null);
  const [formState, setFormState] = useState<PaymentFormState>({ ready: false, complete: false });
  const [processing, setProcessing] = useState(false);
  const [alert, setAlert] = useState<string | null>(null);
  const [emailError, setEmailError] = useState<string | null>(null);
  /** The payment already authorised: paying again (after a failed order) goes straight to the order. */
  const authorised = useRef<string | null>(null);
  const blockersId = useId();

  const { details, breakdown, clientSecret, setCheckoutDetails, syncNow } = cart;
  const shipping = details.shipping ?? emptyAddress();
  const processorReady = PaymentForm !== null && clientSecret !== null && formState.ready;
  const blockers = payBlockers({ details, processorReady, paymentComplete: formState.complete });

  async function pay(event: FormEvent) {
    event.preventDefault();
    if (blockers.length > 0 || processing || !paymentForm.current) return;
    const emailProblem = validateEmail(details.email);
    if (emailProblem) {
      setEmailError(emailProblem);
      return;
    }
    setProcessing(true);
    setAlert(null);
    try {
      // The payment must carry the checkout as the shopper sees it before the card is confirmed.
      const synced = await syncNow();
      if (synced.syncError || !synced.priced || !synced.paymentIntentId || !synced.clientSecret) {
        setAlert(synced.syncError ?? PAYMENT_FAILED_MESSAGE);
        return;
      }
      const paymentIntentId = synced.paymentIntentId;
      if (authorised.current !== paymentIntentId) {
        const billing = synced.details.billing ?? synced.details.shipping ?? emptyAddress();
        const outcome = await paymentForm.current.confirm({
          clientSecret: synced.clientSecret,
          billing: { name: billing.name.trim(), email: synced.details.email.trim(), address: billing },
        });
        if (!outcome.ok) {
          setAlert(outcome.message);
          return;
        }
        authorised.current = paymentIntentId;
      }
      let order: { reference: string; total: number };
      try {
        order = await api.call<typeof completeCheckout>(
          { method: 'POST', path: '/api/checkout/complete' },
          { body: { paymentIntentId } },
        );
      } catch (error) {
        if (error instanceof ApiRequestError && error.status === 409) {
          // Sold out (or the cart changed): the authorisation was cancelled, nothing was charged.
          authorised.current = null;
          setAlert(error.message);
          return;
        }
        setAlert(errorMessage(error, PAYMENT_FAILED_MESSAGE));
        return;
      }
      onCompleted();
      // For /success, which reports the paid order (the conversion and the pixel's CompletePayment).
      notePaidOrder({
        reference: order.reference,
        totalCents: order.total,
        properties: {
          ...adCartProperties(synced.items, centsToDollars(order.total)),
          order_id: order.reference,
        },
      });
      // Spec 4: the cart and the stored payment intent id go, and the shopper goes to /success
      // (which clears the cart again). Cleared after the navigation, so the empty cart never shows.
      await navigate(`/success?session_id=${encodeURIComponent(order.reference)}`);
      clearCart();
    } finally {
      setProcessing(false);
    }
  }

  const linkClass = 'text-sage-700 underline underline-offset-2 hover:text-sage-900';

  return (
    <div className="p-5 sm:p-8">
      <div className="flex items-start justify-between gap-4">
        <h2 id={titleId} className="font-serif text-3xl text-sage-900">
          Checkout
        </h2>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close checkout"
          className="-mt-1 -mr-2 rounded-full p-2 text-stone-600 hover:bg-sage-100 hover:text-stone-900"
        >
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor">
            <path strokeLinecap="round" strokeWidth="2" d="M6 6l12 12M18 6L6 18" />
          </svg>
        </button>
      </div>

      <form onSubmit={pay} noValidate className="mt-6">
        <fieldset disabled={processing} className="space-y-8">
          <section aria-labelledby={`${titleId}-contact`} className="space-y-4">
            <h3 id={`${titleId}-contact`} className="font-serif text-xl text-sage-900">
              Contact
            </h3>
            <TextField
              label="Email"
              type="email"
              name="email"
              autoComplete="email"
              value={details.email}
              error={emailError}
              hint="We send the order confirmation here."
              onChange={(email) => {
                setEmailError(null);
                setCheckoutDetails({ email });
              }}
            />
            {settings?.enableNewsletter !== false ? (
              <label className="flex items-start gap-3 text-sm text-stone-700">
                <input
                  type="checkbox"
                  name="newsletter"
                  checked={details.newsletter}
                  onChange={(event) => setCheckoutDetails({ newsletter: event.target.checked })}
                  className="mt-0.5 h-4 w-4 rounded border-sage-300 accent-sage-700"
                />
                Email me about new arrivals and offers (unsubscribe at any time)
              </label>
            ) : null}
          </section>

          <AddressFields
            legend="Shipping address"
            section="shipping"
            value={shipping}
            onChange={(next) => setCheckoutDetails({ shipping: next })}
          />

          <div className="space-y-4">
            <label className="flex items-start gap-3 text-sm text-stone-700">
              <input
                type="checkbox"
                name="billing-same"
                checked={details.billing === null}
                onChange={(event) => setCheckoutDetails({ billing: event.target.checked ? null : emptyAddress() })}
                className="mt-0.5 h-4 w-4 rounded border-sage-300 accent-sage-700"
              />
              Billing address is the same as the shipping address
            </label>
            {details.billing === null ? null : (
              <AddressFields
                legend="Billing address"
                section="billing"
                value={details.billing}
                onChange={(next) => setCheckoutDetails({ billing: next })}
              />
            )}
          </div>

          <section aria-labelledby={`${titleId}-payment`} className="space-y-3">
            <h3 id={`${titleId}-payment`} className="font-serif text-xl text-sage-900">
              Payment details
            </h3>
            {PaymentForm ? (
              <Suspense fallback={<p className="text-sm text-stone-600">Loading the payment form…</p>}>
                <PaymentForm
                  ref={paymentForm}
                  clientSecret={clientSecret}
                  disabled={processing}
                  onStateChange={setFormState}
                />
              </Suspense>
            ) : (
              <p className="text-sm text-stone-700">Card payments are not available in this shop right now.</p>
            )}
          </section>

          <section aria-labelledby={`${titleId}-summary`}>
            <h3 id={`${titleId}-summary`} className="font-serif text-xl text-sage-900">
              Order summary
            </h3>
            {breakdown ? (
              <dl
                className="mt-3 space-y-2 text-sm text-stone-700"
                data-testid="price-breakdown"
                data-priced={cart.priced}
              >
                <Row label="Subtotal" value={formatCents(breakdown.subtotal)} />
                {breakdown.discount > 0 ? <Row label="Discount" value={`−${formatCents(breakdown.discount)}`} /> : null}
                <Row label="Shipping" value={shippingText(breakdown, details.shipping)} />
                <Row label="Tax" value={formatCents(breakdown.tax)} />
                {breakdown.fee > 0 ? <Row label="Processing fee" value={formatCents(breakdown.fee)} /> : null}
                <div className="flex justify-between border-t border-sage-200 pt-2 text-base font-semibold text-stone-900">
                  <dt>Total</dt>
                  <dd>{formatCents(breakdown.total)}</dd>
                </div>
              </dl>
            ) : (
              <p className="mt-3 text-sm text-stone-600">
                {cart.syncing ? 'Calculating…' : (cart.syncError ?? 'The total could not be calculated yet.')}
              </p>
            )}
          </section>
        </fieldset>

        {alert ? (
          <div role="alert" className="mt-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
            {alert}
          </div>
        ) : null}

        <button
          type="submit"
          disabled={blockers.length > 0 || processing}
          aria-describedby={blockers.length > 0 ? blockersId : undefined}
          className={`${primaryButton} mt-6`}
        >
          {processing ? 'Processing…' : 'Pay Now'}
        </button>
        {blockers.length > 0 ? (
          <p id={blockersId} className="mt-2 text-center text-sm text-stone-600">
            To pay, {blockers.join(', ')}.
          </p>
        ) : null}

        <p className="mt-6 text-center text-xs leading-5 text-stone-600">
          By paying you agree to our{' '}
          <Link to="/terms" target="_blank" rel="noopener" className={linkClass}>
            Terms
            <span className="sr-only"> (opens in a new tab)</span>
          </Link>
          , our{' '}
          <Link to="/privacy" target="_blank" rel="noopener" className={linkClass}>
            Privacy Policy
            <span className="sr-only"> (opens in a new tab)</span>
          </Link>{' '}
          and our{' '}
          <Link to="/returns" target="_blank" rel="noopener" className={linkClass}>
            Returns &amp; Exchanges
            <span className="sr-only"> (opens in a new tab)</span>
          </Link>{' '}
          policy.
        </p>
      </form>
    </div>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between">
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
