import * as z from 'zod/mini';
import { dashboardRanges } from '../../dashboard-rules.ts';
import {
  COUPON_CODE_MAX,
  COUPON_CODE_PATTERN,
  DEFAULT_SALES_RANGE,
  SALE_MONEY_MAX as MONEY_MAX,
  SALE_DESCRIPTION_MAX,
  SALE_NAME_MAX,
} from '../../sale-rules.ts';
import { DiscountType, discountTypes, SaleType, saleTypes } from '../marketing.ts';
import { Pagination } from '../pagination.ts';

/** A sale's id: 16 hex characters (the ids the server makes). */
export const SaleId = z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be a sale id (16 hex characters)'));
export const SaleIdParam = z.object({ id: SaleId });

/** A sale as the sales tab reads it (spec 3, Sale), with its usage and the revenue it brought in the range. */
export const AdminSale = z.object({
  id: z.string(),
  /** The spec's name for the id. */
  _id: z.string(),
  name: z.string(),
  description: z.string(),
  type: SaleType,
  /** The category id, product id or SKU id the sale applies to; null for a global sale. */
  targetId: z.nullable(z.string()),
  /** What the target is called (the category's name, the product's title, the SKU's name); null when it is gone. */
  targetName: z.nullable(z.string()),
  discountType: DiscountType,
  /** A percentage (0-100) for 'percentage'; integer cents for 'fixed_amount' and 'fixed_price'. */
  discountValue: z.int(),
  couponCode: z.nullable(z.string()),
  isFlashSale: z.boolean(),
  startDate: z.string(),
  endDate: z.string(),
  usageCount: z.int(),
  /** Null: unlimited. */
  usageLimit: z.nullable(z.int()),
  /** Integer cents. */
  minimumPurchase: z.int(),
  active: z.boolean(),
  /** Paid orders placed in the range that used the sale, and their totals (cents). */
  orders: z.int(),
  revenue: z.int(),
  createdAt: z.string(),
});
export type AdminSale = z.infer<typeof AdminSale>;

/** The spec's client asks for the sales without a page: up to 100 then; the tab pages by 10 as the other lists do. */
export const SALES_PAGE_MAX = 100;

export const listAdminSales = {
  method: 'GET',
  path: '/api/sales',
  query: z.object({
    dateRange: z._default(z.enum(dashboardRanges), DEFAULT_SALES_RANGE),
    page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1),
    limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(SALES_PAGE_MAX)), SALES_PAGE_MAX),
  }),
  response: z.object({ sales: z.array(AdminSale), pagination: Pagination, dateRange: z.enum(dashboardRanges) }),
} as const;

const Instant = z.pipe(
  z.iso.datetime({ offset: true, error: 'must be a date and time (ISO 8601)' }),
  z.transform((value) => new Date(value)),
);

/**
 * Spec 5 (create-sale form): name, sale type, discount type, discount value (≥ 0), start and end
 * dates required, end after start; usage limit ≥ 1; minimum purchase ≥ 0 (cents here: the form
 * edits dollars with step 0.01 and converts). A category, product or SKU sale names its target; a
 * percentage is at most 100; a coupon code is trimmed and upper-cased, empty meaning none.
 */
export const SaleInput = z
  .object({
    name: z
      .string()
      .check(
        z.trim(),
        z.minLength(1, 'Sale name is required'),
        z.maxLength(SALE_NAME_MAX, `must be at most ${SALE_NAME_MAX} characters`),
      ),
    description: z._default(
      z
        .string()
        .check(z.trim(), z.maxLength(SALE_DESCRIPTION_MAX, `must be at most ${SALE_DESCRIPTION_MAX} characters`)),
      '',
    ),
    type: z.enum(saleTypes, 'must be one of global, category, product, sku'),
    targetId: z._default(z.nullable(z.string().check(z.trim(), z.maxLength(200))), null),
    discountType: z.enum(discountTypes, 'must be one of percentage, fixed_amount, fixed_price'),
    discountValue: z.number().check(z.int('must be a whole number'), z.gte(0, 'must be 0 or more'), z.lte(MONEY_MAX)),
    couponCode: z._default(
      z.nullable(
        z.pipe(
          z
            .string()
            .check(
              z.trim(),
              z.toUpperCase(),
              z.maxLength(COUPON_CODE_MAX, `must be at most ${COUPON_CODE_MAX} characters`),
            ),
          z.transform((code) => (code === '' ? null : code)),
        ),
      ),
      null,
    ),
    isFlashSale: z._default(z.boolean(), false),
    startDate: Instant,
    endDate: Instant,
    /** Null or absent: unlimited. */
    usageLimit: z._default(
      z.nullable(z.number().check(z.int('must be a whole number'), z.gte(1, 'must be at least 1'), z.lte(MONEY_MAX))),
      null,
    ),
    minimumPurchase: z._default(
      z.number().check(z.int('must be whole cents'), z.gte(0, 'must be 0 or more'), z.lte(MONEY_MAX)),
      0,
    ),
    /** A new sale starts switched off unless told otherwise: the admin activates it when ready. */
    active: z._default(z.boolean(), false),
  })
  .check(
    z.refine((sale) => sale.type === 'global' || (sale.targetId ?? '') !== '', {
      path: ['targetId'],
      error: 'A category, product or SKU sale needs its target',
    }),
    z.refine((sale) => sale.discountType !== 'percentage' || sale.discountValue <= 100, {
      path: ['discountValue'],
      error: 'A percentage is at most 100',
    }),
    z.refine((sale) => sale.couponCode === null || COUPON_CODE_PATTERN.test(sale.couponCode), {
      path: ['couponCode'],
      error: 'A coupon code is 2 to 40 letters, digits, - or _',
    }),
    z.refine((sale) => sale.endDate > sale.startDate, {
      path: ['endDate'],
      error: 'The end date must be after the start date',
    }),
    z.refine((sale) => !sale.isFlashSale || sale.type === 'product', {
      path: ['isFlashSale'],
      error: 'A flash sale is on one product',
    }),
    // The product page's countdown promises its price to everyone: a code or a minimum purchase
    // would make that promise false for most carts.
    z.refine((sale) => !sale.isFlashSale || (sale.couponCode === null && sale.minimumPurchase === 0), {
      path: ['isFlashSale'],
      error: 'A flash sale applies by itself: no coupon code and no minimum purchase',
    }),
  );
export type SaleInput = z.output<typeof SaleInput>;
/** What the form sends (dates as ISO strings). */
export type SaleInputBody = z.input<typeof SaleInput>;

const SaleChanged = z.object({ message: z.string(), sale: AdminSale });

export const createSale = {
  method: 'POST',
  path: '/api/sales',
  body: SaleInput,
  response: SaleChanged,
} as const;

/**
 * Edit: the whole sale again, as the form holds it. Its usage is the orders' to count, and
 * whether it is on is Activate's and Deactivate's to change: an edit leaves both as they are.
 */
export const updateSale = {
  method: 'PATCH',
  path: '/api/sales/:id',
  params: SaleIdParam,
  body: SaleInput,
  response: SaleChanged,
} as const;

export const activateSale = {
  method: 'PATCH',
  path: '/api/sales/:id/activate',
  params: SaleIdParam,
  response: SaleChanged,
} as const;

export const deactivateSale = {
  method: 'PATCH',
  path: '/api/sales/:id/deactivate',
  params: SaleIdParam,
  response: SaleChanged,
} as const;

export const deleteSale = {
  method: 'DELETE',
  path: '/api/sales/:id',
  params: SaleIdParam,
  response: z.object({ message: z.string() }),
} as const;

/** What a category, product or SKU sale may target, for the form's picker. */
export const SaleTarget = z.object({ id: z.string(), name: z.string() });
export type SaleTarget = z.infer<typeof SaleTarget>;
export const SALE_TARGETS_LIMIT = 50;

export const listSaleTargets = {
  method: 'GET',
  path: '/api/sales/targets',
  query: z.object({
    type: z.enum(['category', 'product', 'sku']),
    search: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  }),
  response: z.object({ targets: z.array(SaleTarget) }),
} as const;
