/**
 * The sales tab's rules (back-office spec 3, 5 and 9), shared by the server's contract and the
 * admin form. Plain constants: the browser imports this file, so it carries no zod.
 */

/** Spec 9: the sales tab reads its figures over 30 days (GET /api/sales?dateRange=30d). */
export const DEFAULT_SALES_RANGE = '30d';
export const SALE_NAME_MAX = 120;
export const SALE_DESCRIPTION_MAX = 1000;
/** Coupon codes as shoppers type them: letters, digits, - and _, 2 to 40 (upper-cased on the way in). */
export const COUPON_CODE_PATTERN = /^[A-Z0-9][A-Z0-9_-]{1,39}$/;
export const COUPON_CODE_MAX = 40;
/** A bound on money fields (cents): 1,000,000 dollars, far above anything this shop sells. */
export const SALE_MONEY_MAX = 100_000_000;

/** The spec's labels of the sale types and discount types, as the form and the table show them. */
export const saleTypeLabels = {
  global: 'Global (every product)',
  category: 'Category',
  product: 'Product',
  sku: 'SKU (one variant)',
} as const;
export const discountTypeLabels = {
  percentage: 'Percentage off',
  fixed_amount: 'Fixed amount off',
  fixed_price: 'Fixed price',
} as const;
