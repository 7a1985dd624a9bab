import { describe, expect, test } from 'vitest';
import { PAYMENT_FAILED_MESSAGE, paymentErrorMessages } from '#common/payment-errors.ts';
import { stripeBillingDetails, stripeConfirmOutcome, stripeErrorMessage } from './payment-form.ts';

describe('Stripe.js errors in the shopper’s words', () => {
  test('a decline is looked up by its decline code first', () => {
    expect(
      stripeErrorMessage({
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'do_not_honor',
        message: 'Your card was declined.',
      }),
    ).toBe(paymentErrorMessages.do_not_honor);
    expect(
      stripeErrorMessage({ type: 'card_error', code: 'card_declined', decline_code: 'generic_decline', message: 'x' }),
    ).toBe(paymentErrorMessages.generic_decline);
  });

  test('without a decline code, by its code', () => {
    expect(stripeErrorMessage({ type: 'card_error', code: 'card_declined', message: 'Your card was declined.' })).toBe(
      paymentErrorMessages.card_declined,
    );
    expect(
      stripeErrorMessage({ type: 'card_error', code: 'authentication_required', decline_code: null, message: 'x' }),
    ).toBe(paymentErrorMessages.authentication_required);
  });

  test('a code the spec does not know shows Stripe’s own message, else "Payment failed"', () => {
    expect(
      stripeErrorMessage({
        type: 'card_error',
        code: 'card_declined',
        decline_code: 'insufficient_funds',
        message: 'Your card has insufficient funds.',
      }),
    ).toBe('Your card has insufficient funds.');
    expect(
      stripeErrorMessage({
        type: 'validation_error',
        code: 'incomplete_number',
        message: 'Your card number is incomplete.',
      }),
    ).toBe('Your card number is incomplete.');
    expect(stripeErrorMessage({ type: 'api_connection_error' })).toBe(PAYMENT_FAILED_MESSAGE);
    expect(stripeErrorMessage({ type: 'api_error', message: '  ' })).toBe(PAYMENT_FAILED_MESSAGE);
  });
});

describe('the outcome of confirming with Stripe.js', () => {
  test('an error is a failure with its message', () => {
    expect(
      stripeConfirmOutcome({ error: { type: 'card_error', code: 'card_declined', decline_code: 'restricted_card' } }),
    ).toEqual({ ok: false, message: paymentErrorMessages.restricted_card });
  });

  test('an authorised, captured or processing payment lets the order be made', () => {
    for (const status of ['requires_capture', 'succeeded', 'processing']) {
      expect(stripeConfirmOutcome({ paymentIntent: { status } })).toEqual({ ok: true });
    }
  });

  test('any other status, or no answer, is a failure', () => {
    for (const status of ['requires_payment_method', 'requires_action', 'canceled']) {
      expect(stripeConfirmOutcome({ paymentIntent: { status } })).toEqual({
        ok: false,
        message: PAYMENT_FAILED_MESSAGE,
      });
    }
    expect(stripeConfirmOutcome({})).toEqual({ ok: false, message: PAYMENT_FAILED_MESSAGE });
  });
});

test('billing details go to Stripe with every address field, trimmed', () => {
  expect(
    stripeBillingDetails({
      name: ' Ada Lovelace ',
      email: 'ada@example.com ',
      address: {
        name: 'Ada Lovelace',
        street: '1 Main St ',
        line2: '',
        city: 'Springfield',
        state: 'IL',
        zipCode: ' 62701',
        country: 'us',
      },
    }),
  ).toEqual({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    address: { line1: '1 Main St', line2: '', city: 'Springfield', state: 'IL', postal_code: '62701', country: 'US' },
  });
});
