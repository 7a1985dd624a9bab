/**
 * What the shopper reads when a card payment fails (storefront spec §8): the provider's message,
 * replaced for the codes the spec knows. Look the code up as `decline_code ?? code`: a provider
 * reports most declines as `code: 'card_declined'` with the reason in `decline_code`.
 */
export const paymentErrorMessages = {
  card_declined: 'Your bank declined this card. Try another card or contact your bank.',
  do_not_honor: 'Your bank declined the charge. Please use a different card.',
  transaction_not_allowed: "This card can't be used for this type of transaction.",
  restricted_card: 'This card is restricted. Use a different payment method.',
  generic_decline: 'The card was declined. Try another card.',
  authentication_required: 'This card requires authentication. Please use a different card.',
} as const;

export type CataloguedPaymentError = keyof typeof paymentErrorMessages;

/** Shown when a payment fails with neither a known code nor a message of the provider's. */
export const PAYMENT_FAILED_MESSAGE = 'Payment failed';

/** The message for a failed payment: the catalogue's text for a known code, else the provider's message, else 'Payment failed'. */
export function paymentErrorMessage(code: string | null | undefined, providerMessage?: string | null): string {
  if (code && Object.hasOwn(paymentErrorMessages, code)) return paymentErrorMessages[code as CataloguedPaymentError];
  return providerMessage?.trim() || PAYMENT_FAILED_MESSAGE;
}

/**
 * The card numbers the shop accepts while it takes test payments (the built-in processor, and
 * Stripe in test mode where the number is one of Stripe's own): any future expiry, any 3-4 digit
 * CVC. `code` and `declineCode` are what the provider reports; the shopper's message is
 * `paymentErrorMessage(declineCode ?? code)`.
 */
export const testCards = [
  { number: '4242 4242 4242 4242', brand: 'visa', outcome: 'authorised', code: null, declineCode: null },
  // Stripe's generic decline card.
  {
    number: '4000 0000 0000 0002',
    brand: 'visa',
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'generic_decline',
  },
  // Stripe has no test cards for the next four codes: these numbers are the built-in processor's own.
  { number: '4000 0000 0000 1018', brand: 'visa', outcome: 'declined', code: 'card_declined', declineCode: null },
  {
    number: '4000 0000 0000 1026',
    brand: 'visa',
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'do_not_honor',
  },
  {
    number: '4000 0000 0000 1034',
    brand: 'visa',
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'transaction_not_allowed',
  },
  {
    number: '4000 0000 0000 1042',
    brand: 'visa',
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'restricted_card',
  },
  // Stripe's "always authenticate" card: the built-in processor has no 3-D Secure step, so it declines.
  {
    number: '4000 0027 6000 3184',
    brand: 'visa',
    outcome: 'declined',
    code: 'card_declined',
    declineCode: 'authentication_required',
  },
] as const satisfies readonly TestCard[];

export type TestCard = {
  /** Grouped in fours, as the shopper types it. */
  number: string;
  brand: 'visa';
  outcome: 'authorised' | 'declined';
  /** The provider's error code on a decline. */
  code: 'card_declined' | null;
  /** The provider's decline code, when it gives the reason. */
  declineCode: CataloguedPaymentError | null;
};

/** The test card with this number (spaces and dashes ignored), or null. */
export function findTestCard(number: string): TestCard | null {
  const digits = number.replace(/[\s-]/g, '');
  return testCards.find((card) => card.number.replaceAll(' ', '') === digits) ?? null;
}
