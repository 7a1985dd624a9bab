import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import type { getAdminSettings, saveAdminSettings } from '#common/contracts/admin/settings.ts';
import type { AdminSettings } from '#common/contracts/settings.ts';
import { rateLimitsBelowRecommended, rateLimitWarning } from '#common/settings-defaults.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { CheckboxField, InputField } from '../ui/fields.tsx';
import { FlashMessage, useFlashMessage } from '../ui/flash-message.tsx';
import { primaryButton } from '../ui/styles.ts';
import {
  fieldLabels,
  rateLimitRules,
  readRateLimit,
  type SettingsForm,
  secretFields,
  switchFields,
  textFields,
  toChanges,
  toForm,
} from './settings-form.ts';

const path: (typeof getAdminSettings)['path'] = '/api/admin/settings';
type NumberField =
  | 'maxOrdersPerUser'
  | 'shippingRate'
  | 'freeShippingThreshold'
  | 'processingFee'
  | keyof typeof rateLimitRules;
const queryKey = ['admin', 'settings'];

const switchHints: Record<(typeof switchFields)[number], string> = {
  maintenanceMode: 'Shoppers see a maintenance page; admins can still sign in and use the shop.',
  allowRegistration: 'New shoppers can create accounts.',
  requireEmailVerification: 'New accounts confirm their email before they can sign in.',
  autoApproveReviews: 'Reviews are public at once unless the automatic moderation flags them.',
  enableNewsletter: 'The checkout and the footer offer the newsletter.',
};

/** Settings tab (owner only; spec 3, 5, 9): every system setting, the keys masked, saved together. */
export default function SettingsTab() {
  const queryClient = useQueryClient();
  const { flash, show } = useFlashMessage();
  const settings = useQuery({ queryKey, queryFn: () => api.call<typeof getAdminSettings>({ method: 'GET', path }) });
  const [form, setForm] = useState<SettingsForm | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof typeof fieldLabels, string>>>({});
  const loaded = settings.data;
  useEffect(() => {
    if (loaded) setForm(toForm(loaded));
  }, [loaded]);

  const save = useMutation({
    mutationFn: (changes: NonNullable<ReturnType<typeof toChanges>['changes']>) =>
      api.call<typeof saveAdminSettings>({ method: 'POST', path }, { body: changes }),
    onSuccess: (saved: AdminSettings) => {
      queryClient.setQueryData(queryKey, saved);
      show('success', 'Settings saved');
    },
    onError: (error) => {
      console.error('Failed to save settings', error);
      show('error', errorMessage(error, 'Failed to save settings'));
    },
  });

  if (!form || !loaded) {
    return settings.error ? (
      <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800">
        {errorMessage(settings.error, 'Failed to load settings')}
      </p>
    ) : (
      <p role="status" className="text-sm text-stone-600">
        Loading settings…
      </p>
    );
  }

  const update = <K extends keyof SettingsForm>(field: K, value: SettingsForm[K]) =>
    setForm((current) => (current ? { ...current, [field]: value } : current));
  const onSubmit = (event: React.FormEvent) => {
    event.preventDefault();
    const result = toChanges(form, loaded);
    setErrors(result.errors ?? {});
    if (result.errors) {
      show('error', 'Please correct the highlighted settings.');
      return;
    }
    if (Object.keys(result.changes).length === 0) {
      show('success', 'Nothing to save: the settings are unchanged');
      return;
    }
    save.mutate(result.changes);
  };
  /** A number input of the form, labelled and checked as the setting it edits. */
  const numberInput = (
    field: NumberField,
    setting: keyof typeof fieldLabels,
    limits: { min: number; max?: number; step: number },
    hint?: string,
  ) => (
    <InputField
      key={field}
      label={fieldLabels[setting]}
      value={form[field]}
      onChange={(value) => update(field, value)}
      error={errors[setting]}
      hint={hint}
      type="number"
      inputProps={limits}
    />
  );
  const limits = Object.fromEntries(
    (Object.keys(rateLimitRules) as (keyof typeof rateLimitRules)[]).map((field) => {
      const read = readRateLimit(field, form[field]);
      return [field, 'value' in read ? read.value : rateLimitRules[field].fallback];
    }),
  ) as Record<keyof typeof rateLimitRules, number>;
  const belowRecommended = rateLimitsBelowRecommended(limits);

  return (
    <section aria-labelledby="settings-heading">
      <h2 id="settings-heading" className="font-serif text-2xl text-sage-900">
        Settings
      </h2>
      <div className="mt-4">
        <FlashMessage flash={flash} />
      </div>
      <form onSubmit={onSubmit} noValidate className="space-y-8">
        <Group title="Shop">
          {textFields.map((field) => (
            <InputField
              key={field}
              label={fieldLabels[field]}
              value={form[field]}
              onChange={(value) => update(field, value)}
              error={errors[field]}
              type={field.endsWith('Email') ? 'email' : field === 'socialUrl' ? 'url' : 'text'}
              multiline={field === 'siteDescription'}
            />
          ))}
        </Group>
        <Group title="Store rules">
          {switchFields.map((field) => (
            <CheckboxField
              key={field}
              label={fieldLabels[field]}
              checked={form[field]}
              onChange={(checked) => update(field, checked)}
              hint={switchHints[field]}
            />
          ))}
          {numberInput('maxOrdersPerUser', 'maxOrdersPerUser', { min: 1, max: 1000, step: 1 })}
        </Group>
        <Group title="Checkout">
          {numberInput('shippingRate', 'shippingRate', { min: 0, step: 0.01 })}
          {numberInput('freeShippingThreshold', 'freeShippingThreshold', { min: 0, step: 0.01 })}
          {numberInput('processingFee', 'processingFeeBasisPoints', { min: 0, max: 10, step: 0.01 })}
        </Group>
        <Group title="Rate limits">
          {(Object.keys(rateLimitRules) as (keyof typeof rateLimitRules)[]).map((field) => {
            const { min, max } = rateLimitRules[field];
            return numberInput(field, field, { min, max, step: 1 }, `${min} to ${max}`);
          })}
          <p
            className={`text-sm sm:col-span-2 ${belowRecommended.length > 0 ? 'rounded-lg bg-amber-50 px-3 py-2 text-amber-900' : 'text-stone-600'}`}
            role={belowRecommended.length > 0 ? 'note' : undefined}
          >
            {rateLimitWarning}
          </p>
        </Group>
        <Group title="API keys">
          <InputField
            label={fieldLabels.stripePublishableKey}
            value={form.stripePublishableKey}
            onChange={(value) => update('stripePublishableKey', value)}
            error={errors.stripePublishableKey}
            hint="Stripe's publishable key (pk_…), sent to the browser"
          />
          {secretFields.map((field) => (
            <div key={field}>
              <InputField
                label={fieldLabels[field]}
                value={form[field]}
                onChange={(value) => update(field, value)}
                error={errors[field]}
                type="password"
                hint={loaded[field] ? `Saved: ${loaded[field]}. Type a new key to replace it.` : 'Not set'}
                inputProps={{ autoComplete: 'off' }}
              />
              {loaded[field] ? (
                <CheckboxField
                  label={`Remove the saved ${fieldLabels[field].toLowerCase()}`}
                  checked={form.removeSecrets.includes(field)}
                  onChange={(checked) =>
                    update(
                      'removeSecrets',
                      checked ? [...form.removeSecrets, field] : form.removeSecrets.filter((name) => name !== field),
                    )
                  }
                />
              ) : null}
            </div>
          ))}
        </Group>
        <button type="submit" className={primaryButton} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save Settings'}
        </button>
      </form>
    </section>
  );
}

function Group({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <fieldset className="rounded-xl border border-sage-100 bg-white p-5">
      <legend className="px-1 font-serif text-lg text-sage-900">{title}</legend>
      <div className="grid gap-4 sm:grid-cols-2">{children}</div>
    </fieldset>
  );
}
