import { formatCents } from '#common/money.ts';

/** The announcement bar; its height is fixed so the page below never moves (spec: reserved as spacing). */
export function Banner({ freeShippingThreshold }: { freeShippingThreshold: number }) {
  return (
    // A landmark of its own, so that every part of the page sits in one (screen readers list them).
    <aside
      aria-label="Announcement"
      className="flex h-9 items-center justify-center overflow-hidden bg-sage-700 px-4 text-center text-xs font-medium tracking-wide text-white sm:text-sm"
    >
      <p className="truncate">
        Free US shipping on orders over {formatCents(freeShippingThreshold).replace('.00', '')} · 30-day returns
      </p>
    </aside>
  );
}
