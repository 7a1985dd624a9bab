import { isAddressComplete } from '#common/checkout-rules.ts';
import type { CheckoutBreakdown, DraftAddress } from '#common/contracts/checkout.ts';
import { formatCents } from '#common/money.ts';

/** What the checkout modal collects (the cart-sync store keeps it; billing null: the shipping address). */
type Details = { email: string; shipping: DraftAddress | null; billing: DraftAddress | null };

export const emptyAddress = (): DraftAddress => ({
  name: '',
  street: '',
  line2: '',
  city: '',
  state: '',
  zipCode: '',
  country: 'US',
});

/** Shipping as the summary shows it: N/A until the shipping address is complete (spec 4). */
export function shippingText(breakdown: Pick<CheckoutBreakdown, 'shipping'>, address: DraftAddress | null): string {
  if (!isAddressComplete(address) || breakdown.shipping === null) return 'N/A';
  return breakdown.shipping === 0 ? 'Free' : formatCents(breakdown.shipping);
}

// The built-in card form. Stripe's Payment Element checks its own fields.

/** Card details as typed. */
export type CardInput = { number: string; expiry: string; cvc: string; name: string };

export const emptyCard = (): CardInput => ({ number: '', expiry: '', cvc: '', name: '' });

const digitsOf = (value: string) => value.replace(/\D/g, '');

/** The card number grouped in fours as the shopper types it (at most 19 digits). */
export function formatCardNumber(value: string): string {
  return (
    digitsOf(value)
      .slice(0, 19)
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

/** The expiry as 'MM / YY' while it is typed: a lone first digit above 1 is a month ('4' → '04 / '). */
export function formatExpiry(value: string, previous = ''): string {
  let digits = digitsOf(value).slice(0, 4);
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  // Deleting the separator deletes the month's last digit.
  if (previous.endsWith(' / ') && value.length < previous.length && digits.length === 2) digits = digits.slice(0, 1);
  if (digits.length < 2) return digits;
  return `${digits.slice(0, 2)} / ${digits.slice(2)}`;
}

/** The expiry's month and four-digit year, or null when it is not a month and a year. */
export function parseExpiry(value: string): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match?.[1] || !match[2]) return null;
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  return month >= 1 && month <= 12 ? { month, year } : null;
}

/** The Luhn checksum every card number carries. */
export function passesLuhn(number: string): boolean {
  const digits = digitsOf(number);
  if (digits.length < 12 || digits.length > 19) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** What is still wrong with the card, field by field (empty fields are just not done yet). */
export function cardProblems(card: CardInput, today: Date): Partial<Record<keyof CardInput, string>> {
  const problems: Partial<Record<keyof CardInput, string>> = {};
  const digits = digitsOf(card.number);
  if (digits.length >= 12 && !passesLuhn(digits)) problems.number = 'This card number is not valid.';
  if (card.expiry.replace(/[\s/]/g, '').length >= 4) {
    const expiry = parseExpiry(card.expiry);
    const thisMonth = today.getFullYear() * 12 + today.getMonth() + 1;
    if (!expiry) problems.expiry = 'Enter the expiry as MM / YY.';
    else if (expiry.year * 12 + expiry.month < thisMonth) problems.expiry = 'This card has expired.';
  }
  return problems;
}

/** Payment details are complete: a valid number, a current expiry, a 3-4 digit CVC and the name on the card. */
export function isCardComplete(card: CardInput, today: Date): boolean {
  return (
    passesLuhn(card.number) &&
    parseExpiry(card.expiry) !== null &&
    Object.keys(cardProblems(card, today)).length === 0 &&
    /^\d{3,4}$/.test(card.cvc.trim()) &&
    card.name.trim().length > 0
  );
}

/** The card as POST /api/payments/test-card/confirm takes it; null while it is incomplete. */
export function cardForConfirm(card: CardInput) {
  const expiry = parseExpiry(card.expiry);
  if (!expiry) return null;
  return {
    number: digitsOf(card.number),
    expMonth: expiry.month,
    expYear: expiry.year,
    cvc: card.cvc.trim(),
    name: card.name.trim(),
  };
}

/**
 * Why Pay Now is still disabled, in the order the shopper fills the form; none when it may be
 * pressed (spec 4: processor ready, email non-empty, shipping address complete, payment details
 * complete; and a different billing address, when chosen, complete too).
 */
export function payBlockers({
  details,
  processorReady,
  paymentComplete,
}: {
  details: Details;
  processorReady: boolean;
  paymentComplete: boolean;
}): string[] {
  const blockers: string[] = [];
  if (!details.email.trim()) blockers.push('enter your email');
  if (!isAddressComplete(details.shipping)) blockers.push('complete the shipping address');
  if (details.billing !== null && !isAddressComplete(details.billing)) blockers.push('complete the billing address');
  if (!paymentComplete) blockers.push('complete the payment details');
  if (!processorReady) blockers.push('wait for the payment to be ready');
  return blockers;
}
