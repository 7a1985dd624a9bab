import { useState } from 'react';
import { Link, useNavigate, useRevalidator, useSearchParams } from 'react-router';
import type { login } from '#common/contracts/accounts.ts';
import { afterLogin } from '#web/common/after-login.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { AuthCard, Notice, PasswordField, primaryButton, TextField } from '#web/common/form-fields.tsx';
import { signedOutOnly } from '#web/common/guards.ts';
import { cacheUser } from '#web/storefront/account/user-cache.ts';
import type { Route } from './+types/login.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  await signedOutOnly(request, context);
  return null;
}

export const meta: Route.MetaFunction = () => [
  { title: 'Sign in · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

export default function Login() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      const result = await api.call<typeof login>(
        { method: 'POST', path: '/api/auth/login' },
        { body: { email, password } },
      );
      setMessage(result.message);
      cacheUser(result.user);
      await navigate(afterLogin(params.get('redirect')), { replace: true });
      void revalidator.revalidate();
    } catch (error) {
      setMessage(errorMessage(error, 'Login failed due to an unknown error'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Sign in">
      <form onSubmit={submit} className="space-y-4" noValidate>
        {/* Spec: the error box stays hidden when the message reads 'Login successful'. */}
        {message && message !== 'Login successful' ? <Notice kind="error">{message}</Notice> : null}
        <TextField label="Email" type="email" value={email} onChange={setEmail} autoComplete="email" name="email" />
        <PasswordField label="Password" value={password} onChange={setPassword} name="password" />
        <button type="submit" disabled={busy} className={primaryButton}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <div className="mt-6 flex flex-col gap-2 text-sm">
        <Link to="/request-password-reset" className="text-sage-700 hover:underline">
          Forgot your password?
        </Link>
        <p className="text-stone-600">
          New here?{' '}
          <Link to="/register" className="font-medium text-sage-700 hover:underline">
            Create an account
          </Link>
        </p>
      </div>
    </AuthCard>
  );
}
