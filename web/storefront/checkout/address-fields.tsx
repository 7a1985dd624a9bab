import { useId } from 'react';
import type { DraftAddress } from '#common/contracts/checkout.ts';
import { TextField } from '#web/common/form-fields.tsx';

/** The countries the shop ships to, the United States first (tax and free shipping are by US state). */
export const countries = [
  ['US', 'United States'],
  ['CA', 'Canada'],
  ['GB', 'United Kingdom'],
  ['IE', 'Ireland'],
  ['AU', 'Australia'],
  ['NZ', 'New Zealand'],
  ['DE', 'Germany'],
  ['FR', 'France'],
  ['NL', 'Netherlands'],
  ['BE', 'Belgium'],
  ['ES', 'Spain'],
  ['IT', 'Italy'],
  ['SE', 'Sweden'],
  ['DK', 'Denmark'],
  ['NO', 'Norway'],
  ['CH', 'Switzerland'],
  ['AT', 'Austria'],
  ['JP', 'Japan'],
  ['SG', 'Singapore'],
] as const;

/**
 * A postal address with the browser's autofill names (`shipping name`, `billing postal-code`, …),
 * so a saved address fills the right section.
 */
export function AddressFields({
  legend,
  section,
  value,
  onChange,
}: {
  legend: string;
  section: 'shipping' | 'billing';
  value: DraftAddress;
  onChange: (next: DraftAddress) => void;
}) {
  const countryId = useId();
  const field = (name: keyof DraftAddress) => (next: string) => onChange({ ...value, [name]: next });
  const us = value.country === 'US';
  return (
    <fieldset className="grid gap-4 sm:grid-cols-6">
      <legend className="mb-3 font-serif text-xl text-sage-900 sm:col-span-6">{legend}</legend>
      <div className="sm:col-span-6">
        <TextField
          label="Full name"
          name={`${section}-name`}
          value={value.name}
          onChange={field('name')}
          autoComplete={`${section} name`}
        />
      </div>
      <div className="sm:col-span-6">
        <TextField
          label="Street address"
          name={`${section}-street`}
          value={value.street}
          onChange={field('street')}
          autoComplete={`${section} address-line1`}
        />
      </div>
      <div className="sm:col-span-6">
        <TextField
          label="Apartment, suite, etc. (optional)"
          name={`${section}-line2`}
          value={value.line2}
          onChange={field('line2')}
          autoComplete={`${section} address-line2`}
        />
      </div>
      <div className="sm:col-span-3">
        <TextField
          label="City"
          name={`${section}-city`}
          value={value.city}
          onChange={field('city')}
          autoComplete={`${section} address-level2`}
        />
      </div>
      <div className="sm:col-span-3">
        <TextField
          label={us ? 'State' : 'State / Province (optional)'}
          name={`${section}-state`}
          value={value.state}
          onChange={field('state')}
          autoComplete={`${section} address-level1`}
        />
      </div>
      <div className="sm:col-span-3">
        <TextField
          label={us ? 'ZIP code' : 'Postal code'}
          name={`${section}-zip`}
          value={value.zipCode}
          onChange={field('zipCode')}
          autoComplete={`${section} postal-code`}
        />
      </div>
      <div className="sm:col-span-3">
        <label htmlFor={countryId} className="block text-sm font-medium text-stone-800">
          Country
        </label>
        <select
          id={countryId}
          name={`${section}-country`}
          value={value.country}
          onChange={(event) => onChange({ ...value, country: event.target.value })}
          autoComplete={`${section} country`}
          className="mt-1 block w-full rounded-lg border border-sage-200 bg-white px-3 py-2.5 text-stone-900 focus:border-sage-500 focus:ring-2 focus:ring-sage-200 focus:outline-none"
        >
          {countries.map(([code, name]) => (
            <option key={code} value={code}>
              {name}
            </option>
          ))}
        </select>
      </div>
    </fieldset>
  );
}
