import * as z from 'zod/mini';

export const saleTypes = ['global', 'category', 'product', 'sku'] as const;
export const SaleType = z.enum(saleTypes);

export const discountTypes = ['percentage', 'fixed_amount', 'fixed_price'] as const;
export const DiscountType = z.enum(discountTypes);

export const BestSeller = z.object({
  productId: z.string(),
  /** Units sold in paid orders of the last 30 days. */
  score: z.int(),
});
export type BestSeller = z.infer<typeof BestSeller>;

export const listBestSellers = {
  method: 'GET',
  path: '/api/marketing/best-sellers',
  query: z.object({ limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50) }),
  response: z.object({ success: z.literal(true), data: z.array(BestSeller) }),
} as const;

export const FlashSale = z.object({
  isActive: z.boolean(),
  /** When the sale ends, in milliseconds since the epoch. */
  endTime: z.int(),
  /** Integer cents. */
  originalPrice: z.int(),
  salePrice: z.int(),
  description: z.string(),
});
export type FlashSale = z.infer<typeof FlashSale>;

export const getFlashSale = {
  method: 'GET',
  path: '/api/marketing/flash-sales/:productId',
  params: z.object({ productId: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)) }),
  /** data is null when the product has no running flash sale. */
  response: z.object({ success: z.literal(true), data: z.nullable(FlashSale) }),
} as const;
