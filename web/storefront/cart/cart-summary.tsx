import type { RefObject } from 'react';
import type { CheckoutBreakdown } from '#common/contracts/checkout.ts';
import { formatCents } from '#common/money.ts';

/** What the summary shows, in cents: the server's breakdown, or the cart's own preview. */
export type SummaryFigures = Pick<CheckoutBreakdown, 'subtotal' | 'discount' | 'total'> & {
  processingFee: number;
};

/**
 * Subtotal, discount and total; shipping and tax are computed at checkout, once there is an
 * address. `priced` says whether the figures are the server's for the cart as it is now.
 */
export function CartSummary({
  figures,
  priced,
  syncError,
  onCheckout,
  checkoutButton,
  children,
}: {
  figures: SummaryFigures;
  priced: boolean;
  syncError: string | null;
  onCheckout: () => void;
  checkoutButton: RefObject<HTMLButtonElement | null>;
  children?: React.ReactNode;
}) {
  const row = 'flex items-baseline justify-between gap-4 py-1.5';
  return (
    <section
      aria-labelledby="summary-heading"
      className="rounded-2xl border border-sage-100 bg-white p-6 shadow-sm"
      data-testid="cart-summary"
      data-priced={priced}
    >
      <h2 id="summary-heading" className="font-serif text-2xl text-sage-900">
        Order summary
      </h2>
      <div className="mt-5">{children}</div>
      <dl className="mt-6 border-t border-sage-100 pt-4 text-sm">
        <div className={row}>
          <dt className="text-stone-600">Subtotal</dt>
          <dd data-testid="summary-subtotal">{formatCents(figures.subtotal)}</dd>
        </div>
        {figures.discount > 0 ? (
          <div className={row}>
            <dt className="text-stone-600">Discount</dt>
            <dd className="font-medium text-green-800" data-testid="summary-discount">
              −{formatCents(figures.discount)}
            </dd>
          </div>
        ) : null}
        <div className={row}>
          <dt className="text-stone-600">Shipping</dt>
          <dd className="text-stone-600">Calculated at checkout</dd>
        </div>
        <div className={row}>
          <dt className="text-stone-600">Tax</dt>
          <dd className="text-stone-600">Calculated at checkout</dd>
        </div>
        {figures.processingFee > 0 ? (
          <div className={row}>
            <dt className="text-stone-600">Processing fee</dt>
            <dd>{formatCents(figures.processingFee)}</dd>
          </div>
        ) : null}
        <div className={`${row} mt-2 border-t border-sage-100 pt-3 text-base font-semibold text-sage-900`}>
          <dt>Total</dt>
          <dd data-testid="summary-total">{formatCents(figures.total)}</dd>
        </div>
      </dl>
      {syncError ? (
        <p role="status" className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900">
          {syncError}
        </p>
      ) : null}
      <button
        ref={checkoutButton}
        type="button"
        onClick={onCheckout}
        className="mt-6 w-full rounded-full bg-sage-700 px-6 py-3.5 font-medium text-white hover:bg-sage-800"
      >
        Checkout
      </button>
    </section>
  );
}
