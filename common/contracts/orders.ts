import * as z from 'zod/mini';

/** Order statuses, moved only by fulfilment (see server/features/orders). */
export const orderStatuses = ['pending', 'processing', 'shipped', 'delivered', 'completed', 'cancelled'] as const;
export const OrderStatus = z.enum(orderStatuses);
export type OrderStatus = z.infer<typeof OrderStatus>;

const text = (min: number, max: number) => z.string().check(z.trim(), z.minLength(min), z.maxLength(max));

export const Address = z.object({
  name: text(1, 200),
  street: text(1, 200),
  line2: z.optional(text(0, 200)),
  city: text(1, 100),
  state: text(0, 100),
  zipCode: text(1, 20),
  /** ISO 3166-1 alpha-2 country code. */
  country: z.string().check(z.trim(), z.length(2)),
});
export type Address = z.infer<typeof Address>;
