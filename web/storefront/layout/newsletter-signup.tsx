import { useState } from 'react';
import type { subscribeNewsletter } from '#common/contracts/newsletter.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';

type Answer = { text: string; refused?: boolean; badAddress?: boolean; busy?: boolean };

/**
 * The footer's newsletter sign-up (issue 12). The server's sentence is shown as it is: the same
 * whether the address was new or already subscribed, or asking to confirm by mail when the shop
 * requires it; a refusal (a bad address, the limit, the newsletter closed) names its reason.
 *
 * Every page loads this in its first JavaScript, which is at its budget: the contract is a type
 * only (no zod), the field is uncontrolled, the ids are fixed (the footer is once on a page), and
 * the class names are mostly those the header and footer already use, which gzip stores once.
 * `heading`: the class of the footer's column headings, which the label wears.
 */
export function NewsletterSignup({ heading }: { heading: string }) {
  const [answer, setAnswer] = useState<Answer>({ text: '' });

  async function submit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    setAnswer({ text: '', busy: true });
    try {
      const { message } = await api.call<typeof subscribeNewsletter>(
        { method: 'POST', path: '/api/newsletter/subscribe' },
        { body: { email: form.email.value } },
      );
      setAnswer({ text: message });
      form.reset();
    } catch (error) {
      setAnswer({
        text: errorMessage(error, 'Network error. Please try again.'),
        refused: true,
        badAddress: error instanceof ApiRequestError && error.field === 'email',
      });
    }
  }

  return (
    // method="dialog": outside a dialog a submit does nothing, so one made before the page's
    // script runs neither puts the address in a URL (GET) nor meets the pages' 405 (POST).
    <form method="dialog" onSubmit={submit} noValidate className="mt-8 max-w-sm">
      <label htmlFor="newsletter-email" className={`block ${heading}`}>
        Newsletter: your email address
      </label>
      <div className="relative w-full">
        <input
          id="newsletter-email"
          name="email"
          type="email"
          autoComplete="email"
          aria-invalid={answer.badAddress}
          aria-describedby="newsletter-answer"
          className="h-10 w-full rounded-full border border-sage-200 bg-white pr-28 pl-4 text-sm text-stone-900 focus:border-sage-500 focus:ring-2 focus:ring-sage-200 focus:outline-none"
        />
        <button
          type="submit"
          disabled={answer.busy}
          className="absolute top-1 right-1 h-8 rounded-full bg-sage-700 px-4 text-sm font-medium text-white hover:bg-sage-800"
        >
          {answer.busy ? 'Subscribing…' : 'Subscribe'}
        </button>
      </div>
      {/*
        A polite live region, in the page from the start so that the sentence is announced when
        it comes; not a status role, which stays the page's own (the footer is on every page).
      */}
      <p
        id="newsletter-answer"
        aria-live="polite"
        className={`mt-2 text-sm ${answer.refused ? 'text-red-200' : 'text-white'}`}
      >
        {answer.text}
      </p>
    </form>
  );
}
