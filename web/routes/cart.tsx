import { lazy, Suspense, useEffect, useMemo, useRef, useState } from 'react';
import { Link } from 'react-router';
import { centsToDollars } from '#common/money.ts';
import { previewCart } from '#web/storefront/cart/cart-items.ts';
import { CartLines } from '#web/storefront/cart/cart-lines.tsx';
import { CartSummary, type SummaryFigures } from '#web/storefront/cart/cart-summary.tsx';
import { useCartSync } from '#web/storefront/cart/cart-sync.ts';
import { DiscountCodeBox, DiscountRefusalPopup } from '#web/storefront/cart/discount-codes.tsx';
import { CartSkeleton, EmptyCart } from '#web/storefront/cart/empty-cart.tsx';
import { originOf, pageMeta } from '#web/storefront/seo/page-meta.ts';
import { adCartProperties, sendAdEvent } from '#web/storefront/tracking/ad-tracker.ts';
import type { Route } from './+types/cart.ts';

// The checkout (card form included) loads when the cart has lines, not with the page.
const loadCheckoutModal = () => import('#web/storefront/checkout/checkout-modal.tsx');
const CheckoutModal = lazy(() => loadCheckoutModal().then((module) => ({ default: module.CheckoutModal })));

export const meta: Route.MetaFunction = ({ matches }) =>
  pageMeta({
    title: 'Your Cart · Stillwater',
    description: 'The items in your Stillwater cart.',
    origin: originOf(matches),
    path: '/cart',
    noIndex: true,
  });

/**
 * The cart lives in this browser's storage, so the server sends the page's frame and a skeleton
 * of the same height; the lines render once the browser has read them.
 */
export default function Cart() {
  const cart = useCartSync();
  const { ready, items, codes, lines, breakdown, priced, syncError, refusal } = cart;
  const [open, setOpen] = useState(false);
  // The modal mounts on first use and stays, so that it can hand the focus back when it closes.
  const [modalUsed, setModalUsed] = useState(false);
  const checkoutButton = useRef<HTMLButtonElement>(null);

  const preview = useMemo(() => previewCart(items, lines), [items, lines]);
  const figures: SummaryFigures =
    priced && breakdown
      ? breakdown
      : { subtotal: preview.subtotal, discount: preview.discount, total: preview.total, processingFee: 0 };

  const empty = ready && items.length === 0;
  // Spec: an empty cart closes the modal.
  useEffect(() => {
    if (empty) setOpen(false);
  }, [empty]);
  useEffect(() => {
    if (items.length > 0) void loadCheckoutModal().catch(() => {});
  }, [items.length]);

  return (
    <div className="mx-auto min-h-[32rem] max-w-7xl px-4 py-10 sm:px-6">
      <h1 className="font-serif text-4xl text-sage-900">Your Cart</h1>
      <div className="mt-8">
        {!ready ? (
          <CartSkeleton />
        ) : empty ? (
          <EmptyCart />
        ) : (
          <div className="grid items-start gap-8 lg:grid-cols-[1fr_22rem]">
            <section aria-labelledby="items-heading">
              <h2 id="items-heading" className="sr-only">
                Items
              </h2>
              <CartLines lines={preview.lines} />
              <Link to="/products" className="mt-6 inline-block font-medium text-sage-700 hover:underline">
                Continue shopping
              </Link>
            </section>
            <CartSummary
              figures={figures}
              priced={priced}
              syncError={syncError}
              checkoutButton={checkoutButton}
              onCheckout={() => {
                setModalUsed(true);
                setOpen(true);
                sendAdEvent('InitiateCheckout', adCartProperties(items, centsToDollars(figures.total)));
              }}
            >
              <DiscountCodeBox codes={codes} />
            </CartSummary>
          </div>
        )}
      </div>
      <DiscountRefusalPopup refusal={refusal} />
      {modalUsed ? (
        <Suspense fallback={null}>
          <CheckoutModal open={open && !empty} onClose={() => setOpen(false)} returnFocusTo={checkoutButton} />
        </Suspense>
      ) : null}
    </div>
  );
}
