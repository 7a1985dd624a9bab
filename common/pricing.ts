/**
 * The one place prices are computed: the server decides with it, the cart previews with it.
 * Plain TypeScript, all money in integer cents (spec sections 5 and 9, design "Prices and
 * discounts" and "Totals").
 */
import { dollarsToCents, effectivePrice } from './money.ts';
import { salesTax } from './tax.ts';

export type PricingLine = {
  /** The cart line's own key (product id + sku id), echoed back. */
  key: string;
  productId: string;
  /** Ids of the product's categories (for category-scoped sales). */
  categoryIds: readonly string[];
  skuId: string | null;
  title: string;
  /** Integer, at least 1. */
  quantity: number;
  /** The variant's (else the product's) price, cents. */
  price: number;
  /** The variant's (else the product's) sale price, cents. */
  salePrice: number | null;
};

/** A discount that may lower line prices: a sale (automatic when code is null) or a coupon code. */
export type Discount = {
  /** Upper-case coupon code; null: applies by itself (a running sale without a coupon). */
  code: string | null;
  kind: 'percentage' | 'fixed_amount' | 'fixed_price';
  /** A percent (0-100) for 'percentage'; cents off a unit for 'fixed_amount'; the unit price in cents for 'fixed_price'. */
  value: number;
  /** A 'sku' target is compared with the line's skuId. */
  scope: { type: 'global' | 'category' | 'product' | 'sku'; targetId: string | null };
  /** Cents. A code is compared with the cart's subtotal before codes; a running sale with the subtotal before sales. */
  minimumPurchase: number;
};

export type PricingSettings = { shippingRate: number; freeShippingThreshold: number; processingFeeBasisPoints: number };

/** Null: the shipping address is not complete yet. */
export type PricingAddress = { country: string; state: string } | null;

export type PricedLine = {
  key: string;
  /** What the shopper pays per unit. */
  unitPrice: number;
  /** The unit price before codes: the sale price (own or a running sale's) if any, else the price. */
  originalUnitPrice: number;
  /** unitPrice × quantity. */
  lineTotal: number;
  /** The code that gave unitPrice; null when no code lowered this line. */
  appliedCode: string | null;
  /** The line has a sale price (its own or a running sale's), so codes do not apply to it. */
  onSale: boolean;
};

export type CartPrice = {
  lines: PricedLine[];
  /** Sum of the lines at their sale (or regular) price, before codes. */
  subtotal: number;
  /** What the codes took off. */
  discount: number;
  /** Null (shown as N/A) until the address is complete. */
  shipping: number | null;
  tax: number;
  processingFee: number;
  total: number;
  /** Codes entered that lower no line's price, each with the product named in the refusal, in the order entered. */
  refused: { code: string; product: string }[];
};

/** A discount code as entered, trimmed and upper-cased (spec 5). */
export function normalizeCode(raw: string): string {
  return raw.trim().toUpperCase();
}

/** The codes after adding one: ignored when empty after normalising or already present. */
export function addCode(codes: readonly string[], raw: string): string[] {
  const code = normalizeCode(raw);
  if (code === '' || codes.includes(code)) return [...codes];
  return [...codes, code];
}

/** The spec's refusal of a code that gives no better price. */
export function refusalMessage(code: string, product: string): string {
  return `Code "${code}" does not improve the price for ${product}`;
}

const percentValue = /^(\d{1,3})\s*%$/;
const dollarValue = /^\$?\s*(\d{1,7}(?:\.\d{1,2})?)$/;

/**
 * A product's own code entry as a Discount on that product: '10%' takes 10 percent off, a plain
 * amount such as '15.00' takes that many dollars off a unit. Null when the code is empty or the
 * value is not a whole percent from 0 to 100 or a dollar amount with at most two decimals.
 */
export function productCodeDiscount(productId: string, entry: { code: string; value: string }): Discount | null {
  const code = normalizeCode(entry.code);
  if (code === '') return null;
  const value = entry.value.trim();
  const scope = { type: 'product', targetId: productId } as const;
  const percent = percentValue.exec(value);
  if (percent) {
    const p = Number(percent[1]);
    return p <= 100 ? { code, kind: 'percentage', value: p, scope, minimumPurchase: 0 } : null;
  }
  const dollars = dollarValue.exec(value);
  if (dollars)
    return { code, kind: 'fixed_amount', value: dollarsToCents(Number(dollars[1])), scope, minimumPurchase: 0 };
  return null;
}

/**
 * The unit price a discount gives a line priced `price` (its regular price), in whole cents,
 * never below zero and never above `price`.
 */
export function discountedPrice(discount: Pick<Discount, 'kind' | 'value'>, price: number): number {
  let result: number;
  switch (discount.kind) {
    case 'percentage': {
      const percent = Math.min(100, Math.max(0, discount.value));
      result = Math.round((price * (100 - percent)) / 100);
      break;
    }
    case 'fixed_amount':
      result = Math.round(price - Math.max(0, discount.value));
      break;
    case 'fixed_price':
      result = Math.round(discount.value);
      break;
  }
  return Math.min(price, Math.max(0, result));
}

/** What a discount's scope and a sale price are judged by: a cart line, or a product or variant the catalog shows. */
export type PricedItem = Pick<PricingLine, 'productId' | 'categoryIds' | 'skuId' | 'price' | 'salePrice'>;

/** Whether a discount's scope covers a cart line (or a product or variant). */
export function isInScope(discount: Pick<Discount, 'scope'>, line: Omit<PricedItem, 'price' | 'salePrice'>): boolean {
  const { type, targetId } = discount.scope;
  switch (type) {
    case 'global':
      return true;
    case 'category':
      return targetId !== null && line.categoryIds.includes(targetId);
    case 'product':
      return line.productId === targetId;
    case 'sku':
      return targetId !== null && line.skuId === targetId;
  }
}

/**
 * The unit price before codes: the item's sale price, else its price, lowered to what a running
 * sale in scope gives when that is lower (each computed from the regular price). `running` are the
 * sales (without a code) whose minimum the cart meets.
 */
export function priceBeforeCodes(item: PricedItem, running: readonly Pick<Discount, 'kind' | 'value' | 'scope'>[]) {
  let start = effectivePrice(item.price, item.salePrice);
  for (const sale of running) {
    if (isInScope(sale, item)) start = Math.min(start, discountedPrice(sale, item.price));
  }
  return start;
}

/**
 * The sale price the catalog shows for a product or variant: what the cart starts one unit at
 * when that is below the price, else its own sale price as stored. Only sales without a code and
 * without a minimum purchase count: a minimum is the cart's to judge, so it is no unit price.
 */
export function shownSalePrice(item: PricedItem, discounts: readonly Discount[]): number | null {
  const start = priceBeforeCodes(
    item,
    discounts.filter((d) => d.code === null && d.minimumPurchase <= 0),
  );
  return start < item.price ? start : item.salePrice;
}

/**
 * Prices a cart. Each line starts at its sale price, else its price; a running sale in scope
 * gives it a sale price when that is lower. A line with a sale price keeps it. Other lines take
 * the lowest price any entered code in scope gives them (codes at or above their minimum
 * purchase). Every discount is computed from the line's regular price. Shipping is free when the
 * subtotal before codes reaches the threshold, so entering a code never raises the total.
 */
export function priceCart(input: {
  lines: readonly PricingLine[];
  discounts: readonly Discount[];
  codes: readonly string[];
  settings: PricingSettings;
  address: PricingAddress;
}): CartPrice {
  const { lines, discounts, settings, address } = input;
  const codes = input.codes.reduce<string[]>((all, raw) => addCode(all, raw), []);
  const coupons = discounts.flatMap((d) => (d.code === null ? [] : [{ ...d, code: normalizeCode(d.code) }]));

  // Running sales act as sale prices; their minimum is judged on the cart before them.
  const beforeSales = lines.reduce((sum, line) => sum + effectivePrice(line.price, line.salePrice) * line.quantity, 0);
  const running = discounts.filter((d) => d.code === null && d.minimumPurchase <= beforeSales);
  const started = lines.map((line) => {
    const start = priceBeforeCodes(line, running);
    return { line, start, onSale: start < line.price };
  });
  const subtotal = started.reduce((sum, { line, start }) => sum + start * line.quantity, 0);

  const usable = coupons.filter((d) => codes.includes(d.code) && d.minimumPurchase <= subtotal);
  const priced = started.map(({ line, start, onSale }): PricedLine => {
    let unitPrice = start;
    let appliedCode: string | null = null;
    for (const coupon of onSale ? [] : usable) {
      if (!isInScope(coupon, line)) continue;
      const price = discountedPrice(coupon, line.price);
      // The lowest price wins; a tie goes to the alphabetically first code, so entry order never matters.
      if (price < unitPrice || (price === unitPrice && appliedCode !== null && coupon.code < appliedCode)) {
        unitPrice = price;
        appliedCode = coupon.code;
      }
    }
    return {
      key: line.key,
      unitPrice,
      originalUnitPrice: start,
      lineTotal: unitPrice * line.quantity,
      appliedCode,
      onSale,
    };
  });

  // With no line there is no product to name, so nothing is refused yet.
  const applied = new Set(priced.map((line) => line.appliedCode));
  const refused = codes
    .filter((code) => lines.length > 0 && !applied.has(code))
    .map((code) => {
      const own = coupons.filter((d) => d.code === code);
      const named = lines.find((line) => own.some((d) => isInScope(d, line))) ?? lines[0];
      return { code, product: named?.title ?? '' };
    });

  const discount = subtotal - priced.reduce((sum, line) => sum + line.lineTotal, 0);
  return {
    lines: priced,
    ...cartTotals({ subtotal, discount, empty: lines.length === 0 }, settings, address),
    refused,
  };
}

/**
 * Shipping, tax, fee and total of goods already priced (subtotal before codes, what the codes took
 * off): what an address change alone changes.
 */
export function cartTotals(
  { subtotal, discount, empty = false }: { subtotal: number; discount: number; empty?: boolean },
  settings: PricingSettings,
  address: PricingAddress,
): Omit<CartPrice, 'lines' | 'refused'> {
  const goods = subtotal - discount;
  // Judged before codes: a code that took the cart under the threshold would otherwise raise its total.
  const free = empty || subtotal >= settings.freeShippingThreshold;
  const shipping = address === null ? null : free ? 0 : settings.shippingRate;
  const tax = address === null ? 0 : salesTax(goods, address.country, address.state);
  const processingFee = Math.round((settings.processingFeeBasisPoints * (goods + (shipping ?? 0) + tax)) / 10_000);
  return { subtotal, discount, shipping, tax, processingFee, total: goods + (shipping ?? 0) + tax + processingFee };
}
