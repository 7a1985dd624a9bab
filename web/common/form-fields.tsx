import { useId, useState } from 'react';

type FieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null | undefined;
  type?: 'text' | 'email';
  autoComplete?: string;
  name?: string;
  hint?: string;
};

const input =
  'mt-1 block w-full rounded-lg border bg-white px-3 py-2.5 text-stone-900 focus:ring-2 focus:ring-sage-200 focus:outline-none';

/** The error under a field; the field points at it with aria-describedby. */
function FieldError({ id, error }: { id: string; error: string | null | undefined }) {
  return error ? (
    <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
      {error}
    </p>
  ) : null;
}

/** A labelled input with its error under it, announced to screen readers. */
export function TextField({ label, value, onChange, error, type = 'text', autoComplete, name, hint }: FieldProps) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      <input
        id={id}
        name={name}
        type={type}
        value={value}
        autoComplete={autoComplete}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={`${input} ${error ? 'border-red-600' : 'border-sage-200 focus:border-sage-500'}`}
      />
      {hint && !error ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A password input with a Show/Hide toggle. */
export function PasswordField({
  label,
  value,
  onChange,
  error,
  autoComplete = 'current-password',
  name,
}: Omit<FieldProps, 'type'>) {
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium text-stone-800">
        {label}
      </label>
      <div className="relative">
        <input
          id={id}
          name={name}
          type={shown ? 'text' : 'password'}
          value={value}
          autoComplete={autoComplete}
          onChange={(event) => onChange(event.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className={`${input} pr-16 ${error ? 'border-red-600' : 'border-sage-200 focus:border-sage-500'}`}
        />
        <button
          type="button"
          onClick={() => setShown(!shown)}
          aria-label={shown ? `Hide ${label.toLowerCase()}` : `Show ${label.toLowerCase()}`}
          aria-pressed={shown}
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded px-2 py-1 text-sm font-medium text-sage-700 hover:bg-sage-50"
        >
          {shown ? 'Hide' : 'Show'}
        </button>
      </div>
      <FieldError id={id} error={error} />
    </div>
  );
}

/** A message box: errors in red, confirmations in green. */
export function Notice({ kind, children }: { kind: 'error' | 'success' | 'info'; children: React.ReactNode }) {
  const tone =
    kind === 'error'
      ? 'border-red-200 bg-red-50 text-red-800'
      : kind === 'success'
        ? 'border-green-200 bg-green-50 text-green-800'
        : 'border-sage-200 bg-sage-50 text-sage-900';
  return (
    <div role={kind === 'error' ? 'alert' : 'status'} className={`rounded-lg border px-4 py-3 text-sm ${tone}`}>
      {children}
    </div>
  );
}

export const primaryButton =
  'w-full rounded-full bg-sage-700 px-6 py-3 font-medium text-white hover:bg-sage-800 disabled:cursor-not-allowed disabled:bg-stone-300 disabled:text-stone-700';
export const secondaryButton =
  'w-full rounded-full border border-sage-300 px-6 py-3 font-medium text-sage-800 hover:bg-sage-50';

/** The frame of the sign-in, registration and reset pages. */
export function AuthCard({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="mx-auto w-full max-w-md px-4 py-12">
      <div className="rounded-2xl border border-sage-100 bg-white p-8 shadow-sm">
        <h1 className="font-serif text-3xl text-sage-900">{title}</h1>
        <div className="mt-6">{children}</div>
      </div>
    </div>
  );
}
