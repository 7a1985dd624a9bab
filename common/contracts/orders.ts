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

/** An order as its customer sees it in the account's Order History (amounts in cents). */
export const CustomerOrder = z.object({
  id: z.string(),
  orderNumber: z.string(),
  createdAt: z.string(),
  total: z.int(),
  status: OrderStatus,
  items: z.array(
    z.object({
      id: z.string(),
      productName: z.string(),
      quantity: z.int(),
      price: z.int(),
      variantName: z.nullable(z.string()),
    }),
  ),
});
export type CustomerOrder = z.infer<typeof CustomerOrder>;

export const listMyOrders = {
  method: 'GET',
  path: '/api/orders/user',
  response: z.object({ orders: z.array(CustomerOrder) }),
} as const;

export const hasPurchased = {
  method: 'GET',
  path: '/api/orders/user/product/:productId/purchased',
  params: z.object({ productId: z.string().check(z.minLength(1), z.maxLength(200)) }),
  response: z.object({ purchased: z.boolean() }),
} as const;
