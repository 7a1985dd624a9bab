/** Money is integer cents everywhere but at the edge of the UI (spec: prices shown divided by 100, two decimals). */

/** Cents to a dollar amount, e.g. 7799 -> 77.99. */
export function centsToDollars(cents: number): number {
  return Math.round(cents) / 100;
}

/** A dollar amount to whole cents, rounding half away from zero at the cent (e.g. 129.98 -> 12998). */
export function dollarsToCents(dollars: number): number {
  const cents = Math.round(Math.abs(dollars) * 100 + Number.EPSILON * 100);
  return dollars < 0 ? -cents : cents;
}

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });

/** Cents as shown to shoppers, e.g. 7799 -> '$77.99'. */
export function formatCents(cents: number): string {
  return usd.format(centsToDollars(cents));
}

/** The price a shopper pays per unit: the sale price when it is set and lower, else the price. */
export function effectivePrice(price: number, salePrice: number | null | undefined): number {
  return salePrice != null && salePrice < price ? salePrice : price;
}

/** Sale badge percent: round((price - sale) / price * 100); 0 when there is no real sale. */
export function salePercent(price: number, salePrice: number | null | undefined): number {
  if (salePrice == null || price <= 0 || salePrice >= price) return 0;
  return Math.round(((price - salePrice) / price) * 100);
}
