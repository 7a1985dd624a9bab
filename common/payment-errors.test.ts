import { describe, expect, test } from 'vitest';
import { findTestCard, paymentErrorMessage, paymentErrorMessages, testCards } from './payment-errors.ts';

describe('paymentErrorMessage', () => {
  test.each([
    ['card_declined', 'Your bank declined this card. Try another card or contact your bank.'],
    ['do_not_honor', 'Your bank declined the charge. Please use a different card.'],
    ['transaction_not_allowed', "This card can't be used for this type of transaction."],
    ['restricted_card', 'This card is restricted. Use a different payment method.'],
    ['generic_decline', 'The card was declined. Try another card.'],
    ['authentication_required', 'This card requires authentication. Please use a different card.'],
  ])("%s gives the spec's text, whatever the provider said", (code, text) => {
    expect(paymentErrorMessage(code, 'Your card was declined.')).toBe(text);
    expect(paymentErrorMessage(code)).toBe(text);
  });

  test("another code gives the provider's message", () => {
    expect(paymentErrorMessage('insufficient_funds', 'Your card has insufficient funds.')).toBe(
      'Your card has insufficient funds.',
    );
    expect(paymentErrorMessage(null, 'Your card number is incorrect.')).toBe('Your card number is incorrect.');
  });

  test("without a known code or a message: 'Payment failed'", () => {
    expect(paymentErrorMessage(undefined)).toBe('Payment failed');
    expect(paymentErrorMessage('insufficient_funds', '  ')).toBe('Payment failed');
    expect(paymentErrorMessage('', null)).toBe('Payment failed');
  });

  test("an object's inherited names are not codes", () => {
    expect(paymentErrorMessage('toString', 'Declined.')).toBe('Declined.');
    expect(paymentErrorMessage('__proto__')).toBe('Payment failed');
  });
});

describe('test cards', () => {
  const luhn = (digits: string) =>
    [...digits].reverse().reduce((sum, ch, i) => {
      const d = Number(ch) * (i % 2 ? 2 : 1);
      return sum + (d > 9 ? d - 9 : d);
    }, 0) %
      10 ===
    0;

  test('are 16-digit numbers that pass the Luhn check, each once', () => {
    const numbers = testCards.map((card) => card.number.replaceAll(' ', ''));
    for (const number of numbers) {
      expect(number).toMatch(/^\d{16}$/);
      expect(luhn(number)).toBe(true);
    }
    expect(new Set(numbers).size).toBe(numbers.length);
  });

  test('one authorises and every code of the catalogue has its card', () => {
    expect(testCards.filter((card) => card.outcome === 'authorised').map((card) => card.number)).toEqual([
      '4242 4242 4242 4242',
    ]);
    const codes = testCards.filter((card) => card.outcome === 'declined').map((card) => card.declineCode ?? card.code);
    expect(codes.sort()).toEqual(Object.keys(paymentErrorMessages).sort());
  });

  test('are found with or without spaces and dashes, and nothing else is', () => {
    expect(findTestCard('4242424242424242')?.outcome).toBe('authorised');
    expect(findTestCard('4000-0000-0000-0002')?.declineCode).toBe('generic_decline');
    expect(findTestCard('4111 1111 1111 1111')).toBeNull();
    expect(findTestCard('')).toBeNull();
  });
});
