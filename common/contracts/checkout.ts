import { z } from 'zod';

/** The server's price breakdown of a cart, all integer cents. */
export const PaymentBreakdown = z.object({
  subtotal: z.number().int(),
  discount: z.number().int(),
  shipping: z.number().int().nullable(),
  tax: z.number().int(),
  processingFee: z.number().int(),
  total: z.number().int(),
  currency: z.literal('USD'),
});
export type PaymentBreakdown = z.infer<typeof PaymentBreakdown>;
