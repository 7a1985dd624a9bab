import type Stripe from 'stripe';
import {
  type PaymentEvent,
  type PaymentProcessor,
  PaymentProviderError,
  PaymentWebhookError,
  type PaymentWebhookProblem,
  type ProviderPayment,
  type ProviderPaymentStatus,
  providerPaymentStatuses,
} from './payment-processor.ts';

/** The API version this adapter is written and tested for (stripe 23.1.0's own); changing it is a deliberate upgrade. */
export const STRIPE_API_VERSION = '2026-10-28.endive';

/** Stripe's default: a delivery older than this is refused, so a captured one cannot be replayed later. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

export type StripeProcessorOptions = {
  secretKey: string;
  publishableKey: string;
  /** The endpoint's signing secret (`whsec_…`); without it every webhook is refused. */
  webhookSecret: string | null;
  /** Where the API is: Stripe itself unless set (tests point it at the local stand-in). */
  apiBase?: { host: string; port: number; protocol: 'http' | 'https' };
  /** One attempt's limit; the SDK retries a failed attempt once, with the same idempotency key. Default 20 s. */
  timeoutMs?: number;
  /**
   * The keys to use now, read at each call (the ones saved in the settings, so a new pair applies
   * without a restart); null or unset: `secretKey` and `publishableKey`.
   */
  currentKeys?: () => { secretKey: string; publishableKey: string } | null;
};

// latest_charge carries the card's brand and last four digits.
const EXPAND = ['latest_charge'];

type StripeSdk = typeof import('stripe').default;

/**
 * The SDK, loaded on the first payment call instead of at start: its ~220 modules took 150 ms
 * of every cold start (issue 15), and most starts serve pages long before any payment.
 */
let sdk: Promise<StripeSdk> | null = null;
function loadStripeSdk(): Promise<StripeSdk> {
  sdk ??= import('stripe').then((module) => module.default);
  return sdk;
}

/** Card payments through Stripe PaymentIntents with manual capture. The only production file that imports `stripe`. */
export function createStripeProcessor({
  secretKey,
  publishableKey,
  webhookSecret,
  apiBase,
  timeoutMs = 20_000,
  currentKeys = () => null,
}: StripeProcessorOptions): PaymentProcessor & { readonly name: 'stripe' } {
  const keys = () => currentKeys() ?? { secretKey, publishableKey };
  let client: Promise<{ Stripe: StripeSdk; stripe: Stripe }> | null = null;
  const connect = () => {
    client ??= loadStripeSdk().then((Stripe) => ({
      Stripe,
      stripe: new Stripe(secretKey, {
        apiVersion: STRIPE_API_VERSION,
        maxNetworkRetries: 1,
        timeout: timeoutMs,
        telemetry: false,
        appInfo: { name: 'Stillwater' },
        ...(apiBase ?? {}),
      }),
    }));
    return client;
  };

  /** Runs one API call with the secret key of the moment, turning the SDK's errors into ours. */
  async function call(
    request: (stripe: Stripe, apiKey: string) => Promise<Stripe.PaymentIntent>,
  ): Promise<ProviderPayment> {
    const { Stripe, stripe } = await connect();
    const apiKey = keys().secretKey;
    try {
      return toProviderPayment(await request(stripe, apiKey));
    } catch (error) {
      throw toProviderError(Stripe, error, apiKey);
    }
  }

  return {
    name: 'stripe',
    // The publishable key of the moment each time the pages read it.
    browserConfig: {
      provider: 'stripe',
      get publishableKey() {
        return keys().publishableKey;
      },
    },

    create({ amount, email, metadata, idempotencyKey }) {
      return call((stripe, apiKey) =>
        stripe.paymentIntents.create(
          {
            amount,
            currency: 'usd',
            capture_method: 'manual',
            automatic_payment_methods: { enabled: true },
            metadata,
            ...(email ? { receipt_email: email } : {}),
            expand: EXPAND,
          },
          { idempotencyKey, apiKey },
        ),
      );
    },

    update(id, { amount, email, metadata, idempotencyKey }) {
      return call((stripe, apiKey) =>
        stripe.paymentIntents.update(
          id,
          { amount, metadata, ...(email ? { receipt_email: email } : {}), expand: EXPAND },
          { idempotencyKey, apiKey },
        ),
      );
    },

    retrieve(id) {
      return call((stripe, apiKey) => stripe.paymentIntents.retrieve(id, { expand: EXPAND }, { apiKey }));
    },

    capture(id, idempotencyKey) {
      return call((stripe, apiKey) =>
        stripe.paymentIntents.capture(id, { expand: EXPAND }, { idempotencyKey, apiKey }),
      );
    },

    cancel(id, idempotencyKey) {
      return call((stripe, apiKey) => stripe.paymentIntents.cancel(id, { expand: EXPAND }, { idempotencyKey, apiKey }));
    },

    async parseWebhook(rawBody, signature) {
      if (!webhookSecret) {
        throw new PaymentWebhookError(
          'not_configured',
          'Stripe webhooks are refused: STRIPE_WEBHOOK_SECRET is not set.',
        );
      }
      if (!signature) throw new PaymentWebhookError('missing_signature', 'The Stripe-Signature header is missing.');
      if (!isSignatureHeader(signature)) {
        throw new PaymentWebhookError(
          'malformed_signature',
          'The Stripe-Signature header has no t=<timestamp> and v1=<signature>.',
        );
      }
      const { Stripe, stripe } = await connect();
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(rawBody, signature, webhookSecret, WEBHOOK_TOLERANCE_SECONDS);
      } catch (error) {
        throw toWebhookError(Stripe, error);
      }
      return toPaymentEvent(event);
    },
  };
}

/** What Stripe's event means for us. Stripe event shapes are known here and nowhere else. */
export function toPaymentEvent(event: Stripe.Event): PaymentEvent {
  const base = { id: event.id, payment: null, paymentId: null, refund: null };
  switch (event.type) {
    case 'payment_intent.amount_capturable_updated':
      return intentEvent(event.id, 'payment_authorized', event.data.object);
    case 'payment_intent.succeeded':
      return intentEvent(event.id, 'payment_succeeded', event.data.object);
    case 'payment_intent.payment_failed':
      return intentEvent(event.id, 'payment_failed', event.data.object);
    case 'payment_intent.canceled':
      return intentEvent(event.id, 'payment_canceled', event.data.object);
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
      return {
        ...base,
        type: 'payment_refunded',
        paymentId: paymentId ?? null,
        refund: { amount: charge.amount_refunded, full: charge.refunded },
      };
    }
    default:
      return { ...base, type: 'other' };
  }
}

function intentEvent(id: string, type: PaymentEvent['type'], intent: Stripe.PaymentIntent): PaymentEvent {
  return { id, type, payment: toProviderPayment(intent), paymentId: intent.id, refund: null };
}

export function toProviderPayment(intent: Stripe.PaymentIntent): ProviderPayment {
  if (intent.currency !== 'usd') throw new Error(`PaymentIntent ${intent.id} is in ${intent.currency}, not usd`);
  if (!isKnownStatus(intent.status))
    throw new Error(`PaymentIntent ${intent.id} has an unknown status ${intent.status}`);
  const charge = typeof intent.latest_charge === 'object' ? intent.latest_charge : null;
  const card = charge?.payment_method_details?.card;
  const error = intent.last_payment_error;
  return {
    id: intent.id,
    clientSecret: intent.client_secret ?? '',
    amount: intent.amount,
    currency: 'usd',
    status: intent.status,
    card: card?.brand && card.last4 ? { brand: card.brand, last4: card.last4 } : null,
    failure: error
      ? { code: error.decline_code ?? error.code ?? 'payment_failed', message: error.message ?? '' }
      : null,
    metadata: { ...intent.metadata },
  };
}

function isKnownStatus(status: string): status is ProviderPaymentStatus {
  return (providerPaymentStatuses as readonly string[]).includes(status);
}

function toProviderError(Stripe: StripeSdk, error: unknown, secretKey: string): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  // Stripe masks most of a wrong key in its message; the rest of it goes too.
  const message = error.message.replaceAll(secretKey, '[key]');
  const code = error.code ?? error.rawType ?? 'api_error';
  const declineCode = error.decline_code ?? null;
  if (error instanceof Stripe.errors.StripeCardError)
    return new PaymentProviderError('card', code, message, declineCode);
  if (error instanceof Stripe.errors.StripeIdempotencyError)
    return new PaymentProviderError('idempotency', code, message);
  if (error instanceof Stripe.errors.StripeInvalidRequestError) {
    if (error.statusCode === 404 || error.code === 'resource_missing') {
      return new PaymentProviderError('not_found', code, message);
    }
    if (error.code === 'payment_intent_unexpected_state') return new PaymentProviderError('state', code, message);
    return new PaymentProviderError('invalid_request', code, message);
  }
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  ) {
    return new PaymentProviderError('authentication', code, message);
  }
  if (error instanceof Stripe.errors.StripeRateLimitError) return new PaymentProviderError('rate_limit', code, message);
  return new PaymentProviderError('unavailable', code, message);
}

/** `t=<unix seconds>,v1=<hex>[,v1=…][,v0=…]`: the shape, before the SDK checks the signature itself. */
function isSignatureHeader(header: string): boolean {
  const parts = header.split(',').map((part) => part.trim().split('='));
  return (
    parts.some(([key, value]) => key === 't' && /^\d+$/.test(value ?? '')) &&
    parts.some(([key, value]) => key === 'v1' && /^[0-9a-f]+$/i.test(value ?? ''))
  );
}

function toWebhookError(Stripe: StripeSdk, error: unknown): PaymentWebhookError {
  if (error instanceof SyntaxError) {
    return new PaymentWebhookError('malformed_body', 'The Stripe webhook body is not JSON.');
  }
  if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) {
    return new PaymentWebhookError('bad_signature', `The Stripe webhook could not be verified: ${String(error)}`);
  }
  const reason = error.message.split('\n')[0]?.trim() ?? '';
  const problem: PaymentWebhookProblem = /tolerance/i.test(reason)
    ? 'stale_timestamp'
    : /no stripe-signature header/i.test(reason)
      ? 'missing_signature'
      : /unable to extract|expected scheme/i.test(reason)
        ? 'malformed_signature'
        : 'bad_signature';
  return new PaymentWebhookError(problem, `Stripe webhook refused (${problem}): ${reason}`);
}
