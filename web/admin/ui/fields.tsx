import { useId } from 'react';
import { input, label as labelStyle } from './styles.ts';

type InputFieldProps = {
  label: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | undefined;
  hint?: string | undefined;
  type?: 'text' | 'email' | 'url' | 'number' | 'password';
  multiline?: boolean;
  /** A multiline field's height in lines. */
  rows?: number;
  inputProps?: React.InputHTMLAttributes<HTMLInputElement>;
};

/** A labelled input (or textarea) of an admin form, with its hint or error announced with it. */
export function InputField({
  label,
  value,
  onChange,
  error,
  hint,
  type = 'text',
  multiline,
  rows = 3,
  inputProps,
}: InputFieldProps) {
  const id = useId();
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;
  const shared = {
    id,
    value,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy,
    className: `mt-1 ${input} ${error ? 'border-red-600' : ''}`,
  };
  return (
    <div>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      {multiline ? (
        <textarea {...shared} rows={rows} onChange={(event) => onChange(event.target.value)} />
      ) : (
        <input {...shared} {...inputProps} type={type} onChange={(event) => onChange(event.target.value)} />
      )}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : hint ? (
        <p id={`${id}-hint`} className="mt-1 text-xs text-stone-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled checkbox with an optional line saying what it does. */
export function CheckboxField({
  label,
  checked,
  onChange,
  hint,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  hint?: string;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="mt-1 h-4 w-4 accent-sage-700"
      />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-stone-800">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-xs text-stone-600">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
