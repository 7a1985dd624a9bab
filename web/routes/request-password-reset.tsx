import { useState } from 'react';
import { Link } from 'react-router';
import { validateResetRequest } from '#common/account-rules.ts';
import type { requestPasswordReset } from '#common/contracts/accounts.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { AuthCard, Notice, primaryButton, secondaryButton, TextField } from '#web/common/form-fields.tsx';
import { signedOutOnly } from '#web/common/guards.ts';
import type { Route } from './+types/request-password-reset.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  await signedOutOnly(request, context);
  return null;
}

export const meta: Route.MetaFunction = () => [
  { title: 'Reset your password · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

export default function RequestPasswordReset() {
  const [email, setEmail] = useState('');
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const problem = validateResetRequest(email);
    if (problem) {
      setMessage({ kind: 'error', text: problem });
      return;
    }
    setBusy(true);
    setMessage(null);
    try {
      const result = await api.call<typeof requestPasswordReset>(
        { method: 'POST', path: '/api/password-reset/request' },
        { body: { email: email.trim() } },
      );
      setMessage({ kind: 'success', text: result.message });
    } catch (error) {
      setMessage({
        kind: 'error',
        text: errorMessage(error, 'Failed to send reset email', 'Network error. Please try again.'),
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Reset your password">
      <p className="mb-4 text-sm text-stone-600">
        Enter the email address of your account and we will send you a link to choose a new password.
      </p>
      <form onSubmit={submit} className="space-y-4" noValidate>
        {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
        <TextField label="Email" type="email" value={email} onChange={setEmail} autoComplete="email" name="email" />
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? 'Sending…' : 'Send Reset Link'}
        </button>
        <Link to="/login" className={`block text-center ${secondaryButton}`}>
          Back to Login
        </Link>
      </form>
    </AuthCard>
  );
}
