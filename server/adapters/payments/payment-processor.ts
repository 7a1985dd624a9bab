import { createHash, timingSafeEqual } from 'node:crypto';

/** A provider payment's status: Stripe's PaymentIntent statuses, which the built-in processor uses too. */
export const providerPaymentStatuses = [
  'requires_payment_method',
  'requires_confirmation',
  'requires_action',
  'processing',
  'requires_capture',
  'canceled',
  'succeeded',
] as const;
export type ProviderPaymentStatus = (typeof providerPaymentStatuses)[number];

/** A payment as the provider holds it. Amounts are integer cents. */
export type ProviderPayment = {
  /** The provider's id: `pi_…` on Stripe, `pi_local_…` on the built-in processor. */
  id: string;
  /** What the browser confirms the payment with (`<id>_secret_…`). Not a server secret, but never logged. */
  clientSecret: string;
  amount: number;
  currency: 'usd';
  status: ProviderPaymentStatus;
  /** Brand and last four digits of the card that authorised it, when known. */
  card: { brand: string; last4: string } | null;
  /** The last failed attempt; `code` is the provider's `decline_code ?? code` (see common/payment-errors.ts). */
  failure: { code: string; message: string } | null;
  metadata: Record<string, string>;
};

export type PaymentInput = {
  /** Integer cents, at least 50 (the providers' minimum for USD). */
  amount: number;
  /** Where the provider sends its receipt; null leaves it unset (or unchanged on update). */
  email: string | null;
  /**
   * Our own references (order, cart): at most 50 keys of up to 40 characters, values up to 500.
   * On update the keys given are set and the others kept, as on Stripe; an empty value removes a key.
   */
  metadata: Record<string, string>;
  /** Replays the first result when the same request is repeated (a retry); the same key with other parameters is refused. */
  idempotencyKey: string;
};

export type PaymentEvent = {
  /** The provider's event id: events can come more than once and out of order, so dedupe on it. */
  id: string;
  type:
    | 'payment_authorized'
    | 'payment_succeeded'
    | 'payment_failed'
    | 'payment_canceled'
    | 'payment_refunded'
    | 'other';
  /** The payment as the event carried it (null for refunds and other events). */
  payment: ProviderPayment | null;
  /** The payment the event concerns, when it concerns one. */
  paymentId: string | null;
  /** For `payment_refunded`: how much has been refunded so far, and whether that is all of it. */
  refund: { amount: number; full: boolean } | null;
};

/**
 * Card payments, authorised first and captured later: the shop creates a payment for the cart,
 * keeps its amount in step with the cart, lets the browser confirm it (which authorises the card),
 * captures it once the order's stock is taken, or cancels it (voiding the authorisation).
 */
export interface PaymentProcessor {
  readonly name: 'local' | 'stripe';
  /** What the browser needs to show the payment form: no secret. */
  readonly browserConfig: { provider: 'local' } | { provider: 'stripe'; publishableKey: string };
  /** Creates a payment in USD that, once confirmed, is only authorised (manual capture). */
  create(input: PaymentInput): Promise<ProviderPayment>;
  /** Changes the amount, email or metadata of a payment not yet authorised. */
  update(id: string, input: PaymentInput): Promise<ProviderPayment>;
  retrieve(id: string): Promise<ProviderPayment>;
  /** Captures an authorised payment (status requires_capture → succeeded); once only, even when called concurrently. */
  capture(id: string, idempotencyKey: string): Promise<ProviderPayment>;
  /** Cancels a payment that is not final yet, voiding its authorisation if it has one. */
  cancel(id: string, idempotencyKey: string): Promise<ProviderPayment>;
  /**
   * Verifies and parses a webhook delivery (the raw body bytes as received, and the signature
   * header); throws PaymentWebhookError naming the problem. The built-in processor sends none.
   */
  parseWebhook(rawBody: Buffer, signature: string | undefined): Promise<PaymentEvent>;
}

/** What kind of failure a provider reported, for the caller to branch on. */
export type PaymentErrorKind =
  /** The card was refused (a decline, a card detail, a non-test card in test mode): show it to the shopper. */
  | 'card'
  /** Our request was wrong (a parameter, an amount below the minimum). */
  | 'invalid_request'
  | 'not_found'
  /** The payment's status does not allow it (capturing twice, updating after authorisation). */
  | 'state'
  /** An idempotency key reused with other parameters, or in use by a concurrent request. */
  | 'idempotency'
  /** The provider refused our credentials. */
  | 'authentication'
  | 'rate_limit'
  /** The provider could not be reached or failed: the request may be retried with the same idempotency key. */
  | 'unavailable';

/**
 * A provider's refusal or failure. The message is the provider's own words (or the built-in
 * processor's); it never holds card data or secrets.
 */
export class PaymentProviderError extends Error {
  readonly kind: PaymentErrorKind;
  /** The provider's error code, e.g. 'card_declined', 'payment_intent_unexpected_state', 'resource_missing'. */
  readonly code: string;
  /** For declines, the reason the card was declined, e.g. 'generic_decline'. */
  readonly declineCode: string | null;
  constructor(kind: PaymentErrorKind, code: string, message: string, declineCode: string | null = null) {
    super(message);
    this.name = 'PaymentProviderError';
    this.kind = kind;
    this.code = code;
    this.declineCode = declineCode;
  }
  /** The code that `paymentErrorMessage` looks up. */
  get failureCode(): string {
    return this.declineCode ?? this.code;
  }
}

export type PaymentWebhookProblem =
  | 'missing_signature'
  | 'malformed_signature'
  | 'bad_signature'
  | 'stale_timestamp'
  | 'malformed_body'
  | 'not_configured'
  | 'unsupported';

/** A webhook delivery that is not accepted: answer it with 400 and do not act on it. */
export class PaymentWebhookError extends Error {
  readonly problem: PaymentWebhookProblem;
  constructor(problem: PaymentWebhookProblem, message: string) {
    super(message);
    this.name = 'PaymentWebhookError';
    this.problem = problem;
  }
}

/** The payment id in a client secret (`<id>_secret_<random>`), or null when it has none. */
export function paymentIdFromClientSecret(clientSecret: string): string | null {
  const at = clientSecret.indexOf('_secret_');
  return at > 0 ? clientSecret.slice(0, at) : null;
}

/** Whether a client secret from the browser is the payment's own, compared in constant time. */
export function isClientSecretOf(payment: Pick<ProviderPayment, 'clientSecret'>, clientSecret: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return payment.clientSecret.length > 0 && timingSafeEqual(digest(payment.clientSecret), digest(clientSecret));
}
