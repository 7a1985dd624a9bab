import { Link } from 'react-router';

/** Spec: the empty cart offers links to /, /new-releases and /wellness. */
export function EmptyCart() {
  const link = 'rounded-full border border-sage-300 px-5 py-2.5 text-sage-800 hover:bg-sage-50';
  return (
    <div className="rounded-2xl border border-dashed border-sage-200 bg-white px-6 py-14 text-center">
      <h2 className="text-xl font-semibold text-sage-900">Your cart is empty</h2>
      <p className="mt-2 text-stone-600">Find something calming for your desk or home.</p>
      <nav aria-label="Keep shopping" className="mt-6 flex flex-wrap justify-center gap-3">
        <Link
          to="/"
          className="rounded-full border border-sage-700 bg-sage-700 px-5 py-2.5 text-white hover:bg-sage-800"
        >
          Continue Shopping
        </Link>
        <Link to="/new-releases" className={link}>
          New Releases
        </Link>
        <Link to="/wellness" className={link}>
          Wellness
        </Link>
      </nav>
    </div>
  );
}

/** The cart before the browser has read it: the page keeps its height, so nothing jumps. */
export function CartSkeleton() {
  return (
    <div className="grid gap-8 lg:grid-cols-[1fr_22rem]" data-testid="cart-loading">
      <p role="status" className="sr-only">
        Loading your cart…
      </p>
      <div aria-hidden="true" className="space-y-4">
        {[0, 1].map((row) => (
          <div
            key={row}
            className="flex animate-pulse items-center gap-4 rounded-2xl bg-white p-4 motion-reduce:animate-none"
          >
            <div className="h-20 w-20 rounded-xl bg-sage-100" />
            <div className="flex-1 space-y-2">
              <div className="h-4 w-2/3 rounded bg-sage-100" />
              <div className="h-3 w-1/3 rounded bg-sage-50" />
            </div>
          </div>
        ))}
      </div>
      <div aria-hidden="true" className="h-[28rem] animate-pulse rounded-2xl bg-white motion-reduce:animate-none" />
    </div>
  );
}
