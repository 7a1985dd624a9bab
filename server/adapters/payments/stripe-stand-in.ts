import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { findTestCard } from '#common/payment-errors.ts';
import { STRIPE_API_VERSION } from './stripe-processor.ts';

/**
 * A local stand-in of the part of Stripe's HTTP API the shop calls (PaymentIntents), for tests:
 * form-encoded requests with bracket notation, Bearer auth, idempotency keys, Stripe-shaped
 * errors. Stripe.js cannot be pointed at it, so tests play the browser's confirm step with
 * `confirmWithCard`, and Stripe's webhooks with `deliverWebhook`.
 */
export type StripeStandIn = {
  /** For `createStripeProcessor({ apiBase })`. */
  apiBase: { host: string; port: number; protocol: 'http' };
  /** Every request received, in order. */
  requests: RecordedRequest[];
  /** Confirms a payment intent with one of the test cards of common/payment-errors.ts, as Stripe does in test mode. */
  confirmWithCard(id: string, cardNumber: string): StandInIntent;
  /** Refunds a captured payment intent in full and returns its charge (the object of a `charge.refunded` event). */
  refund(id: string): StandInCharge;
  /** The payment intent as Stripe would put it in an event. */
  intent(id: string): StandInIntent;
  /** An event envelope in Stripe's shape. */
  event(type: string, object: unknown): StandInEvent;
  /** Posts a signed event to a webhook endpoint, as Stripe does; `timestamp` (Unix seconds) defaults to now. */
  deliverWebhook(
    url: string,
    event: StandInEvent,
    options: { secret: string; timestamp?: number },
  ): Promise<{ status: number; body: string }>;
  close(): Promise<void>;
};

export type RecordedRequest = {
  method: string;
  path: string;
  headers: Record<string, string | undefined>;
  params: FormObject;
};

export type StandInEvent = {
  id: string;
  object: 'event';
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
  data: { object: unknown };
};

export type StandInCharge = {
  id: string;
  object: 'charge';
  amount: number;
  amount_captured: number;
  amount_refunded: number;
  captured: boolean;
  created: number;
  currency: 'usd';
  failure_code: string | null;
  failure_message: string | null;
  livemode: false;
  metadata: Record<string, string>;
  paid: boolean;
  payment_intent: string;
  payment_method_details: {
    type: 'card';
    card: { brand: string; last4: string; exp_month: number; exp_year: number; funding: 'credit'; country: 'US' };
  };
  refunded: boolean;
  status: 'succeeded' | 'failed';
};

export type StandInIntent = {
  id: string;
  object: 'payment_intent';
  amount: number;
  amount_capturable: number;
  amount_received: number;
  automatic_payment_methods: { enabled: boolean } | null;
  canceled_at: number | null;
  cancellation_reason: string | null;
  capture_method: 'automatic' | 'manual';
  client_secret: string;
  confirmation_method: 'automatic';
  created: number;
  currency: 'usd';
  description: string | null;
  last_payment_error: {
    type: 'card_error';
    code: string;
    decline_code?: string;
    message: string;
    charge: string;
  } | null;
  latest_charge: string | StandInCharge | null;
  livemode: false;
  metadata: Record<string, string>;
  next_action: null;
  payment_method: string | null;
  payment_method_types: string[];
  receipt_email: string | null;
  status: string;
};

type FormValue = string | FormValue[] | FormObject;
type FormObject = { [key: string]: FormValue };
type Reply = { status: number; body: unknown };

const CONFIRMABLE = ['requires_payment_method', 'requires_confirmation', 'requires_action'];
const CANCELABLE = [...CONFIRMABLE, 'processing', 'requires_capture'];

/** A refusal in Stripe's shape; `stored` says whether an idempotency key keeps it (validation failures are not kept). */
class StandInError extends Error {
  readonly status: number;
  readonly error: Record<string, string>;
  readonly stored: boolean;
  constructor(status: number, error: Record<string, string>, stored = true) {
    super(error.message);
    this.status = status;
    this.error = error;
    this.stored = stored;
  }
}

export async function startStripeStandIn({ secretKey }: { secretKey: string }): Promise<StripeStandIn> {
  const intents = new Map<string, StandInIntent>();
  const charges = new Map<string, StandInCharge>();
  const idempotency = new Map<string, { fingerprint: string; reply: Reply }>();
  const requests: RecordedRequest[] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      send(res, { status: 500, body: { error: { type: 'api_error', message: String(error) } } });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const method = req.method ?? 'GET';
    const params = parseForm(method === 'GET' ? url.search.slice(1) : body);
    const headers = {
      authorization: req.headers.authorization,
      'idempotency-key': header(req, 'idempotency-key'),
      'stripe-version': header(req, 'stripe-version'),
      'content-type': header(req, 'content-type'),
    };
    requests.push({ method, path: url.pathname, headers, params });

    if (req.headers.authorization !== `Bearer ${secretKey}`) {
      const given = req.headers.authorization?.replace(/^Bearer /, '') ?? '';
      return send(res, {
        status: 401,
        body: {
          error: {
            type: 'invalid_request_error',
            message: given
              ? `Invalid API Key provided: ${given.slice(0, 8)}****${given.slice(-4)}`
              : 'You did not provide an API key.',
          },
        },
      });
    }

    const key = headers['idempotency-key'];
    const fingerprint = `${method} ${url.pathname}\n${body}`;
    if (method === 'POST' && key) {
      const first = idempotency.get(key);
      if (first && first.fingerprint !== fingerprint) {
        return send(res, {
          status: 400,
          body: {
            error: {
              type: 'idempotency_error',
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`,
            },
          },
        });
      }
      if (first) return send(res, first.reply, { 'idempotent-replayed': 'true' });
    }

    let reply: Reply;
    try {
      reply = { status: 200, body: route(method, url.pathname, params) };
    } catch (error) {
      if (!(error instanceof StandInError)) throw error;
      reply = { status: error.status, body: { error: error.error } };
      if (!error.stored) return send(res, reply);
    }
    if (method === 'POST' && key) idempotency.set(key, { fingerprint, reply });
    send(res, reply);
  }

  function route(method: string, path: string, params: FormObject): unknown {
    const match = /^\/v1\/payment_intents(?:\/([^/]+))?(?:\/(capture|cancel))?$/.exec(path);
    if (!match) throw unrecognised(method, path);
    const [, id, action] = match;
    const expand = Array.isArray(params.expand) ? params.expand.filter((v) => typeof v === 'string') : [];
    if (!id && method === 'POST') return render(createIntent(params), expand);
    if (!id) throw unrecognised(method, path);
    const intent = intents.get(id);
    if (!intent) {
      throw new StandInError(404, {
        type: 'invalid_request_error',
        code: 'resource_missing',
        param: 'intent',
        message: `No such payment_intent: '${id}'`,
      });
    }
    if (method === 'GET' && !action) return render(intent, expand);
    if (method !== 'POST') throw unrecognised(method, path);
    if (!action) return render(updateIntent(intent, params), expand);
    if (action === 'capture') return render(captureIntent(intent), expand);
    return render(cancelIntent(intent, params), expand);
  }

  function createIntent(params: FormObject): StandInIntent {
    const amount = amountParam(params.amount);
    if (params.currency !== 'usd') throw invalidParam('currency', 'This stand-in takes usd only.');
    const id = `pi_${randomBytes(12).toString('hex')}`;
    const automatic = params.automatic_payment_methods;
    const intent: StandInIntent = {
      id,
      object: 'payment_intent',
      amount,
      amount_capturable: 0,
      amount_received: 0,
      automatic_payment_methods:
        typeof automatic === 'object' && !Array.isArray(automatic) ? { enabled: automatic.enabled === 'true' } : null,
      canceled_at: null,
      cancellation_reason: null,
      capture_method: params.capture_method === 'manual' ? 'manual' : 'automatic',
      client_secret: `${id}_secret_${randomBytes(12).toString('hex')}`,
      confirmation_method: 'automatic',
      created: nowSeconds(),
      currency: 'usd',
      description: typeof params.description === 'string' ? params.description : null,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: mergeMetadata({}, params.metadata),
      next_action: null,
      payment_method: null,
      payment_method_types: ['card'],
      receipt_email: typeof params.receipt_email === 'string' ? params.receipt_email : null,
      status: 'requires_payment_method',
    };
    intents.set(id, intent);
    return intent;
  }

  function updateIntent(intent: StandInIntent, params: FormObject): StandInIntent {
    const amount = params.amount === undefined ? intent.amount : amountParam(params.amount);
    if (!CONFIRMABLE.includes(intent.status)) throw unexpectedState(intent, 'update', CONFIRMABLE);
    intent.amount = amount;
    intent.metadata = mergeMetadata(intent.metadata, params.metadata);
    if (typeof params.receipt_email === 'string') intent.receipt_email = params.receipt_email || null;
    return intent;
  }

  function captureIntent(intent: StandInIntent): StandInIntent {
    if (intent.status !== 'requires_capture') throw unexpectedState(intent, 'capture', ['requires_capture']);
    const charge = chargeOf(intent);
    charge.captured = true;
    charge.amount_captured = intent.amount;
    intent.status = 'succeeded';
    intent.amount_received = intent.amount;
    intent.amount_capturable = 0;
    return intent;
  }

  function cancelIntent(intent: StandInIntent, params: FormObject): StandInIntent {
    if (!CANCELABLE.includes(intent.status)) throw unexpectedState(intent, 'cancel', CANCELABLE);
    intent.status = 'canceled';
    intent.canceled_at = nowSeconds();
    intent.cancellation_reason = typeof params.cancellation_reason === 'string' ? params.cancellation_reason : null;
    intent.amount_capturable = 0;
    return intent;
  }

  function chargeOf(intent: StandInIntent): StandInCharge {
    const id = typeof intent.latest_charge === 'string' ? intent.latest_charge : null;
    const charge = id ? charges.get(id) : undefined;
    if (!charge) throw new Error(`payment intent ${intent.id} has no charge`);
    return charge;
  }

  function render(intent: StandInIntent, expand: FormValue[]): StandInIntent {
    const copy = structuredClone(intent);
    if (expand.includes('latest_charge') && typeof copy.latest_charge === 'string') {
      copy.latest_charge = structuredClone(charges.get(copy.latest_charge) ?? null);
    }
    return copy;
  }

  function known(id: string): StandInIntent {
    const intent = intents.get(id);
    if (!intent) throw new Error(`the stand-in has no payment intent ${id}`);
    return intent;
  }

  return {
    apiBase: { host: '127.0.0.1', port, protocol: 'http' },
    requests,

    confirmWithCard(id, cardNumber) {
      const intent = known(id);
      const card = findTestCard(cardNumber);
      if (!card) throw new Error(`${cardNumber} is not one of the test cards`);
      if (!CONFIRMABLE.includes(intent.status)) throw new Error(`payment intent ${id} is ${intent.status}`);
      const declined = card.outcome === 'declined';
      const charge: StandInCharge = {
        id: `ch_${randomBytes(12).toString('hex')}`,
        object: 'charge',
        amount: intent.amount,
        amount_captured: 0,
        amount_refunded: 0,
        captured: false,
        created: nowSeconds(),
        currency: 'usd',
        failure_code: declined ? card.code : null,
        failure_message: declined ? 'Your card was declined.' : null,
        livemode: false,
        metadata: {},
        paid: !declined,
        payment_intent: intent.id,
        payment_method_details: {
          type: 'card',
          card: {
            brand: card.brand,
            last4: card.number.slice(-4),
            exp_month: 12,
            exp_year: new Date().getUTCFullYear() + 3,
            funding: 'credit',
            country: 'US',
          },
        },
        refunded: false,
        status: declined ? 'failed' : 'succeeded',
      };
      charges.set(charge.id, charge);
      intent.latest_charge = charge.id;
      intent.payment_method = `pm_${randomBytes(12).toString('hex')}`;
      if (declined) {
        intent.status = 'requires_payment_method';
        intent.last_payment_error = {
          type: 'card_error',
          code: card.code ?? 'card_declined',
          ...(card.declineCode ? { decline_code: card.declineCode } : {}),
          message:
            card.declineCode === 'authentication_required'
              ? 'Your card was declined. This transaction requires authentication.'
              : 'Your card was declined.',
          charge: charge.id,
        };
      } else {
        intent.status = intent.capture_method === 'manual' ? 'requires_capture' : 'succeeded';
        intent.amount_capturable = intent.capture_method === 'manual' ? intent.amount : 0;
        intent.amount_received = intent.capture_method === 'manual' ? 0 : intent.amount;
        intent.last_payment_error = null;
      }
      return structuredClone(intent);
    },

    refund(id) {
      const intent = known(id);
      if (intent.status !== 'succeeded') throw new Error(`payment intent ${id} is ${intent.status}`);
      const charge = chargeOf(intent);
      charge.refunded = true;
      charge.amount_refunded = charge.amount_captured;
      return structuredClone(charge);
    },

    intent(id) {
      return structuredClone(known(id));
    },

    event(type, object) {
      return {
        id: `evt_${randomBytes(12).toString('hex')}`,
        object: 'event',
        api_version: STRIPE_API_VERSION,
        created: nowSeconds(),
        livemode: false,
        pending_webhooks: 1,
        request: { id: null, idempotency_key: null },
        type,
        data: { object },
      };
    },

    async deliverWebhook(url, event, { secret, timestamp }) {
      const { payload, header } = signedWebhook(event, { secret, timestamp });
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
        body: payload,
      });
      return { status: response.status, body: await response.text() };
    },

    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An event's body as Stripe sends it (pretty-printed JSON) and its Stripe-Signature header. */
export function signedWebhook(
  event: unknown,
  options: { secret: string; timestamp?: number },
): { payload: string; header: string } {
  const payload = JSON.stringify(event, null, 2);
  return { payload, header: signWebhookPayload(payload, options) };
}

/** The Stripe-Signature header for a body, made by the SDK's own test helper; `timestamp` (Unix seconds) defaults to now. */
export function signWebhookPayload(
  payload: string,
  { secret, timestamp }: { secret: string; timestamp?: number },
): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload,
    secret,
    ...(timestamp === undefined ? {} : { timestamp }),
  });
}

/**
 * Stripe's form encoding back into objects: `metadata[order_id]=1&expand[0]=latest_charge` →
 * `{ metadata: { order_id: '1' }, expand: ['latest_charge'] }`.
 */
export function parseForm(text: string): FormObject {
  const root: FormObject = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const keys = [...name.matchAll(/^[^[]+|\[([^\]]*)\]/g)].map((m) => m[1] ?? m[0]);
    if (keys.some((key) => key === '__proto__' || key === 'constructor' || key === 'prototype')) continue;
    let node: FormObject | FormValue[] = root;
    keys.forEach((key, i) => {
      const next = keys[i + 1];
      const slot = key === '' && Array.isArray(node) ? String(node.length) : key;
      const container = node as Record<string, FormValue>;
      if (next === undefined) {
        container[slot] = value;
        return;
      }
      const existing = container[slot];
      const child: FormObject | FormValue[] =
        typeof existing === 'object' ? existing : next === '' || /^\d+$/.test(next) ? [] : {};
      container[slot] = child;
      node = child;
    });
  }
  return root;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function send(res: ServerResponse, { status, body }: Reply, extraHeaders: Record<string, string> = {}) {
  res.writeHead(status, {
    'content-type': 'application/json',
    'request-id': `req_${randomBytes(8).toString('hex')}`,
    ...extraHeaders,
  });
  res.end(JSON.stringify(body));
}

function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

function amountParam(value: FormValue | undefined): number {
  if (value === undefined) {
    throw new StandInError(
      400,
      {
        type: 'invalid_request_error',
        code: 'parameter_missing',
        param: 'amount',
        message: 'Missing required param: amount.',
      },
      false,
    );
  }
  const amount = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(amount)) throw invalidParam('amount', 'Invalid integer: amount');
  if (amount < 50) {
    throw new StandInError(
      400,
      {
        type: 'invalid_request_error',
        code: 'amount_too_small',
        param: 'amount',
        message: 'Amount must be at least $0.50 usd',
      },
      false,
    );
  }
  return amount;
}

function mergeMetadata(current: Record<string, string>, given: FormValue | undefined): Record<string, string> {
  if (given === undefined) return current;
  if (typeof given !== 'object' || Array.isArray(given)) throw invalidParam('metadata', 'Invalid object: metadata');
  const merged = { ...current };
  for (const [key, value] of Object.entries(given)) {
    if (typeof value !== 'string') throw invalidParam(`metadata[${key}]`, 'Metadata values must be strings.');
    if (key.length > 40 || value.length > 500)
      throw invalidParam(`metadata[${key}]`, 'Metadata key or value too long.');
    if (value === '') delete merged[key];
    else merged[key] = value;
  }
  if (Object.keys(merged).length > 50) throw invalidParam('metadata', 'Metadata can have up to 50 keys.');
  return merged;
}

function invalidParam(param: string, message: string): StandInError {
  return new StandInError(400, { type: 'invalid_request_error', code: 'parameter_invalid', param, message }, false);
}

function unrecognised(method: string, path: string): StandInError {
  return new StandInError(
    404,
    { type: 'invalid_request_error', message: `Unrecognized request URL (${method}: ${path}).` },
    false,
  );
}

function unexpectedState(intent: StandInIntent, verb: string, allowed: string[]): StandInError {
  const done = verb === 'capture' ? 'captured' : verb === 'cancel' ? 'canceled' : 'updated';
  return new StandInError(400, {
    type: 'invalid_request_error',
    code: 'payment_intent_unexpected_state',
    message: `This PaymentIntent could not be ${done} because it has a status of ${intent.status}. Only a PaymentIntent with one of the following statuses may be ${done}: ${allowed.join(', ')}.`,
  });
}
