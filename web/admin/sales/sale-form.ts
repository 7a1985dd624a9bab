import type { AdminSale, SaleInputBody } from '#common/contracts/admin/sales.ts';
import { centsToDollars, dollarsToCents } from '#common/money.ts';
import { COUPON_CODE_PATTERN, SALE_MONEY_MAX, SALE_NAME_MAX } from '#common/sale-rules.ts';

type SaleType = AdminSale['type'];
type DiscountType = AdminSale['discountType'];

/** The create-sale form as typed: text fields as the inputs hold them, money in dollars (spec 5). */
export type SaleFormState = {
  name: string;
  description: string;
  type: SaleType;
  targetId: string;
  discountType: DiscountType;
  /** A percentage, or dollars for a fixed amount or price. */
  discountValue: string;
  couponCode: string;
  /** datetime-local values, in the admin's time zone. */
  startDate: string;
  endDate: string;
  /** Empty: unlimited. */
  usageLimit: string;
  /** Dollars; empty is 0. */
  minimumPurchase: string;
  isFlashSale: boolean;
  active: boolean;
};

export type SaleFormErrors = Partial<Record<keyof SaleFormState, string>>;

const pad = (n: number) => String(n).padStart(2, '0');

/** An instant as a datetime-local input shows it (local time, to the minute). */
export function toLocalInput(iso: string | Date): string {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** A datetime-local value as an ISO instant; null when it is not a date. */
export function fromLocalInput(value: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(value)) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** A new sale: from now for a week, switched off until activated. */
export function emptySaleForm(now = new Date()): SaleFormState {
  return {
    name: '',
    description: '',
    type: 'global',
    targetId: '',
    discountType: 'percentage',
    discountValue: '',
    couponCode: '',
    startDate: toLocalInput(now),
    endDate: toLocalInput(new Date(now.getTime() + 7 * 24 * 60 * 60 * 1000)),
    usageLimit: '',
    minimumPurchase: '',
    isFlashSale: false,
    active: false,
  };
}

/** The form of an existing sale (edit), money back in dollars. */
export function saleFormOf(sale: AdminSale): SaleFormState {
  return {
    name: sale.name,
    description: sale.description,
    type: sale.type,
    targetId: sale.targetId ?? '',
    discountType: sale.discountType,
    discountValue: String(
      sale.discountType === 'percentage' ? sale.discountValue : centsToDollars(sale.discountValue).toFixed(2),
    ),
    couponCode: sale.couponCode ?? '',
    startDate: toLocalInput(sale.startDate),
    endDate: toLocalInput(sale.endDate),
    usageLimit: sale.usageLimit === null ? '' : String(sale.usageLimit),
    minimumPurchase: sale.minimumPurchase ? centsToDollars(sale.minimumPurchase).toFixed(2) : '',
    isFlashSale: sale.isFlashSale,
    active: sale.active,
  };
}

const dollars = /^\d+(\.\d{1,2})?$/;

/**
 * The form checked as spec 5 says (the server checks it again) and, when it holds, the body to
 * send: the percentage whole, dollars converted to cents, dates as instants, the code upper-cased.
 */
export function readSaleForm(form: SaleFormState): { body: SaleInputBody } | { errors: SaleFormErrors } {
  const errors: SaleFormErrors = {};
  const name = form.name.trim();
  if (name === '') errors.name = 'Sale name is required';
  else if (name.length > SALE_NAME_MAX) errors.name = `At most ${SALE_NAME_MAX} characters`;
  if (form.type !== 'global' && form.targetId === '')
    errors.targetId = `Choose the ${form.type === 'sku' ? 'SKU' : form.type}`;

  const rawValue = form.discountValue.trim();
  let discountValue = 0;
  if (rawValue === '') errors.discountValue = 'Discount value is required';
  else if (form.discountType === 'percentage') {
    if (!/^\d+$/.test(rawValue)) errors.discountValue = 'A whole percentage, 0 or more';
    else if (Number(rawValue) > 100) errors.discountValue = 'A percentage is at most 100';
    else discountValue = Number(rawValue);
  } else if (!dollars.test(rawValue)) errors.discountValue = 'An amount of 0 or more, with at most 2 decimals';
  else discountValue = dollarsToCents(Number(rawValue));
  if (discountValue > SALE_MONEY_MAX) errors.discountValue = 'This amount is too large';

  const couponCode = form.couponCode.trim().toUpperCase();
  if (couponCode !== '' && !COUPON_CODE_PATTERN.test(couponCode)) {
    errors.couponCode = 'A coupon code is 2 to 40 letters, digits, - or _';
  }

  const startDate = fromLocalInput(form.startDate);
  const endDate = fromLocalInput(form.endDate);
  if (!startDate) errors.startDate = 'Start date is required';
  if (!endDate) errors.endDate = 'End date is required';
  else if (startDate && endDate <= startDate) errors.endDate = 'The end date must be after the start date';

  const rawLimit = form.usageLimit.trim();
  if (rawLimit !== '' && (!/^\d+$/.test(rawLimit) || Number(rawLimit) < 1)) {
    errors.usageLimit = 'A whole number, at least 1 (empty: unlimited)';
  }
  const rawMinimum = form.minimumPurchase.trim();
  if (rawMinimum !== '' && !dollars.test(rawMinimum)) {
    errors.minimumPurchase = 'An amount of 0 or more, with at most 2 decimals';
  }
  const minimumPurchase = rawMinimum === '' ? 0 : dollarsToCents(Number(rawMinimum));
  if (minimumPurchase > SALE_MONEY_MAX) errors.minimumPurchase = 'This amount is too large';

  if (Object.keys(errors).length > 0 || !startDate || !endDate) return { errors };
  return {
    body: {
      name,
      description: form.description.trim(),
      type: form.type,
      targetId: form.type === 'global' ? null : form.targetId,
      discountType: form.discountType,
      discountValue,
      couponCode: couponCode === '' ? null : couponCode,
      isFlashSale: form.type === 'product' && form.isFlashSale,
      startDate,
      endDate,
      usageLimit: rawLimit === '' ? null : Number(rawLimit),
      minimumPurchase,
      active: form.active,
    },
  };
}

/** How the table writes a sale's discount: 15%, $5.00 off, or a fixed $19.99. */
export function discountText(
  sale: Pick<AdminSale, 'discountType' | 'discountValue'>,
  format: (cents: number) => string,
) {
  if (sale.discountType === 'percentage') return `${sale.discountValue}% off`;
  if (sale.discountType === 'fixed_amount') return `${format(sale.discountValue)} off`;
  return `${format(sale.discountValue)} each`;
}
