import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import type { verifyEmail } from '#common/contracts/accounts.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { AuthCard, Notice, primaryButton } from '#web/storefront/account/form-fields.tsx';
import type { Route } from './+types/verify-email.ts';

export const meta: Route.MetaFunction = () => [
  { title: 'Confirm your email · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

export default function VerifyEmail() {
  const [params] = useSearchParams();
  const [result, setResult] = useState<{ kind: 'success' | 'error'; text: string } | null>(null);
  useEffect(() => {
    const token = params.get('token') ?? '';
    api
      .call<typeof verifyEmail>({ method: 'POST', path: '/api/auth/verify-email' }, { body: { token } })
      .then(({ message }) => setResult({ kind: 'success', text: message }))
      .catch((error: unknown) =>
        setResult({
          kind: 'error',
          text: errorMessage(error, 'Invalid or expired confirmation link', 'Network error. Please try again.'),
        }),
      );
  }, [params]);
  return (
    <AuthCard title="Confirm your email">
      {result ? <Notice kind={result.kind}>{result.text}</Notice> : <p role="status">Confirming your email address…</p>}
      {result?.kind === 'success' ? (
        <Link to="/login" className={`mt-6 block text-center ${primaryButton}`}>
          Sign in
        </Link>
      ) : null}
    </AuthCard>
  );
}
