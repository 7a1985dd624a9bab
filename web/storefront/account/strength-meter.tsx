import type { PasswordStrength } from '#common/account-rules.ts';

const colours = ['bg-red-600', 'bg-orange-500', 'bg-amber-500', 'bg-lime-600', 'bg-green-700'];

/** The registration password's strength: a bar of four, its label and what would make it stronger. */
export function StrengthMeter({ strength }: { strength: PasswordStrength }) {
  return (
    <div aria-live="polite">
      <div className="flex gap-1" aria-hidden="true">
        {[1, 2, 3, 4].map((step) => (
          <span
            key={step}
            className={`h-1.5 flex-1 rounded-full ${strength.score >= step ? colours[strength.score] : 'bg-stone-200'}`}
          />
        ))}
      </div>
      <p className="mt-1 text-sm text-stone-700">
        Password strength: <strong data-testid="strength-label">{strength.label}</strong>
      </p>
      {strength.suggestions.length > 0 ? (
        <ul className="mt-1 list-disc pl-5 text-xs text-stone-600">
          {strength.suggestions.map((suggestion) => (
            <li key={suggestion}>{suggestion}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
