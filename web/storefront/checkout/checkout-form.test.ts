import { describe, expect, test } from 'vitest';
import { testCards } from '#common/payment-errors.ts';
import {
  type CardInput,
  cardForConfirm,
  cardProblems,
  emptyAddress,
  formatCardNumber,
  formatExpiry,
  isCardComplete,
  parseExpiry,
  passesLuhn,
  payBlockers,
  shippingText,
} from './checkout-form.ts';

const today = new Date(2026, 10, 23);
const address = {
  ...emptyAddress(),
  name: 'Ada Calm',
  street: '1 Quiet Lane',
  city: 'Portland',
  state: 'OR',
  zipCode: '97201',
};
const card: CardInput = { number: '4242 4242 4242 4242', expiry: '12 / 30', cvc: '123', name: 'Ada Calm' };

describe('the price breakdown', () => {
  test('shipping is N/A until the shipping address is complete, then the server figure', () => {
    expect(shippingText({ shipping: 499 }, null)).toBe('N/A');
    expect(shippingText({ shipping: 499 }, emptyAddress())).toBe('N/A');
    expect(shippingText({ shipping: null }, address)).toBe('N/A');
    expect(shippingText({ shipping: 499 }, address)).toBe('$4.99');
    expect(shippingText({ shipping: 0 }, address)).toBe('Free');
  });
});

describe('the card form', () => {
  test('every test card passes the Luhn check, a typo does not', () => {
    for (const test of testCards) expect(passesLuhn(test.number), test.number).toBe(true);
    expect(passesLuhn('4242 4242 4242 4241')).toBe(false);
    expect(passesLuhn('4242')).toBe(false);
  });

  test('the number is grouped in fours, digits only, at most 19', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('4000-0027 60a')).toBe('4000 0027 60');
    expect(formatCardNumber('1'.repeat(25)).replaceAll(' ', '')).toHaveLength(19);
  });

  test('the expiry reads MM / YY as it is typed', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('4')).toBe('04 / ');
    expect(formatExpiry('12')).toBe('12 / ');
    expect(formatExpiry('1230')).toBe('12 / 30');
    expect(formatExpiry('12 / 3099')).toBe('12 / 30');
    // Backspace over the separator removes the month's last digit.
    expect(formatExpiry('12 /', '12 / ')).toBe('1');
  });

  test('the expiry parses to a month and a four-digit year', () => {
    expect(parseExpiry('04 / 29')).toEqual({ month: 4, year: 2029 });
    expect(parseExpiry('4/2031')).toEqual({ month: 4, year: 2031 });
    expect(parseExpiry('13 / 29')).toBeNull();
    expect(parseExpiry('04 / ')).toBeNull();
  });

  test('complete: a valid number, a current expiry, a 3-4 digit CVC and a name', () => {
    expect(isCardComplete(card, today)).toBe(true);
    expect(isCardComplete({ ...card, number: '4242 4242 4242 4241' }, today)).toBe(false);
    expect(isCardComplete({ ...card, expiry: '10 / 26' }, today)).toBe(false);
    expect(isCardComplete({ ...card, expiry: '11 / 26' }, today)).toBe(true);
    expect(isCardComplete({ ...card, cvc: '12' }, today)).toBe(false);
    expect(isCardComplete({ ...card, cvc: '1234' }, today)).toBe(true);
    expect(isCardComplete({ ...card, name: '  ' }, today)).toBe(false);
  });

  test('problems are named only once a field is long enough to judge', () => {
    expect(cardProblems({ ...card, number: '4242 4242' }, today)).toEqual({});
    expect(cardProblems({ ...card, number: '4242 4242 4242 4241' }, today).number).toBe(
      'This card number is not valid.',
    );
    expect(cardProblems({ ...card, expiry: '01 / 20' }, today).expiry).toBe('This card has expired.');
  });

  test('the card goes to the server as digits, month and four-digit year', () => {
    expect(cardForConfirm(card)).toEqual({
      number: '4242424242424242',
      expMonth: 12,
      expYear: 2030,
      cvc: '123',
      name: 'Ada Calm',
    });
    expect(cardForConfirm({ ...card, expiry: '1' })).toBeNull();
  });
});

describe('Pay Now', () => {
  const ready = { processorReady: true, paymentComplete: true };
  const filled = { email: 'ada@example.com', shipping: address, billing: null };
  const empty = { email: '', shipping: null, billing: null };

  test('is enabled with an email, a complete shipping address, complete payment details and a ready processor', () => {
    expect(payBlockers({ details: filled, ...ready })).toEqual([]);
  });

  test('names what is missing', () => {
    expect(payBlockers({ details: empty, processorReady: false, paymentComplete: false })).toEqual([
      'enter your email',
      'complete the shipping address',
      'complete the payment details',
      'wait for the payment to be ready',
    ]);
    expect(payBlockers({ details: { ...filled, email: '  ' }, ...ready })).toEqual(['enter your email']);
    expect(payBlockers({ details: { ...filled, shipping: { ...address, state: '' } }, ...ready })).toEqual([
      'complete the shipping address',
    ]);
  });

  test('a different billing address must be complete too', () => {
    const details = { ...filled, billing: emptyAddress() };
    expect(payBlockers({ details, ...ready })).toEqual(['complete the billing address']);
    expect(payBlockers({ details: { ...details, billing: address }, ...ready })).toEqual([]);
  });
});
