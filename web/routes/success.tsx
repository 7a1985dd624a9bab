import { useEffect } from 'react';
import { Link, useRouteLoaderData, useSearchParams } from 'react-router';
import { settingsDefaults } from '#common/settings-defaults.ts';
import { clearCart } from '#web/storefront/cart/cart-storage.ts';
import { sendAdEvent } from '#web/storefront/tracking/ad-tracker.ts';
import { sendConversion } from '#web/storefront/tracking/analytics.ts';
import { readConsentState } from '#web/storefront/tracking/consent.ts';
import { takePaidOrder } from '#web/storefront/tracking/paid-order.ts';
import type { Route } from './+types/success.ts';
import type { loader as frameLoader } from './frame.tsx';

export const meta: Route.MetaFunction = () => [
  { title: 'Thank you for your order · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

/** An order reference as the checkout passes it (the order's id); anything else is not shown. */
const REFERENCE = /^[A-Za-z0-9_-]{1,100}$/;
/** The shop's own order references (a paid order's, which the conversion reports). */
const ORDER_REFERENCE = /^[0-9a-f]{16}$/;

export default function Success() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id')?.trim() ?? '';
  const reference = REFERENCE.test(sessionId) ? sessionId : null;
  const root = useRouteLoaderData<typeof frameLoader>('frame');
  const supportEmail = root?.settings.supportEmail ?? settingsDefaults.supportEmail;
  const userId = root?.user?.id ?? null;

  // A payment method that left the page comes back with Stripe's verdict: a failure keeps the cart.
  const failed = params.get('redirect_status') === 'failed';

  // Spec 4: the cart is cleared again here (the checkout cleared it before coming).
  useEffect(() => {
    if (!failed) clearCart();
  }, [failed]);

  // Spec 7: the conversion (the server counts a paid order once, at its own total) and, straight
  // from the checkout only (not on a reload or a shared link), the pixel's CompletePayment.
  // biome-ignore lint/correctness/useExhaustiveDependencies: once per order shown; the user is read as it is then.
  useEffect(() => {
    if (failed || !reference || !ORDER_REFERENCE.test(reference)) return;
    const paid = takePaidOrder(reference);
    sendConversion({ reference, totalCents: paid?.totalCents ?? 0 }, { userId, accepted: readConsentState().accepted });
    if (paid) sendAdEvent('CompletePayment', paid.properties);
  }, [failed, reference]);

  if (failed) {
    return (
      <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
        <div className="rounded-2xl border border-sage-100 bg-white p-8 text-center shadow-sm sm:p-10">
          <h1 className="font-serif text-4xl text-sage-900">Payment failed</h1>
          <p className="mt-3 text-stone-700">Nothing was charged, and your cart is as you left it.</p>
          <Link
            to="/cart"
            className="mt-8 inline-block rounded-full bg-sage-700 px-6 py-3 font-medium text-white hover:bg-sage-800"
          >
            Back to the cart
          </Link>
        </div>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-2xl px-4 py-16 sm:px-6">
      <div className="rounded-2xl border border-sage-100 bg-white p-8 text-center shadow-sm sm:p-10">
        <div className="mx-auto flex h-14 w-14 items-center justify-center rounded-full bg-green-100 text-green-800">
          <svg aria-hidden="true" viewBox="0 0 24 24" className="h-8 w-8" fill="none" stroke="currentColor">
            <path strokeLinecap="round" strokeLinejoin="round" strokeWidth="2.5" d="M5 12.5l4.5 4.5L19 7.5" />
          </svg>
        </div>
        <h1 className="mt-5 font-serif text-4xl text-sage-900">Thank you for your order!</h1>
        <p className="mt-3 text-stone-700">
          Your payment went through and your order is confirmed. A confirmation email is on its way.
        </p>
        {reference ? (
          <p className="mt-5 text-stone-700">
            Order reference:{' '}
            <strong className="font-mono text-stone-900" data-testid="order-reference">
              {reference}
            </strong>
          </p>
        ) : null}

        <section aria-labelledby="next-heading" className="mt-10 text-left">
          <h2 id="next-heading" className="font-serif text-2xl text-sage-900">
            What's Next
          </h2>
          <ol className="mt-4 space-y-4">
            <li className="rounded-xl bg-sage-50 p-4">
              <h3 className="font-semibold text-stone-900">Processing</h3>
              <p className="mt-1 text-sm leading-6 text-stone-700">
                We are preparing your order for shipment. If you ordered while signed in, you can follow it under Order
                History in your account.
              </p>
            </li>
            <li className="rounded-xl bg-sage-50 p-4">
              <h3 className="font-semibold text-stone-900">Tracking</h3>
              <p className="mt-1 text-sm leading-6 text-stone-700">
                As soon as your parcel ships, we email you its tracking number so you can see where it is.
              </p>
            </li>
          </ol>
        </section>

        <nav aria-label="After your order" className="mt-10 flex flex-wrap justify-center gap-3">
          <Link to="/" className="rounded-full bg-sage-700 px-6 py-3 font-medium text-white hover:bg-sage-800">
            Continue Shopping
          </Link>
          <a
            href={`mailto:${supportEmail}${reference ? `?subject=${encodeURIComponent(`Order ${reference}`)}` : ''}`}
            className="rounded-full border border-sage-300 px-6 py-3 font-medium text-sage-800 hover:bg-sage-50"
          >
            Contact Support
          </a>
        </nav>
      </div>
    </div>
  );
}
