import { z } from 'zod';

/** Order statuses, moved only by fulfilment (see server/features/orders). */
export const orderStatuses = ['pending', 'processing', 'shipped', 'delivered', 'completed', 'cancelled'] as const;
export const OrderStatus = z.enum(orderStatuses);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const Address = z.object({
  name: z.string().trim().min(1).max(200),
  street: z.string().trim().min(1).max(200),
  line2: z.string().trim().max(200).optional(),
  city: z.string().trim().min(1).max(100),
  state: z.string().trim().max(100),
  zipCode: z.string().trim().min(1).max(20),
  /** ISO 3166-1 alpha-2 country code. */
  country: z.string().trim().length(2),
});
export type Address = z.infer<typeof Address>;
