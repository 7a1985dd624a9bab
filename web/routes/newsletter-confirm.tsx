import { useEffect, useRef, useState } from 'react';
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
 * The double opt-in link of the confirmation mail (/newsletter/confirm?token=…): the browser posts
 * the token once, so the token never reaches a log as part of a page request's answer.
 */
export default function NewsletterConfirm({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  // A link works once: the token is sent once, even when the effect runs again.
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    if (!token) {
      setResult({ kind: 'error', text: loaderData.invalid });
      return;
    }
    api
      .call<typeof confirmNewsletter>({ method: 'POST', path: '/api/newsletter/confirm' }, { body: { token } })
      .then(({ message }) => setResult({ kind: 'success', text: message }))
      .catch((error: unknown) =>
        setResult({
          kind: 'error',
          // A malformed token is the same bad link to the reader; a limit or a closed newsletter says so.
          text:
            error instanceof ApiRequestError && (error.status === 400 || error.status === 404)
              ? loaderData.invalid
              : errorMessage(error, loaderData.invalid, 'Network error. Please try again.'),
        }),
      );
  }, [token, loaderData.invalid]);
  return (
    <AuthCard title="Confirm your subscription">
      {result ? <Notice kind={result.kind}>{result.text}</Notice> : <p role="status">Confirming your subscription…</p>}
      {result ? (
        <Link to="/products" className={`mt-6 block text-center ${primaryButton}`}>
          Continue shopping
        </Link>
      ) : null}
    </AuthCard>
  );
}
