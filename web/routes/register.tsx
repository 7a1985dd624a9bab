import { useEffect, useMemo, useState } from 'react';
import { Link, useNavigate, useRevalidator } from 'react-router';
import { passwordStrength, type RegistrationErrors, validateRegistration } from '#common/account-rules.ts';
import { VALIDATION_DEBOUNCE_MS } from '#common/constants.ts';
import type { register } from '#common/contracts/accounts.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { AuthCard, Notice, PasswordField, primaryButton, TextField } from '#web/common/form-fields.tsx';
import { signedOutOnly } from '#web/common/guards.ts';
import { StrengthMeter } from '#web/storefront/account/strength-meter.tsx';
import { cacheUser } from '#web/storefront/account/user-cache.ts';
import type { Route } from './+types/register.ts';

export async function loader({ request, context }: Route.LoaderArgs) {
  await signedOutOnly(request, context);
  return null;
}

export const meta: Route.MetaFunction = () => [
  { title: 'Create an account · Stillwater' },
  { name: 'robots', content: 'noindex' },
];

type Form = { username: string; email: string; password: string; confirmPassword: string };

export default function Register() {
  const navigate = useNavigate();
  const revalidator = useRevalidator();
  const [form, setForm] = useState<Form>({ username: '', email: '', password: '', confirmPassword: '' });
  const [touched, setTouched] = useState<Partial<Record<keyof Form, boolean>>>({});
  const [errors, setErrors] = useState<RegistrationErrors>({});
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const strength = useMemo(() => passwordStrength(form.password), [form.password]);

  // Spec: validation runs 300 ms after the last keystroke.
  useEffect(() => {
    const timer = setTimeout(() => setErrors(validateRegistration(form)), VALIDATION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [form]);

  const set = (field: keyof Form) => (value: string) => {
    setForm((current) => ({ ...current, [field]: value }));
    setTouched((current) => ({ ...current, [field]: true }));
  };
  const shown = (field: keyof Form) => (touched[field] ? errors[field] : undefined);
  const blocked = Object.keys(validateRegistration(form)).length > 0;

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const now = validateRegistration(form);
    setErrors(now);
    setTouched({ username: true, email: true, password: true, confirmPassword: true });
    if (Object.keys(now).length > 0) return;
    setBusy(true);
    setMessage(null);
    try {
      const result = await api.call<typeof register>(
        { method: 'POST', path: '/api/auth/register' },
        { body: { username: form.username.trim(), email: form.email.trim(), password: form.password } },
      );
      if (result.verificationRequired || !result.user) {
        setMessage({ kind: 'success', text: result.message });
        return;
      }
      cacheUser(result.user);
      await navigate('/account', { replace: true });
      void revalidator.revalidate();
    } catch (error) {
      setMessage({ kind: 'error', text: errorMessage(error, 'Registration failed') });
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Create an account">
      <form onSubmit={submit} className="space-y-4" noValidate>
        {message ? <Notice kind={message.kind}>{message.text}</Notice> : null}
        <TextField
          label="Username"
          value={form.username}
          onChange={set('username')}
          error={shown('username')}
          autoComplete="username"
          name="username"
          hint="3 to 30 letters, numbers, hyphens or underscores"
        />
        <TextField
          label="Email"
          type="email"
          value={form.email}
          onChange={set('email')}
          error={shown('email')}
          autoComplete="email"
          name="email"
        />
        <PasswordField
          label="Password"
          value={form.password}
          onChange={set('password')}
          error={shown('password')}
          autoComplete="new-password"
          name="password"
        />
        {form.password ? <StrengthMeter strength={strength} /> : null}
        <PasswordField
          label="Confirm password"
          value={form.confirmPassword}
          onChange={set('confirmPassword')}
          error={shown('confirmPassword')}
          autoComplete="new-password"
          name="confirmPassword"
        />
        <button type="submit" disabled={busy || blocked} className={primaryButton}>
          {busy ? 'Creating your account…' : 'Create account'}
        </button>
      </form>
      <p className="mt-6 text-sm text-stone-600">
        Already have an account?{' '}
        <Link to="/login" className="font-medium text-sage-700 hover:underline">
          Sign in
        </Link>
      </p>
    </AuthCard>
  );
}
