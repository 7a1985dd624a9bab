import { useEffect, useId, useRef, useState } from 'react';
import { applyCode, type CartSyncState, removeCode } from './cart-sync.ts';

/** Spec 8: the discount error popup stays about 5 seconds and is removed at about 5.5 seconds. */
export const POPUP_VISIBLE_MS = 5000;
export const POPUP_REMOVED_MS = 5500;

/** The code field with Apply, and the applied codes, each with a remove button. */
export function DiscountCodeBox({ codes }: { codes: string[] }) {
  const id = useId();
  const [value, setValue] = useState('');
  return (
    <div className="space-y-3">
      <form
        className="space-y-2"
        onSubmit={(event) => {
          event.preventDefault();
          // Spec 5: trimmed and upper-cased; an empty or already applied code changes nothing.
          applyCode(value);
          setValue('');
        }}
      >
        <label htmlFor={id} className="block text-sm font-medium text-stone-800">
          Discount code
        </label>
        <div className="flex gap-2">
          <input
            id={id}
            name="code"
            value={value}
            onChange={(event) => setValue(event.target.value)}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={40}
            className="min-w-0 flex-1 rounded-lg border border-sage-200 bg-white px-3 py-2 text-sm uppercase focus:border-sage-500 focus:ring-2 focus:ring-sage-200 focus:outline-none"
          />
          <button
            type="submit"
            className="rounded-full border border-sage-300 px-5 py-2 text-sm font-medium text-sage-800 hover:bg-sage-50"
          >
            Apply
          </button>
        </div>
      </form>
      {codes.length > 0 ? (
        <ul aria-label="Applied discount codes" className="flex flex-wrap gap-2">
          {codes.map((code) => (
            <li
              key={code}
              className="inline-flex items-center gap-1 rounded-full bg-sage-100 py-1 pr-1 pl-3 text-sm font-medium text-sage-900"
            >
              {code}
              <button
                type="button"
                onClick={() => removeCode(code)}
                aria-label={`Remove code ${code}`}
                className="flex h-6 w-6 items-center justify-center rounded-full text-sage-800 hover:bg-sage-200"
              >
                <span aria-hidden="true">×</span>
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

type Shown = { id: number; messages: string[]; phase: 'entering' | 'shown' | 'leaving' };

/**
 * The popup of codes the server refused (spec 8): fades in, stays about 5 s, fades out and is
 * removed at about 5.5 s. Announced as an alert; without motion when the shopper asks for less.
 */
export function DiscountRefusalPopup({ refusal }: { refusal: CartSyncState['refusal'] }) {
  // A refusal already made before this page showed (the store outlives the page) is not shown again.
  const seen = useRef(refusal?.id ?? 0);
  const [shown, setShown] = useState<Shown | null>(null);
  useEffect(() => {
    if (!refusal || refusal.id <= seen.current) return;
    seen.current = refusal.id;
    const { id } = refusal;
    const phase = (next: Shown['phase']) => setShown((now) => (now?.id === id ? { ...now, phase: next } : now));
    setShown({ id, messages: refusal.codes.map((entry) => entry.message), phase: 'entering' });
    // Two frames: the first paints it transparent, so the change of opacity is a transition.
    let frame = requestAnimationFrame(() => {
      frame = requestAnimationFrame(() => phase('shown'));
    });
    const leave = setTimeout(() => phase('leaving'), POPUP_VISIBLE_MS);
    const remove = setTimeout(() => setShown((now) => (now?.id === id ? null : now)), POPUP_REMOVED_MS);
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(leave);
      clearTimeout(remove);
    };
  }, [refusal]);
  if (!shown) return null;
  return (
    <div
      role="alert"
      data-testid="discount-popup"
      className={`fixed inset-x-4 bottom-6 z-[70] mx-auto flex max-w-md items-start gap-3 rounded-xl border border-red-200 bg-white p-4 text-sm text-red-900 shadow-lg transition-opacity duration-500 motion-reduce:transition-none ${
        shown.phase === 'shown' ? 'opacity-100' : 'opacity-0'
      }`}
    >
      <div className="flex-1 space-y-1">
        {shown.messages.map((message) => (
          <p key={message}>{message}</p>
        ))}
      </div>
      <button
        type="button"
        onClick={() => setShown(null)}
        aria-label="Dismiss"
        className="-m-1 flex h-7 w-7 shrink-0 items-center justify-center rounded-full text-red-900 hover:bg-red-50"
      >
        <span aria-hidden="true">×</span>
      </button>
    </div>
  );
}
