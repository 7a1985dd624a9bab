import { useEffect, useRef, useState } from 'react';
import { Link, useRevalidator, useRouteLoaderData, useSearchParams } from 'react-router';
import type { verifyEmail } from '#common/contracts/accounts.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { AuthCard, Notice, primaryButton } from '#web/common/form-fields.tsx';
import type { Route } from './+types/verify-email.ts';
import type { loader as frameLoader } from './frame.tsx';

export const meta: Route.MetaFunction = () => [
  { title: 'Confirm your email · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

/** Confirms a new account's address or the new address of an email change (the link from the mail). */
export default function VerifyEmail() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  // The server's answer of the root loader: after an email change the shopper is often still signed in.
  const signedIn = Boolean(useRouteLoaderData<typeof frameLoader>('frame')?.user);
  const revalidator = useRevalidator();
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  // A link works once: the token is sent once, even when the effect runs again.
  const sent = useRef<string | null>(null);
  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    api
      .call<typeof verifyEmail>({ method: 'POST', path: '/api/auth/verify-email' }, { body: { token } })
      .then(({ message }) => {
        setResult({ kind: 'success', text: message });
        // The header and the cached user pick up a changed address.
        void revalidator.revalidate();
      })
      .catch((error: unknown) =>
        setResult({
          kind: 'error',
          text: errorMessage(error, 'Invalid or expired confirmation link', 'Network error. Please try again.'),
        }),
      );
  }, [token, revalidator]);
  return (
    <AuthCard title="Confirm your email">
      {result ? <Notice kind={result.kind}>{result.text}</Notice> : <p role="status">Confirming your email address…</p>}
      {result?.kind === 'success' ? (
        <Link to={signedIn ? '/account' : '/login'} className={`mt-6 block text-center ${primaryButton}`}>
          {signedIn ? 'Go to your account' : 'Sign in'}
        </Link>
      ) : null}
    </AuthCard>
  );
}
