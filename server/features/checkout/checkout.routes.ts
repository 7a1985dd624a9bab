import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  completeCheckout,
  confirmTestCard,
  createOrUpdatePaymentIntent,
  retrievePaymentIntent,
} from '#common/contracts/checkout.ts';
import { PaymentProviderError, PaymentWebhookError } from '#server/adapters/payments/payment-processor.ts';
import { AppError, handleError } from '#server/http/errors.ts';
import type { CheckoutService } from './checkout.service.ts';

/** The provider's refusals as HTTP answers: a bad delivery is the sender's error, an outage ours to report. */
function providerErrors(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof PaymentWebhookError) {
      return handleError(new AppError(400, `webhook_${error.problem}`, error.message) as never, request, reply);
    }
    if (error instanceof PaymentProviderError) {
      request.log.warn({ kind: error.kind, code: error.code }, 'the payment provider refused a call');
      const answer =
        error.kind === 'unavailable' || error.kind === 'rate_limit' || error.kind === 'authentication'
          ? new AppError(503, 'payments_unavailable', 'Payments are unavailable right now. Please try again shortly.')
          : new AppError(409, error.code, error.message);
      return handleError(answer as never, request, reply);
    }
    return handleError(error as never, request, reply);
  });
}

/** The checkout's calls (spec section 7): behind CSRF and sessions, like every state-changing call. */
export const checkoutRoutes: FastifyPluginAsyncZod<{ checkout: CheckoutService }> = async (app, { checkout }) => {
  const tags = ['checkout'];
  providerErrors(app);

  app.addHook('onSend', async (_request, reply) => {
    // Payments are nobody else's: never kept by a browser or a proxy.
    reply.header('cache-control', 'private, no-store');
  });

  app.post(
    createOrUpdatePaymentIntent.path,
    {
      schema: { tags, body: createOrUpdatePaymentIntent.body, response: { 200: createOrUpdatePaymentIntent.response } },
    },
    async (request) => checkout.createOrUpdatePaymentIntent(request.body, request.user),
  );

  app.get(
    retrievePaymentIntent.path,
    { schema: { tags, querystring: retrievePaymentIntent.query, response: { 200: retrievePaymentIntent.response } } },
    async (request) => checkout.retrievePaymentIntent(request.query.clientSecret),
  );

  app.post(
    confirmTestCard.path,
    { schema: { tags, body: confirmTestCard.body, response: { 200: confirmTestCard.response } } },
    async (request) => checkout.confirmTestCard(request.body.clientSecret, request.body.card),
  );

  app.post(
    completeCheckout.path,
    { schema: { tags, body: completeCheckout.body, response: { 200: completeCheckout.response } } },
    async (request) => checkout.completePayment(request.body.paymentIntentId),
  );
};

/**
 * The payment provider's webhook: outside the CSRF scope (the provider signs its deliveries
 * instead), and read as raw bytes, because the signature covers the body exactly as sent.
 */
export const paymentWebhookRoutes: FastifyPluginAsyncZod<{ checkout: CheckoutService }> = async (app, { checkout }) => {
  providerErrors(app);
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_request, body, done) =>
    done(null, body),
  );
  // Not rate limited per client: Stripe sends every delivery from a few addresses, and the
  // signature already refuses anyone else.
  app.post(
    '/api/webhooks/stripe',
    { schema: { tags: ['checkout'], hide: true }, config: { rateLimit: false } },
    async (request, reply) => {
      const raw = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      const event = await checkout.parseWebhook(raw, Array.isArray(signature) ? signature[0] : signature);
      const { duplicate } = await checkout.handlePaymentEvent(event);
      return reply.send({ received: true, duplicate });
    },
  );
};
