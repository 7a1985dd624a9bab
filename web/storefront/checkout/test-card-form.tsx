import { useEffect, useId, useImperativeHandle, useState } from 'react';
import type { confirmTestCard } from '#common/contracts/checkout.ts';
import { PAYMENT_FAILED_MESSAGE, paymentErrorMessage, testCards } from '#common/payment-errors.ts';
import { ApiRequestError } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import {
  type CardInput,
  cardForConfirm,
  cardProblems,
  emptyCard,
  formatCardNumber,
  formatExpiry,
  isCardComplete,
} from './checkout-form.ts';
import type { PaymentFormProps, PaymentOutcome } from './payment-form.ts';

/** Why each decline card is refused, in the shopper's words, for the test-mode hint. */
const declineNames: Record<string, string> = {
  generic_decline: 'generic decline',
  card_declined: 'card declined',
  do_not_honor: 'do not honor',
  transaction_not_allowed: 'transaction not allowed',
  restricted_card: 'restricted card',
  authentication_required: 'authentication required',
};

const success = testCards.find((card) => card.outcome === 'authorised');
const declines = testCards.filter((card) => card.outcome === 'declined');

/**
 * The built-in test processor's card form (the `PaymentForm` used when Stripe is not
 * configured): the card goes to our own server, which accepts only its test cards.
 */
export function TestCardForm({ clientSecret, disabled, onStateChange, ref }: PaymentFormProps) {
  const [card, setCard] = useState<CardInput>(emptyCard);
  const [touched, setTouched] = useState<Partial<Record<keyof CardInput, boolean>>>({});
  const today = new Date();
  const complete = isCardComplete(card, today);
  const problems = cardProblems(card, today);
  const hintId = useId();

  useEffect(() => {
    onStateChange({ ready: clientSecret !== null, complete });
  }, [clientSecret, complete, onStateChange]);

  useImperativeHandle(
    ref,
    () => ({
      async confirm({ clientSecret: secret }): Promise<PaymentOutcome> {
        const body = cardForConfirm(card);
        if (!body) return { ok: false, message: PAYMENT_FAILED_MESSAGE };
        try {
          await api.call<typeof confirmTestCard>(
            { method: 'POST', path: '/api/payments/test-card/confirm' },
            { body: { clientSecret: secret, card: body } },
          );
          return { ok: true };
        } catch (error) {
          // 402: the card was refused; the server's message is the spec's for its code.
          if (error instanceof ApiRequestError && error.status === 402) {
            return { ok: false, message: paymentErrorMessage(error.code, error.message) };
          }
          return { ok: false, message: PAYMENT_FAILED_MESSAGE };
        }
      },
    }),
    [card],
  );

  const set = (field: keyof CardInput, value: string) => setCard((current) => ({ ...current, [field]: value }));
  const shown = (field: keyof CardInput) => (touched[field] ? problems[field] : undefined);
  const blur = (field: keyof CardInput) => () => setTouched((current) => ({ ...current, [field]: true }));

  return (
    <div className="rounded-xl bg-sage-900 p-4 text-sage-50 sm:p-5">
      <p id={hintId} className="text-sm leading-6 text-sage-100">
        <strong className="font-semibold text-white">Test mode:</strong> use{' '}
        <span className="font-mono whitespace-nowrap">{success?.number}</span> with any future expiry date and any CVC.
        To see a decline, use{' '}
        {declines.map((test, index) => (
          <span key={test.number}>
            <span className="font-mono whitespace-nowrap">{test.number}</span> (
            {declineNames[test.declineCode ?? test.code] ?? 'declined'}){index < declines.length - 1 ? ', ' : '.'}
          </span>
        ))}
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-6">
        <CardField
          className="sm:col-span-6"
          label="Card number"
          value={card.number}
          onChange={(value) => set('number', formatCardNumber(value))}
          onBlur={blur('number')}
          autoComplete="cc-number"
          inputMode="numeric"
          placeholder="1234 1234 1234 1234"
          maxLength={23}
          disabled={disabled}
          error={shown('number')}
          describedBy={hintId}
        />
        <CardField
          className="sm:col-span-3"
          label="Expiry (MM / YY)"
          value={card.expiry}
          onChange={(value) => set('expiry', formatExpiry(value, card.expiry))}
          onBlur={blur('expiry')}
          autoComplete="cc-exp"
          inputMode="numeric"
          placeholder="MM / YY"
          maxLength={7}
          disabled={disabled}
          error={shown('expiry')}
        />
        <CardField
          className="sm:col-span-3"
          label="CVC"
          value={card.cvc}
          onChange={(value) => set('cvc', value.replace(/\D/g, '').slice(0, 4))}
          onBlur={blur('cvc')}
          autoComplete="cc-csc"
          inputMode="numeric"
          placeholder="123"
          maxLength={4}
          disabled={disabled}
        />
        <CardField
          className="sm:col-span-6"
          label="Name on card"
          value={card.name}
          onChange={(value) => set('name', value)}
          onBlur={blur('name')}
          autoComplete="cc-name"
          disabled={disabled}
        />
      </div>
    </div>
  );
}

/** A labelled input of the card form, on the payment form's dark panel. */
function CardField({
  label,
  value,
  onChange,
  onBlur,
  autoComplete,
  inputMode,
  placeholder,
  maxLength,
  disabled,
  error,
  describedBy,
  className,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur: () => void;
  autoComplete: string;
  inputMode?: 'numeric';
  placeholder?: string;
  maxLength?: number;
  disabled: boolean;
  error?: string | undefined;
  describedBy?: string;
  className?: string;
}) {
  const id = useId();
  const described = [error ? `${id}-error` : null, describedBy ?? null].filter(Boolean).join(' ') || undefined;
  return (
    <div className={className}>
      <label htmlFor={id} className="block text-sm font-medium text-sage-50">
        {label}
      </label>
      <input
        id={id}
        type="text"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        onBlur={onBlur}
        autoComplete={autoComplete}
        inputMode={inputMode}
        placeholder={placeholder}
        maxLength={maxLength}
        disabled={disabled}
        spellCheck={false}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={`mt-1 block w-full rounded-lg border bg-sage-800 px-3 py-2.5 text-white placeholder:text-sage-300 focus:ring-2 focus:ring-sage-300 focus:outline-none disabled:opacity-70 ${
          error ? 'border-red-300' : 'border-sage-500 focus:border-sage-200'
        }`}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-200">
          {error}
        </p>
      ) : null}
    </div>
  );
}
