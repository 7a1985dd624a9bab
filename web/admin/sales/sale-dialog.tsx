import { useQuery } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { VALIDATION_DEBOUNCE_MS } from '#common/constants.ts';
import type { AdminSale, listSaleTargets, SaleInputBody } from '#common/contracts/admin/sales.ts';
import { COUPON_CODE_MAX, discountTypeLabels, SALE_DESCRIPTION_MAX, saleTypeLabels } from '#common/sale-rules.ts';
import { errorMessage } from '#web/common/api-client.ts';
import { api } from '#web/common/browser-api.ts';
import { CheckboxField, InputField } from '../ui/fields.tsx';
import { SelectField } from '../ui/list-controls.tsx';
import { Modal } from '../ui/modal.tsx';
import { input, label as labelStyle, primaryButton, secondaryButton } from '../ui/styles.ts';
import { emptySaleForm, readSaleForm, type SaleFormErrors, type SaleFormState, saleFormOf } from './sale-form.ts';

const targetsPath = '/api/sales/targets' as (typeof listSaleTargets)['path'];
const typeOptions = (Object.keys(saleTypeLabels) as SaleFormState['type'][]).map((value) => ({
  value,
  label: saleTypeLabels[value],
}));
const discountOptions = (Object.keys(discountTypeLabels) as SaleFormState['discountType'][]).map((value) => ({
  value,
  label: discountTypeLabels[value],
}));

/**
 * The category, product or SKU a sale applies to: a search box and the matching choices (the
 * server's first 50), the sale's current target kept among them when editing.
 */
function TargetPicker({
  type,
  value,
  current,
  error,
  onChange,
}: {
  type: 'category' | 'product' | 'sku';
  value: string;
  current: { id: string; name: string } | null;
  error: string | undefined;
  onChange: (id: string) => void;
}) {
  const id = useId();
  const noun = type === 'sku' ? 'SKU' : type;
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), VALIDATION_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);
  const targets = useQuery({
    queryKey: ['admin', 'sales', 'targets', type, search],
    queryFn: () => api.call<typeof listSaleTargets>({ method: 'GET', path: targetsPath }, { query: { type, search } }),
  });
  const found = targets.data?.targets ?? [];
  const options = current && !found.some((target) => target.id === current.id) ? [current, ...found] : found;
  return (
    <fieldset className="rounded-xl border border-sage-100 p-3">
      <legend className="px-1 text-sm font-medium text-stone-800">Sale target</legend>
      <label htmlFor={`${id}-search`} className={labelStyle}>
        Find a {noun}
      </label>
      <input
        id={`${id}-search`}
        type="search"
        value={text}
        maxLength={100}
        onChange={(event) => setText(event.target.value)}
        className={`mt-1 ${input}`}
      />
      <label htmlFor={`${id}-target`} className={`mt-3 ${labelStyle}`}>
        {noun.charAt(0).toUpperCase() + noun.slice(1)} (required)
      </label>
      <select
        id={`${id}-target`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`mt-1 ${input} ${error ? 'border-red-600' : ''}`}
      >
        <option value="">
          {targets.isPending ? 'Loading…' : options.length === 0 ? `No ${noun} found` : `Choose a ${noun}`}
        </option>
        {options.map((target) => (
          <option key={target.id} value={target.id}>
            {target.name}
          </option>
        ))}
      </select>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : targets.error ? (
        <p className="mt-1 text-sm text-red-700">{errorMessage(targets.error, `Failed to load the ${noun} list`)}</p>
      ) : null}
    </fieldset>
  );
}

/**
 * The create-sale modal (spec 2 and 5), also the edit form. Checked here as spec 5 says, then by
 * the server; a field the server refuses shows its message beside the field.
 */
export function SaleDialog({
  sale,
  open,
  busy,
  serverError,
  onSave,
  onClose,
}: {
  /** The sale being edited; null to create one. */
  sale: AdminSale | null;
  open: boolean;
  busy: boolean;
  /** The server's refusal of the last save: its message and the field it names, if any. */
  serverError: { message: string; field: string | undefined } | null;
  onSave: (body: SaleInputBody) => void;
  onClose: () => void;
}) {
  const [form, setForm] = useState<SaleFormState>(() => (sale ? saleFormOf(sale) : emptySaleForm()));
  const [errors, setErrors] = useState<SaleFormErrors>({});
  const set = <Key extends keyof SaleFormState>(key: Key, value: SaleFormState[Key]) => {
    setForm((current) => ({ ...current, [key]: value }));
    setErrors((current) => ({ ...current, [key]: undefined }));
  };
  const fieldError = (key: keyof SaleFormState) =>
    errors[key] ?? (serverError?.field === key ? serverError.message : undefined);
  const formRef = useRef<HTMLFormElement>(null);
  // After a refused save (here or by the server), the first field named takes the focus, so a
  // keyboard or screen-reader user lands on what to correct; editing a field moves nothing.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals === 0 && !serverError) return;
    formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals, serverError]);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const read = readSaleForm(form);
    if ('errors' in read) {
      setErrors(read.errors);
      setRefusals((count) => count + 1);
      return;
    }
    onSave(read.body);
  };
  const money = form.discountType !== 'percentage';
  const title = sale ? 'Edit Sale' : 'Create Sale';
  const formId = useId();
  const general = serverError && !(serverError.field && serverError.field in form) ? serverError.message : null;

  return (
    <Modal
      open={open}
      onClose={onClose}
      title={title}
      size="lg"
      footer={
        <>
          <button type="button" className={secondaryButton} onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form={formId} className={primaryButton} disabled={busy}>
            {busy ? (sale ? 'Saving…' : 'Creating…') : sale ? 'Save Changes' : 'Create Sale'}
          </button>
        </>
      }
    >
      <form ref={formRef} id={formId} onSubmit={submit} noValidate className="grid gap-4 sm:grid-cols-2">
        {general ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 text-sm text-red-800 sm:col-span-2">
            {general}
          </p>
        ) : null}
        <div className="sm:col-span-2">
          <InputField
            label="Sale name (required)"
            value={form.name}
            onChange={(value) => set('name', value)}
            error={fieldError('name')}
            inputProps={{ required: true, maxLength: 120 }}
          />
        </div>
        <div className="sm:col-span-2">
          <InputField
            label="Description"
            value={form.description}
            onChange={(value) => set('description', value)}
            error={fieldError('description')}
            multiline
            hint={`Optional. At most ${SALE_DESCRIPTION_MAX} characters.`}
          />
        </div>
        <SelectField
          label="Sale type (required)"
          value={form.type}
          options={typeOptions}
          onChange={(value) => {
            set('type', value);
            set('targetId', '');
          }}
        />
        <SelectField
          label="Discount type (required)"
          value={form.discountType}
          options={discountOptions}
          onChange={(value) => set('discountType', value)}
        />
        {form.type !== 'global' ? (
          <div className="sm:col-span-2">
            <TargetPicker
              key={form.type}
              type={form.type}
              value={form.targetId}
              current={
                sale && sale.type === form.type && sale.targetId
                  ? { id: sale.targetId, name: sale.targetName ?? sale.targetId }
                  : null
              }
              error={fieldError('targetId')}
              onChange={(id) => set('targetId', id)}
            />
          </div>
        ) : null}
        <InputField
          label={money ? 'Discount value in USD (required)' : 'Discount value in % (required)'}
          type="number"
          value={form.discountValue}
          onChange={(value) => set('discountValue', value)}
          error={fieldError('discountValue')}
          hint={
            form.discountType === 'fixed_price'
              ? 'The price each item in scope sells for.'
              : form.discountType === 'fixed_amount'
                ? 'Taken off each item in scope.'
                : 'From 0 to 100.'
          }
          inputProps={{ required: true, min: 0, step: money ? 0.01 : 1, ...(money ? {} : { max: 100 }) }}
        />
        <InputField
          label="Coupon code"
          value={form.couponCode}
          onChange={(value) => set('couponCode', value.toUpperCase())}
          error={fieldError('couponCode')}
          hint="Optional. Without a code the sale applies by itself."
          inputProps={{ maxLength: COUPON_CODE_MAX, autoCapitalize: 'characters', spellCheck: false }}
        />
        <DateField
          label="Start date (required)"
          value={form.startDate}
          error={fieldError('startDate')}
          onChange={(value) => set('startDate', value)}
        />
        <DateField
          label="End date (required)"
          value={form.endDate}
          error={fieldError('endDate')}
          onChange={(value) => set('endDate', value)}
        />
        <InputField
          label="Usage limit"
          type="number"
          value={form.usageLimit}
          onChange={(value) => set('usageLimit', value)}
          error={fieldError('usageLimit')}
          hint="Optional: paid orders that may use the sale (at least 1). Empty: unlimited."
          inputProps={{ min: 1, step: 1 }}
        />
        <InputField
          label="Minimum purchase in USD"
          type="number"
          value={form.minimumPurchase}
          onChange={(value) => set('minimumPurchase', value)}
          error={fieldError('minimumPurchase')}
          hint="Optional: the cart's subtotal the sale needs."
          inputProps={{ min: 0, step: 0.01 }}
        />
        {form.type === 'product' ? (
          <div className="sm:col-span-2">
            <CheckboxField
              label="Flash sale"
              checked={form.isFlashSale}
              onChange={(checked) => set('isFlashSale', checked)}
              hint="Shows a countdown on the product page."
            />
          </div>
        ) : null}
        {sale ? null : (
          <div className="sm:col-span-2">
            <CheckboxField
              label="Active"
              checked={form.active}
              onChange={(checked) => set('active', checked)}
              hint="Off: the sale is saved and applies only once activated."
            />
          </div>
        )}
      </form>
    </Modal>
  );
}

/** A labelled date and time input (the admin's time zone). */
function DateField({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyle}>
        {label}
      </label>
      <input
        id={id}
        type="datetime-local"
        required
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        className={`mt-1 ${input} ${error ? 'border-red-600' : ''}`}
      />
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-red-700">
          {error}
        </p>
      ) : null}
    </div>
  );
}
