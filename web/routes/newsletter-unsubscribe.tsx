import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { newsletterMessages, type oneClickUnsubscribe } from '#common/contracts/newsletter.ts';
import { ApiRequestError, errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { AuthCard, Notice, primaryButton } from '#web/common/form-fields.tsx';
import type { Route } from './+types/newsletter-unsubscribe.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Unsubscribe from the newsletter · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

/** The sentence for a bad link comes from the contract here, on the server, so that zod stays out of the page's bundle. */
export function loader() {
  return { invalid: newsletterMessages.unsubscribeInvalid };
}

/**
 * The unsubscribe link of every newsletter (/newsletter/unsubscribe?token=…). Opening the page
 * changes nothing, since mail scanners open links before people do: the button does it.
 */
export default function NewsletterUnsubscribe({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [busy, setBusy] = useState(false);
  // 'retry': a limit or the network failed, and the button stays; 'invalid': the link can never work.
  const [result, setResult] = useState<{ kind: 'success' | 'invalid' | 'retry'; text: string } | null>(
    token ? null : { kind: 'invalid', text: loaderData.invalid },
  );

  async function unsubscribe() {
    setBusy(true);
    setResult(null);
    try {
      const { message } = await api.call<typeof oneClickUnsubscribe>(
        { method: 'POST', path: '/api/newsletter/unsubscribe' },
        { query: { token }, body: { 'List-Unsubscribe': 'One-Click' } },
      );
      setResult({ kind: 'success', text: message });
    } catch (error) {
      // A malformed token is the same bad link to the reader as an unknown one.
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
    <AuthCard title="Unsubscribe from the newsletter">
      {result ? <Notice kind={result.kind === 'success' ? 'success' : 'error'}>{result.text}</Notice> : null}
      {result && result.kind !== 'retry' ? (
        <Link to="/" className={`mt-6 block text-center ${primaryButton}`}>
          Return to Home
        </Link>
      ) : (
        <>
          <p className={result ? 'mt-4 text-stone-700' : 'text-stone-700'}>
            Press the button to stop receiving our newsletter at this address.
          </p>
          <button type="button" onClick={unsubscribe} disabled={busy} className={`mt-6 ${primaryButton}`}>
            {busy ? 'Unsubscribing…' : 'Unsubscribe'}
          </button>
        </>
      )}
    </AuthCard>
  );
}
