import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { effectivePrice } from './money.ts';
import {
  addCode,
  type CartPrice,
  type Discount,
  discountedPrice,
  normalizeCode,
  type PricingAddress,
  type PricingLine,
  type PricingSettings,
  priceCart,
  productCodeDiscount,
  refusalMessage,
  shownSalePrice,
} from './pricing.ts';

const settings: PricingSettings = { shippingRate: 499, freeShippingThreshold: 5000, processingFeeBasisPoints: 0 };
const oregon: PricingAddress = { country: 'US', state: 'OR' }; // no sales tax

const line = (overrides: Partial<PricingLine> & Pick<PricingLine, 'productId'>): PricingLine => ({
  key: `${overrides.productId}:${overrides.skuId ?? ''}`,
  categoryIds: [],
  skuId: null,
  title: overrides.productId,
  quantity: 1,
  price: 4999,
  salePrice: null,
  ...overrides,
});

const fountain = line({
  productId: 'fountain',
  title: 'Desktop Waterfall Fountain',
  categoryIds: ['fountains'],
  skuId: 'fountain-slate',
  price: 12998,
  salePrice: 7799,
});
const stones = line({ productId: 'stones', title: 'River Stones', categoryIds: ['decor'], price: 2400 });
const lamp = line({ productId: 'lamp', title: 'Salt Lamp', categoryIds: ['lighting', 'wellness'], skuId: 'lamp-s' });

const coupon = (code: string, kind: Discount['kind'], value: number, more: Partial<Discount> = {}): Discount => ({
  code,
  kind,
  value,
  scope: { type: 'global', targetId: null },
  minimumPurchase: 0,
  ...more,
});
const welcome = coupon('WELCOME10', 'percentage', 10);

const price = (
  lines: readonly PricingLine[],
  discounts: readonly Discount[] = [],
  codes: readonly string[] = [],
  more: { settings?: PricingSettings; address?: PricingAddress } = {},
) =>
  priceCart({
    lines,
    discounts,
    codes,
    settings: more.settings ?? settings,
    address: more.address === undefined ? oregon : more.address,
  });

const unitPrices = (result: CartPrice) => result.lines.map((l) => l.unitPrice);

describe('codes as entered', () => {
  test('are trimmed and upper-cased', () => {
    expect(normalizeCode('  welcome10 ')).toBe('WELCOME10');
    expect(normalizeCode('\tCalm15\n')).toBe('CALM15');
  });

  test('an empty or repeated code is ignored; the list is not changed in place', () => {
    const codes = ['WELCOME10'];
    expect(addCode(codes, ' calm15')).toEqual(['WELCOME10', 'CALM15']);
    expect(addCode(codes, '  ')).toEqual(['WELCOME10']);
    expect(addCode(codes, 'welcome10 ')).toEqual(['WELCOME10']);
    expect(codes).toEqual(['WELCOME10']);
  });

  test('the refusal reads exactly as the spec says', () => {
    expect(refusalMessage('WELCOME10', 'Desktop Waterfall Fountain')).toBe(
      'Code "WELCOME10" does not improve the price for Desktop Waterfall Fountain',
    );
  });
});

describe("a product's own codes", () => {
  test('a percent takes that percent off; a plain amount takes that many dollars off a unit', () => {
    expect(productCodeDiscount('p1', { code: 'stone10 ', value: '10%' })).toEqual({
      code: 'STONE10',
      kind: 'percentage',
      value: 10,
      scope: { type: 'product', targetId: 'p1' },
      minimumPurchase: 0,
    });
    expect(productCodeDiscount('p2', { code: 'CASCADE15', value: '15.00' })).toMatchObject({
      kind: 'fixed_amount',
      value: 1500,
    });
    expect(productCodeDiscount('p2', { code: 'X', value: ' 3 ' })).toMatchObject({ kind: 'fixed_amount', value: 300 });
    expect(productCodeDiscount('p2', { code: 'X', value: '$4.5' })).toMatchObject({ kind: 'fixed_amount', value: 450 });
    expect(productCodeDiscount('p2', { code: 'X', value: '100 %' })).toMatchObject({ kind: 'percentage', value: 100 });
  });

  test('a malformed entry gives no discount', () => {
    for (const value of ['', 'ten', '150%', '10.5%', '-5', '5.001', '%', '1e3', '15,00']) {
      expect(productCodeDiscount('p', { code: 'X', value }), value).toBeNull();
    }
    expect(productCodeDiscount('p', { code: '  ', value: '10%' })).toBeNull();
  });

  test('CASCADE15 on a 149.00 product makes it 134.00, on that product only', () => {
    const cascade = line({ productId: 'cascade', price: 14900 });
    const discount = productCodeDiscount('cascade', { code: 'CASCADE15', value: '15.00' }) as Discount;
    const result = price([cascade, stones], [discount], ['CASCADE15']);
    expect(unitPrices(result)).toEqual([13400, 2400]);
    expect(result.discount).toBe(1500);
    expect(result.refused).toEqual([]);
  });
});

describe('what each kind of discount gives', () => {
  test('percentage: round(price × (100 − p) / 100), clamped to 0-100 percent', () => {
    expect(discountedPrice({ kind: 'percentage', value: 10 }, 4999)).toBe(4499);
    expect(discountedPrice({ kind: 'percentage', value: 15 }, 3333)).toBe(2833);
    expect(discountedPrice({ kind: 'percentage', value: 50 }, 1)).toBe(1); // 0.5 rounds up
    expect(discountedPrice({ kind: 'percentage', value: 150 }, 4999)).toBe(0);
    expect(discountedPrice({ kind: 'percentage', value: -5 }, 4999)).toBe(4999);
  });

  test('fixed amount: cents off a unit, never below zero', () => {
    expect(discountedPrice({ kind: 'fixed_amount', value: 500 }, 4999)).toBe(4499);
    expect(discountedPrice({ kind: 'fixed_amount', value: 9000 }, 4999)).toBe(0);
  });

  test('fixed price: that price, never above the price', () => {
    expect(discountedPrice({ kind: 'fixed_price', value: 2999 }, 4999)).toBe(2999);
    expect(discountedPrice({ kind: 'fixed_price', value: 9999 }, 4999)).toBe(4999);
  });

  test('each kind lowers a cart line and is recorded on it', () => {
    for (const [code, kind, value, expected] of [
      ['P', 'percentage', 10, 4499],
      ['A', 'fixed_amount', 500, 4499],
      ['F', 'fixed_price', 2999, 2999],
    ] as const) {
      const result = price([lamp], [coupon(code, kind, value)], [code]);
      expect(result.lines[0]).toEqual({
        key: lamp.key,
        unitPrice: expected,
        originalUnitPrice: 4999,
        lineTotal: expected,
        appliedCode: code,
        onSale: false,
      });
    }
  });
});

describe('scopes', () => {
  const lines = [
    stones,
    lamp,
    { ...lamp, key: 'lamp:lamp-l', skuId: 'lamp-l', title: 'Salt Lamp (large)', price: 6999 },
  ];
  const scoped = (type: Discount['scope']['type'], targetId: string | null) =>
    coupon('TEN', 'percentage', 10, { scope: { type, targetId } });

  test('global: every line', () => {
    expect(unitPrices(price(lines, [scoped('global', null)], ['TEN']))).toEqual([2160, 4499, 6299]);
  });

  test('category: lines of a product in that category', () => {
    expect(unitPrices(price(lines, [scoped('category', 'wellness')], ['TEN']))).toEqual([2400, 4499, 6299]);
    expect(unitPrices(price(lines, [scoped('category', 'decor')], ['TEN']))).toEqual([2160, 4999, 6999]);
  });

  test('product: every variant of that product', () => {
    expect(unitPrices(price(lines, [scoped('product', 'lamp')], ['TEN']))).toEqual([2400, 4499, 6299]);
  });

  test('sku: that variant only', () => {
    expect(unitPrices(price(lines, [scoped('sku', 'lamp-l')], ['TEN']))).toEqual([2400, 4999, 6299]);
  });

  test('a code counts per unit, times the quantity', () => {
    const result = price([{ ...stones, quantity: 3 }], [scoped('product', 'stones')], ['TEN']);
    expect(result.lines[0]).toMatchObject({ unitPrice: 2160, lineTotal: 6480 });
    expect(result).toMatchObject({ subtotal: 7200, discount: 720 });
  });
});

describe('sale prices', () => {
  test('a line with a sale price keeps it: codes do not apply to it', () => {
    const result = price([fountain, stones], [welcome], ['WELCOME10']);
    expect(result.lines.map((l) => [l.unitPrice, l.appliedCode, l.onSale])).toEqual([
      [7799, null, true],
      [2160, 'WELCOME10', false],
    ]);
    expect(result).toMatchObject({ subtotal: 7799 + 2400, discount: 240, refused: [] });
  });

  test('even when the code would give a lower price', () => {
    const result = price([fountain], [coupon('HALF', 'fixed_price', 1000)], ['HALF']);
    expect(unitPrices(result)).toEqual([7799]);
    expect(result.refused).toEqual([{ code: 'HALF', product: 'Desktop Waterfall Fountain' }]);
  });

  test('a "sale price" at or above the price is no sale: codes apply', () => {
    const result = price([{ ...stones, salePrice: 2400 }], [welcome], ['WELCOME10']);
    expect(result.lines[0]).toMatchObject({ unitPrice: 2160, originalUnitPrice: 2400, onSale: false });
  });

  test('a running sale (no code) lowers the price like a sale price, and codes then leave the line alone', () => {
    const spring = coupon('', 'percentage', 20, { code: null });
    const result = price([stones, fountain], [spring, welcome], ['WELCOME10']);
    expect(result.lines.map((l) => [l.unitPrice, l.originalUnitPrice, l.appliedCode, l.onSale])).toEqual([
      [1920, 1920, null, true],
      // 20% off the regular 129.98 is 103.98: the product's own sale price of 77.99 stays lower.
      [7799, 7799, null, true],
    ]);
    expect(result).toMatchObject({ subtotal: 1920 + 7799, discount: 0 });
    expect(result.refused).toEqual([{ code: 'WELCOME10', product: 'River Stones' }]);
  });

  test('a running sale gives a line the lowest of its sale prices, computed from the regular price', () => {
    const flash = coupon('', 'fixed_price', 6999, { code: null, scope: { type: 'product', targetId: 'fountain' } });
    expect(unitPrices(price([fountain], [flash]))).toEqual([6999]);
  });

  test('a running sale with a minimum applies only from that minimum (before sales)', () => {
    const bulk = coupon('', 'fixed_amount', 100, { code: null, minimumPurchase: 4800 });
    expect(unitPrices(price([stones], [bulk]))).toEqual([2400]);
    expect(unitPrices(price([{ ...stones, quantity: 2 }], [bulk]))).toEqual([2300]);
  });
});

describe('the sale price the catalog shows', () => {
  const sale = (kind: Discount['kind'], value: number, more: Partial<Discount> = {}) =>
    coupon('', kind, value, { code: null, ...more });

  test('a running sale in scope gives the sale price; out of scope, the own sale price stays as stored', () => {
    const spring = sale('percentage', 20, { scope: { type: 'category', targetId: 'decor' } });
    expect(shownSalePrice(stones, [spring])).toBe(1920);
    expect(shownSalePrice(lamp, [spring])).toBe(null);
    expect(shownSalePrice({ ...lamp, salePrice: 5200 }, [spring])).toBe(5200);
  });

  test('the lower of the own sale price and the sale price wins, the sale computed from the regular price', () => {
    expect(shownSalePrice(fountain, [sale('percentage', 20)])).toBe(7799);
    expect(shownSalePrice(fountain, [sale('percentage', 50)])).toBe(6499);
    expect(shownSalePrice(fountain, [sale('fixed_price', 7000), sale('fixed_amount', 6000)])).toBe(6998);
  });

  test('product and SKU scopes', () => {
    const bySku = sale('fixed_price', 3000, { scope: { type: 'sku', targetId: 'lamp-s' } });
    expect(shownSalePrice(lamp, [bySku])).toBe(3000);
    expect(shownSalePrice({ ...lamp, skuId: null }, [bySku])).toBe(null);
    const byProduct = sale('fixed_amount', 400, { scope: { type: 'product', targetId: 'stones' } });
    expect(shownSalePrice(stones, [byProduct])).toBe(2000);
    expect(shownSalePrice(lamp, [byProduct])).toBe(null);
  });

  test('a coupon, a sale with a minimum purchase, or one that lowers nothing shows no sale', () => {
    expect(shownSalePrice(stones, [welcome])).toBe(null);
    expect(shownSalePrice(stones, [sale('percentage', 10, { minimumPurchase: 1 })])).toBe(null);
    expect(shownSalePrice(stones, [sale('percentage', 0)])).toBe(null);
    expect(shownSalePrice({ ...stones, salePrice: 2400 }, [sale('fixed_price', 9000)])).toBe(2400);
  });

  test('property: one unit in the cart starts at exactly the price shown', () => {
    const item = fc.record({
      productId: fc.constantFrom('p1', 'p2'),
      categoryIds: fc.subarray(['c1', 'c2']),
      skuId: fc.constantFrom(null, 's1'),
      price: fc.integer({ min: 0, max: 20_000 }),
      salePrice: fc.option(fc.integer({ min: 0, max: 25_000 }), { freq: 3 }),
    });
    const discount = fc.record({
      code: fc.option(fc.constant('CODE'), { freq: 3 }),
      kind: fc.constantFrom('percentage', 'fixed_amount', 'fixed_price'),
      value: fc.integer({ min: -100, max: 20_000 }),
      scope: fc.oneof(
        fc.constant({ type: 'global' as const, targetId: null }),
        fc.record({ type: fc.constant('category' as const), targetId: fc.constantFrom('c1', 'c2') }),
        fc.record({ type: fc.constant('product' as const), targetId: fc.constantFrom('p1', 'p2') }),
        fc.record({ type: fc.constant('sku' as const), targetId: fc.constant('s1') }),
      ),
      minimumPurchase: fc.constantFrom(0, 0, 100),
    }) as fc.Arbitrary<Discount>;
    fc.assert(
      fc.property(item, fc.array(discount, { maxLength: 4 }), (drawn, discounts) => {
        const shown = shownSalePrice(drawn, discounts);
        const unit = line({ ...drawn, title: 'One' });
        // Only the sales the catalog counts: the cart's view of the same unit at its shown price.
        const counted = discounts.filter((d) => d.code === null && d.minimumPurchase === 0);
        const [priced] = price([unit], counted).lines;
        expect(priced?.originalUnitPrice).toBe(effectivePrice(drawn.price, shown));
        expect(priced?.onSale).toBe(effectivePrice(drawn.price, shown) < drawn.price);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('several codes', () => {
  test('the lowest resulting price wins on each line', () => {
    const codes = [
      coupon('TEN', 'percentage', 10),
      coupon('TWENTY', 'percentage', 20),
      coupon('FIVE', 'fixed_amount', 500),
      coupon('FLAT', 'fixed_price', 3000, { scope: { type: 'product', targetId: 'lamp' } }),
    ];
    const result = price([stones, lamp], codes, ['TEN', 'TWENTY', 'FIVE', 'FLAT']);
    // stones 24.00: 21.60 / 19.20 / 19.00 → 19.00. lamp 49.99: 44.99 / 39.99 / 44.99 / 30.00 → 30.00.
    expect(result.lines.map((l) => [l.unitPrice, l.appliedCode])).toEqual([
      [1900, 'FIVE'],
      [3000, 'FLAT'],
    ]);
    expect(result.refused.map((r) => r.code)).toEqual(['TEN', 'TWENTY']);
  });

  test('of two percentage codes the larger applies, of two fixed prices the lower', () => {
    const result = price(
      [stones, lamp],
      [
        coupon('TEN', 'percentage', 10),
        coupon('FIFTEEN', 'percentage', 15),
        coupon('F40', 'fixed_price', 4000, { scope: { type: 'product', targetId: 'lamp' } }),
        coupon('F35', 'fixed_price', 3500, { scope: { type: 'product', targetId: 'lamp' } }),
      ],
      ['TEN', 'FIFTEEN', 'F40', 'F35'],
    );
    expect(result.lines.map((l) => [l.unitPrice, l.appliedCode])).toEqual([
      [2040, 'FIFTEEN'],
      [3500, 'F35'],
    ]);
  });

  test('a code that wins on one line is not refused though it loses on another', () => {
    const result = price(
      [stones, lamp],
      [
        coupon('TEN', 'percentage', 10),
        coupon('LAMP', 'fixed_price', 100, { scope: { type: 'sku', targetId: 'lamp-s' } }),
      ],
      ['TEN', 'LAMP'],
    );
    expect(result.lines.map((l) => l.appliedCode)).toEqual(['TEN', 'LAMP']);
    expect(result.refused).toEqual([]);
  });

  test('equal prices go to the alphabetically first code, whatever the order entered', () => {
    const discounts = [coupon('B5', 'fixed_amount', 500), coupon('A5', 'fixed_amount', 500)];
    for (const codes of [
      ['A5', 'B5'],
      ['B5', 'A5'],
    ]) {
      const result = price([stones], discounts, codes);
      expect(result.lines[0]?.appliedCode).toBe('A5');
      expect(result.refused).toEqual([{ code: 'B5', product: 'River Stones' }]);
    }
  });

  test('codes are matched after normalising, and counted once', () => {
    const result = price([stones], [welcome], [' welcome10', 'WELCOME10']);
    expect(result.lines[0]?.appliedCode).toBe('WELCOME10');
    expect(result.refused).toEqual([]);
  });
});

describe('minimum purchase', () => {
  const calm = coupon('CALM15', 'percentage', 15, {
    scope: { type: 'category', targetId: 'fountains' },
    minimumPurchase: 7500,
  });
  const pump = line({ productId: 'pump', title: 'Mini Fountain', categoryIds: ['fountains'], price: 3750 });

  test('a code applies from its minimum, judged on the subtotal before codes', () => {
    expect(unitPrices(price([{ ...pump, quantity: 2 }], [calm], ['CALM15']))).toEqual([3188]);
    const under = price([pump, line({ productId: 'x', price: 3749 })], [calm], ['CALM15']);
    expect(under.subtotal).toBe(7499);
    expect(unitPrices(under)).toEqual([3750, 3749]);
    expect(under.refused).toEqual([{ code: 'CALM15', product: 'Mini Fountain' }]);
  });

  test('the subtotal it is judged on counts sale prices', () => {
    const result = price([fountain, pump], [calm], ['CALM15']);
    expect(result.subtotal).toBe(7799 + 3750);
    expect(unitPrices(result)).toEqual([7799, 3188]);
  });
});

describe('refusals name a product', () => {
  test('an unknown code names the first line of the cart', () => {
    const result = price([stones, lamp], [welcome], ['NOPE']);
    expect(result.refused).toEqual([{ code: 'NOPE', product: 'River Stones' }]);
    expect(result.discount).toBe(0);
  });

  test('a code out of scope of every line names the first line of the cart', () => {
    const other = coupon('OTHER', 'percentage', 10, { scope: { type: 'product', targetId: 'elsewhere' } });
    expect(price([stones, lamp], [other], ['OTHER']).refused).toEqual([{ code: 'OTHER', product: 'River Stones' }]);
  });

  test('a code that gives no better price names the first line in its scope', () => {
    const lampCode = coupon('LAMP', 'fixed_price', 9999, { scope: { type: 'category', targetId: 'lighting' } });
    expect(price([stones, lamp], [lampCode], ['LAMP']).refused).toEqual([{ code: 'LAMP', product: 'Salt Lamp' }]);
  });

  test('a code on a line already on sale names that line', () => {
    expect(
      price(
        [stones, fountain],
        [coupon('FOUNT', 'percentage', 50, { scope: { type: 'category', targetId: 'fountains' } })],
        ['FOUNT'],
      ).refused,
    ).toEqual([{ code: 'FOUNT', product: 'Desktop Waterfall Fountain' }]);
  });

  test('refusals come in the order the codes were entered', () => {
    expect(price([stones], [], ['B', 'A']).refused.map((r) => r.code)).toEqual(['B', 'A']);
  });
});

describe('totals', () => {
  test('an empty cart prices to zeros (shipping N/A without an address)', () => {
    const empty = { lines: [], subtotal: 0, discount: 0, tax: 0, processingFee: 0, total: 0, refused: [] };
    expect(price([], [welcome], ['WELCOME10'], { address: null })).toEqual({ ...empty, shipping: null });
    expect(price([], [welcome], ['WELCOME10'])).toEqual({ ...empty, shipping: 0 });
  });

  test('shipping is N/A until the address is complete, and then not added to the total', () => {
    const result = price([stones], [], [], { address: null });
    expect(result).toMatchObject({ subtotal: 2400, shipping: null, tax: 0, total: 2400 });
  });

  test('shipping is free from the threshold', () => {
    const at = (cents: number) => price([line({ productId: 'p', price: cents })]).shipping;
    expect(at(4999)).toBe(499);
    expect(at(5000)).toBe(0);
    expect(at(5001)).toBe(0);
    expect(
      price([line({ productId: 'p', price: 4999 })], [], [], { settings: { ...settings, shippingRate: 650 } }).shipping,
    ).toBe(650);
  });

  test('the threshold is judged before codes, so a code never costs the shopper the free shipping', () => {
    const result = price([line({ productId: 'p', price: 5000 })], [coupon('C', 'fixed_amount', 1)], ['C']);
    expect(result).toMatchObject({ subtotal: 5000, discount: 1, shipping: 0, total: 4999 });
  });

  test('tax is the state rate on the subtotal less the discount, 0 outside the US or without an address', () => {
    const cart = [line({ productId: 'p', price: 10000 })];
    const taxIn = (address: PricingAddress) => price(cart, [welcome], ['WELCOME10'], { address }).tax;
    expect(taxIn({ country: 'US', state: 'CA' })).toBe(653); // 7.25% of 90.00 = 6.525
    expect(taxIn({ country: 'US', state: 'ny' })).toBe(360);
    expect(taxIn({ country: 'US', state: 'TX' })).toBe(563); // 6.25% of 90.00 = 5.625
    expect(taxIn({ country: 'US', state: 'OR' })).toBe(0);
    expect(taxIn({ country: 'CA', state: 'ON' })).toBe(0);
    expect(taxIn(null)).toBe(0);
  });

  test('the processing fee is its basis points of goods, shipping and tax', () => {
    const result = price([stones], [], [], {
      settings: { ...settings, processingFeeBasisPoints: 290 },
      address: { country: 'US', state: 'CA' },
    });
    // 24.00 + 4.99 + 1.74 = 30.73; 2.9% = 0.89117
    expect(result).toMatchObject({ subtotal: 2400, shipping: 499, tax: 174, processingFee: 89, total: 3162 });
  });

  test('a whole breakdown', () => {
    const result = price([{ ...stones, quantity: 2 }, fountain, lamp], [welcome], ['WELCOME10'], {
      address: { country: 'US', state: 'NY' },
    });
    // 48.00 + 77.99 + 49.99 = 175.98; WELCOME10 takes 2 × 2.40 + 5.00 off the full-price lines.
    expect(result).toMatchObject({
      subtotal: 17598,
      discount: 980,
      shipping: 0,
      tax: 665, // 4% of 166.18
      processingFee: 0,
      total: 17283,
      refused: [],
    });
  });
});

describe('properties', () => {
  const numRuns = 10_000;
  const codePool = ['A', 'B', 'C', 'D'];
  const lines = fc
    .array(
      fc.record({
        productId: fc.constantFrom('p1', 'p2', 'p3'),
        categoryIds: fc.subarray(['c1', 'c2', 'c3']),
        skuId: fc.constantFrom(null, 's1', 's2'),
        title: fc.constantFrom('One', 'Two', 'Three'),
        quantity: fc.integer({ min: 1, max: 5 }),
        price: fc.integer({ min: 0, max: 20_000 }),
        salePrice: fc.option(fc.integer({ min: 0, max: 25_000 }), { freq: 3 }),
      }),
      { maxLength: 6 },
    )
    .map((drawn) => drawn.map((l, index): PricingLine => ({ ...l, key: `line-${index}` })));
  // Mostly sensible values (small ones included), sometimes out of range.
  const kindAndValue = fc.oneof(
    fc.record({ kind: fc.constant('percentage' as const), value: fc.integer({ min: 0, max: 100 }) }),
    fc.record({ kind: fc.constant('fixed_amount' as const), value: fc.integer({ min: 0, max: 3000 }) }),
    fc.record({ kind: fc.constant('fixed_price' as const), value: fc.integer({ min: 0, max: 20_000 }) }),
    fc.record({
      kind: fc.constantFrom('percentage', 'fixed_amount', 'fixed_price'),
      value: fc.integer({ min: -100, max: 30_000 }),
    }),
  );
  const scope: fc.Arbitrary<Discount['scope']> = fc.oneof(
    fc.record({ type: fc.constant('global' as const), targetId: fc.constant(null) }),
    fc.record({ type: fc.constant('category' as const), targetId: fc.constantFrom('c1', 'c2', 'c3') }),
    fc.record({ type: fc.constant('product' as const), targetId: fc.constantFrom('p1', 'p2', 'p3') }),
    fc.record({ type: fc.constant('sku' as const), targetId: fc.constantFrom('s1', 's2') }),
  );
  const discounts = fc.array(
    fc
      .record({
        code: fc.option(fc.constantFrom(...codePool), { freq: 4 }),
        kindAndValue,
        scope,
        minimumPurchase: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40_000 })),
      })
      .map(({ kindAndValue: { kind, value }, ...rest }): Discount => ({ ...rest, kind, value })),
    { maxLength: 6 },
  );
  const codes = fc.subarray([...codePool, 'UNKNOWN']);
  const settingsArb: fc.Arbitrary<PricingSettings> = fc.record({
    shippingRate: fc.integer({ min: 0, max: 1000 }),
    freeShippingThreshold: fc.integer({ min: 0, max: 20_000 }),
    processingFeeBasisPoints: fc.integer({ min: 0, max: 1000 }),
  });
  const address: fc.Arbitrary<PricingAddress> = fc.option(
    fc.record({ country: fc.constantFrom('US', 'CA'), state: fc.constantFrom('CA', 'NY', 'TX', 'OR', 'XX') }),
    { freq: 4 },
  );
  /** Half the carts sit within a few dollars of their free-shipping threshold, where a code could tip it. */
  const carts = fc.record({ lines, discounts, codes, settings: settingsArb, address }).chain((cart) =>
    fc.oneof(
      fc.constant(cart),
      fc.integer({ min: -600, max: 600 }).map((offset) => ({
        ...cart,
        settings: { ...cart.settings, freeShippingThreshold: Math.max(0, priceCart(cart).subtotal + offset) },
      })),
    ),
  );
  /** Everything but the refusals. */
  const prices = ({ refused: _, ...rest }: CartPrice) => rest;

  test('the breakdown adds up exactly in whole cents, and nothing is negative', () => {
    fc.assert(
      fc.property(carts, (cart) => {
        const result = priceCart(cart);
        const amounts = [result.subtotal, result.discount, result.tax, result.processingFee, result.total];
        for (const amount of [...amounts, result.shipping ?? 0]) {
          expect(Number.isSafeInteger(amount)).toBe(true);
          expect(amount).toBeGreaterThanOrEqual(0);
        }
        expect(result.shipping === null).toBe(cart.address === null);
        expect(result.subtotal).toBe(
          result.lines.reduce((sum, l, i) => sum + l.originalUnitPrice * (cart.lines[i] as PricingLine).quantity, 0),
        );
        expect(result.discount).toBe(result.subtotal - result.lines.reduce((sum, l) => sum + l.lineTotal, 0));
        expect(result.total).toBe(
          result.subtotal - result.discount + (result.shipping ?? 0) + result.tax + result.processingFee,
        );
        expect(result.lines.map((l) => l.key)).toEqual(cart.lines.map((l) => l.key));
      }),
      { numRuns },
    );
  });

  test('every unit price is a whole number of cents from 0 up to its starting price', () => {
    fc.assert(
      fc.property(carts, (cart) => {
        priceCart(cart).lines.forEach((priced, i) => {
          const { price: regular, salePrice, quantity } = cart.lines[i] as PricingLine;
          expect(Number.isSafeInteger(priced.unitPrice)).toBe(true);
          expect(priced.unitPrice).toBeGreaterThanOrEqual(0);
          expect(priced.unitPrice).toBeLessThanOrEqual(priced.originalUnitPrice);
          expect(priced.originalUnitPrice).toBeLessThanOrEqual(
            salePrice !== null && salePrice < regular ? salePrice : regular,
          );
          expect(priced.lineTotal).toBe(priced.unitPrice * quantity);
          if (priced.onSale) expect(priced.unitPrice).toBe(priced.originalUnitPrice);
          if (priced.appliedCode === null) expect(priced.unitPrice).toBe(priced.originalUnitPrice);
          else expect(priced.unitPrice).toBeLessThan(priced.originalUnitPrice);
        });
      }),
      { numRuns },
    );
  });

  test('adding a code never raises the total, nor any line', () => {
    fc.assert(
      fc.property(carts, fc.constantFrom(...codePool, 'UNKNOWN'), (cart, extra) => {
        const before = priceCart(cart);
        const after = priceCart({ ...cart, codes: addCode(cart.codes, extra) });
        expect(after.total).toBeLessThanOrEqual(before.total);
        after.lines.forEach((l, i) => {
          expect(l.unitPrice).toBeLessThanOrEqual(before.lines[i]?.unitPrice ?? 0);
        });
      }),
      { numRuns },
    );
  });

  test('the order the codes were entered in does not matter', () => {
    fc.assert(
      fc.property(
        carts.chain((cart) =>
          fc.tuple(fc.constant(cart), fc.shuffledSubarray(cart.codes, { minLength: cart.codes.length })),
        ),
        ([cart, shuffled]) => {
          const a = priceCart(cart);
          const b = priceCart({ ...cart, codes: shuffled });
          expect(prices(b)).toEqual(prices(a));
          const byCode = (x: { code: string }, y: { code: string }) => x.code.localeCompare(y.code);
          expect([...b.refused].sort(byCode)).toEqual([...a.refused].sort(byCode));
        },
      ),
      { numRuns },
    );
  });

  test('a refused code changes nothing: the cart prices the same without it', () => {
    fc.assert(
      fc.property(carts, (cart) => {
        const result = priceCart(cart);
        for (const { code } of result.refused) {
          const without = priceCart({ ...cart, codes: cart.codes.filter((c) => c !== code) });
          expect(prices(without)).toEqual(prices(result));
          expect(without.refused).toEqual(result.refused.filter((r) => r.code !== code));
        }
        // Every code entered is either applied on some line or refused, never both.
        const applied = new Set(result.lines.map((l) => l.appliedCode));
        for (const code of cart.codes) {
          expect(applied.has(code) !== result.refused.some((r) => r.code === code) || cart.lines.length === 0).toBe(
            true,
          );
        }
      }),
      { numRuns },
    );
  });
});
