import * as z from 'zod/mini';

/** The server's price breakdown of a cart, all integer cents. */
export const PaymentBreakdown = z.object({
  subtotal: z.int(),
  discount: z.int(),
  shipping: z.nullable(z.int()),
  tax: z.int(),
  processingFee: z.int(),
  total: z.int(),
  currency: z.literal('USD'),
});
export type PaymentBreakdown = z.infer<typeof PaymentBreakdown>;
