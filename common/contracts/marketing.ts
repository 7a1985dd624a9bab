import * as z from 'zod/mini';

export const saleTypes = ['global', 'category', 'product', 'sku'] as const;
export const SaleType = z.enum(saleTypes);

export const discountTypes = ['percentage', 'fixed_amount', 'fixed_price'] as const;
export const DiscountType = z.enum(discountTypes);
