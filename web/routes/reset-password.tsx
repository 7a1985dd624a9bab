import { useEffect, useState } from 'react';
import { Link, useNavigate, useRouteLoaderData, useSearchParams } from 'react-router';
import { validatePasswordReset } from '#common/account-rules.ts';
import { RESET_REDIRECT_MS } from '#common/constants.ts';
import type { resetPassword, verifyResetToken } from '#common/contracts/accounts.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { AuthCard, Notice, PasswordField, primaryButton } from '#web/common/form-fields.tsx';
import type { Route } from './+types/reset-password.ts';
import type { loader as frameLoader } from './frame.tsx';

export const meta: Route.MetaFunction = () => [
  { title: 'Choose a new password · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

type State =
  | { step: 'verifying' }
  | { step: 'invalid'; message: string }
  | { step: 'form'; email: string }
  | { step: 'done'; message: string };

export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const signedIn = useRouteLoaderData<typeof frameLoader>('frame')?.user ?? null;
  const [state, setState] = useState<State>({ step: 'verifying' });
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  // The link is checked in the browser, so its token never reaches a server log as a page URL request.
  useEffect(() => {
    if (!token) {
      setState({ step: 'invalid', message: 'Invalid reset link' });
      return;
    }
    api
      .call<typeof verifyResetToken>(
        { method: 'GET', path: '/api/password-reset/verify/:token' },
        { params: { token } },
      )
      .then(({ email }) => setState({ step: 'form', email }))
      .catch((failure: unknown) =>
        setState({
          step: 'invalid',
          message: errorMessage(failure, 'Invalid or expired reset link', 'Failed to verify reset link'),
        }),
      );
  }, [token]);

  useEffect(() => {
    if (state.step !== 'done') return;
    const timer = setTimeout(() => navigate('/login'), RESET_REDIRECT_MS);
    return () => clearTimeout(timer);
  }, [state.step, navigate]);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const problem = validatePasswordReset({
      token,
      password,
      confirmPassword,
      signedInEmail: signedIn?.email ?? null,
      tokenEmail: state.step === 'form' ? state.email : null,
    });
    setError(problem);
    if (problem || !token) return;
    setBusy(true);
    try {
      const result = await api.call<typeof resetPassword>(
        { method: 'POST', path: '/api/password-reset/reset' },
        { body: { token, password } },
      );
      setState({ step: 'done', message: result.message });
    } catch (failure) {
      setError(errorMessage(failure, 'Failed to reset password'));
    } finally {
      setBusy(false);
    }
  }

  if (state.step === 'verifying') {
    return (
      <AuthCard title="Choose a new password">
        <div className="flex items-center gap-3 text-stone-700" role="status">
          <span
            className="h-5 w-5 animate-spin rounded-full border-2 border-sage-200 border-t-sage-700"
            aria-hidden="true"
          />
          Checking your reset link…
        </div>
      </AuthCard>
    );
  }
  if (state.step === 'invalid') {
    return (
      <AuthCard title="Invalid Reset Link">
        <Notice kind="error">{state.message}</Notice>
        <p className="mt-4 text-sm text-stone-600">Reset links work for one hour, once. Ask for a new one.</p>
        <Link to="/request-password-reset" className={`mt-6 block text-center ${primaryButton}`}>
          Request New Reset Link
        </Link>
      </AuthCard>
    );
  }
  if (state.step === 'done') {
    return (
      <AuthCard title="Password reset">
        <Notice kind="success">{state.message}</Notice>
        <p className="mt-4 text-sm text-stone-600">Taking you to the sign-in page…</p>
      </AuthCard>
    );
  }
  return (
    <AuthCard title="Choose a new password">
      <p className="mb-4 text-sm text-stone-600">For {state.email}</p>
      <form onSubmit={submit} className="space-y-4" noValidate>
        {error ? <Notice kind="error">{error}</Notice> : null}
        <PasswordField label="New Password" value={password} onChange={setPassword} autoComplete="new-password" />
        <PasswordField
          label="Confirm New Password"
          value={confirmPassword}
          onChange={setConfirmPassword}
          autoComplete="new-password"
        />
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? 'Saving…' : 'Reset password'}
        </button>
      </form>
    </AuthCard>
  );
}
