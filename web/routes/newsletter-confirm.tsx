import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { type confirmNewsletter, newsletterMessages } from '#common/contracts/newsletter.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { AuthCard, Notice, primaryButton } from '#web/common/form-fields.tsx';
import type { Route } from './+types/newsletter-confirm.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Confirm your subscription · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

/** The sentence for a bad link comes from the contract here, on the server, so that zod stays out of the page's bundle. */
export function loader() {
  return { invalid: newsletterMessages.confirmationInvalid };
}

/**
 * The double opt-in link of the confirmation mail (/newsletter/confirm?token=…). Opening the page
 * changes nothing: mail scanners open links, some running the page's script, and a sign-up they
 * confirmed would be no one's consent. The button posts the token (so it never reaches a log as
 * part of a page request's answer).
 */
export default function NewsletterConfirm({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  // 'retry': a limit or the network failed, and the button stays; 'invalid': the link can never work.
  const [result, setResult] = useState<{ kind: 'success' | 'invalid' | 'retry'; text: string } | null>(
    token ? null : { kind: 'invalid', text: loaderData.invalid },
  );

  async function confirm() {
    setBusy(true);
    setResult(null);
    try {
      const { message } = await api.call<typeof confirmNewsletter>(
        { method: 'POST', path: '/api/newsletter/confirm' },
        { body: { token } },
      );
      setResult({ kind: 'success', text: message });
    } catch (error) {
      // A malformed token is the same bad link to the reader; a limit or a closed newsletter says so.
      const invalid = error instanceof ApiRequestError && (error.status === 400 || error.status === 404);
      setResult(
        invalid
          ? { kind: 'invalid', text: loaderData.invalid }
          : { kind: 'retry', text: errorMessage(error, loaderData.invalid, 'Network error. Please try again.') },
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Confirm your subscription">
      {result ? <Notice kind={result.kind === 'success' ? 'success' : 'error'}>{result.text}</Notice> : null}
      {result && result.kind !== 'retry' ? (
        <Link to="/products" className={`mt-6 block text-center ${primaryButton}`}>
          Continue shopping
        </Link>
      ) : (
        <>
          <p className={result ? 'mt-4 text-stone-700' : 'text-stone-700'}>
            Press the button to receive our newsletter at this address.
          </p>
          <button type="button" onClick={confirm} disabled={busy} className={`mt-6 ${primaryButton}`}>
            {busy ? 'Confirming…' : 'Confirm subscription'}
          </button>
        </>
      )}
    </AuthCard>
  );
}
