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

const text = (max: number) => z.string().check(z.trim(), z.maxLength(max));

/** A cart line as the browser sends it: the server prices it from the database. */
export const CheckoutItem = z.object({
  /** The product's id or slug. */
  id: z.string().check(z.trim(), z.minLength(1), z.maxLength(200)),
  quantity: z.int().check(z.gte(1), z.lte(99)),
  skuId: z.optional(z.nullable(text(100))),
  skuAttr: z.optional(z.nullable(text(500))),
});
export type CheckoutItem = z.infer<typeof CheckoutItem>;

/**
 * An address while the shopper types it: every field may still be empty. The server decides
 * whether it is complete (common/checkout-rules.ts).
 */
export const DraftAddress = z.object({
  name: z._default(text(200), ''),
  street: z._default(text(200), ''),
  line2: z._default(text(200), ''),
  city: z._default(text(100), ''),
  state: z._default(text(100), ''),
  zipCode: z._default(text(20), ''),
  country: z._default(text(2), 'US'),
});
export type DraftAddress = z.infer<typeof DraftAddress>;

export const syncReasons = ['subtotal_or_codes', 'shipping_update', 'billing_update', 'email_update'] as const;

/** The breakdown as the storefront reads it: the spec names the fee both fee and processingFee. */
export const CheckoutBreakdown = z.extend(PaymentBreakdown, { fee: z.int() });
export type CheckoutBreakdown = z.infer<typeof CheckoutBreakdown>;

export const PricedCartLine = z.object({
  key: z.string(),
  unitPrice: z.int(),
  originalUnitPrice: z.int(),
  lineTotal: z.int(),
  appliedCode: z.nullable(z.string()),
});

export const createOrUpdatePaymentIntent = {
  method: 'POST',
  path: '/api/create-or-update-payment-intent',
  body: z.object({
    items: z.array(CheckoutItem).check(z.minLength(1), z.maxLength(50)),
    email: z._default(text(254), ''),
    shipping: z.optional(z.nullable(DraftAddress)),
    billing: z.optional(z.nullable(DraftAddress)),
    newsletter: z._default(z.boolean(), false),
    discountCodes: z._default(z.array(text(40)).check(z.maxLength(10)), []),
    metaVersion: z.literal(2),
    reason: z.optional(z.enum(syncReasons)),
    paymentIntentId: z.optional(z.nullable(z.string().check(z.minLength(1), z.maxLength(255)))),
  }),
  response: z.object({
    id: z.string(),
    clientSecret: z.string(),
    breakdown: CheckoutBreakdown,
    lines: z.array(PricedCartLine),
    /** Codes that lower no line's price, each with the spec's message. */
    refusedCodes: z.array(z.object({ code: z.string(), message: z.string() })),
  }),
} as const;

export const retrievePaymentIntent = {
  method: 'GET',
  path: '/api/retrieve-payment-intent',
  query: z.object({ clientSecret: z.string().check(z.minLength(1), z.maxLength(255)) }),
  response: z.object({ breakdown: CheckoutBreakdown }),
} as const;

/** The built-in test processor's card form: what Stripe.js does with Stripe, against the shop itself. */
export const confirmTestCard = {
  method: 'POST',
  path: '/api/payments/test-card/confirm',
  body: z.object({
    clientSecret: z.string().check(z.minLength(1), z.maxLength(255)),
    card: z.object({
      number: z.string().check(z.maxLength(30)),
      expMonth: z.int().check(z.gte(1), z.lte(12)),
      expYear: z.int().check(z.gte(2000), z.lte(2100)),
      cvc: z.string().check(z.maxLength(4)),
      name: text(200),
    }),
  }),
  response: z.object({ status: z.string() }),
} as const;

/** After the card is authorised: the order is made (once), its stock taken, the payment captured. */
export const completeCheckout = {
  method: 'POST',
  path: '/api/checkout/complete',
  body: z.object({ paymentIntentId: z.string().check(z.minLength(1), z.maxLength(255)) }),
  response: z.object({
    /** The public reference shown on /success (?session_id=…). */
    reference: z.string(),
    orderNumber: z.string(),
    total: z.int(),
  }),
} as const;
