import type { Discount } from '#common/pricing.ts';
import type { sales } from '#server/features/marketing/marketing.tables.ts';

type Sale = typeof sales.$inferSelect;

/**
 * Whether a sale gives a unit price on the storefront by itself: switched on, without a code,
 * without a minimum purchase (a minimum is the cart's to judge), under its usage limit. Its dates
 * are judged apart (see runningAt), as the checkout's discountsFor judges them.
 */
function isAutomatic(sale: Sale): boolean {
  return (
    sale.active &&
    sale.couponCode === null &&
    sale.minimumPurchase <= 0 &&
    (sale.usageLimit === null || sale.usageCount < sale.usageLimit)
  );
}

/** The automatic sales running at `now`, as discounts for common/pricing.ts's shownSalePrice. */
export function automaticSalesAt(rows: readonly Sale[], now: Date): Discount[] {
  return rows
    .filter((sale) => isAutomatic(sale) && sale.startDate <= now && now < sale.endDate)
    .map((sale) => ({
      code: null,
      kind: sale.discountType,
      value: sale.discountValue,
      scope: { type: sale.type, targetId: sale.targetId },
      minimumPurchase: sale.minimumPurchase,
    }));
}

/**
 * When the storefront's prices next change by the calendar alone: the nearest start or end of an
 * automatic sale still ahead of `now` (epoch ms), or null when none is ahead.
 */
export function nextSaleChange(rows: readonly Sale[], now: Date): number | null {
  let next: number | null = null;
  for (const sale of rows) {
    if (!isAutomatic(sale)) continue;
    for (const at of [sale.startDate.getTime(), sale.endDate.getTime()]) {
      if (at > now.getTime() && (next === null || at < next)) next = at;
    }
  }
  return next;
}
