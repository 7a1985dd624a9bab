import { describe, expect, test } from 'vitest';
import {
  descriptionHtml,
  type ListableProduct,
  listingHash,
  listingSkus,
  MAX_SELLER_SKU,
  namesVariant,
  parseSellerSku,
  sellerSkuOf,
} from './listing.ts';

const productId = '0123456789abcdef';

function product(overrides: Partial<ListableProduct> = {}): ListableProduct {
  return {
    id: productId,
    title: 'Stoneware Teapot',
    description: 'Holds four cups.',
    features: ['Glazed inside'],
    price: 3400,
    salePrice: null,
    stock: 12,
    variants: [],
    ...overrides,
  };
}

const variant = (skuId: string, fields: Partial<ListableProduct['variants'][number]> = {}) => ({
  skuId,
  name: `Style ${skuId}`,
  price: 3400,
  salePrice: null,
  stock: 5,
  ...fields,
});

describe('seller SKUs', () => {
  test('a product and each of its variants round-trip through the seller SKU', () => {
    expect(sellerSkuOf(productId, null)).toBe(productId);
    expect(parseSellerSku(sellerSkuOf(productId, null))).toEqual({ productId, skuId: null, skuDigest: null });
    // A marketplace SKU id, and a hand-added variant's, which is its attribute string.
    for (const skuId of ['12000037162048815', 'BLUE_L', '14:193#Blue;5:100014064#L', 'Colour: Sage Green']) {
      expect(sellerSkuOf(productId, skuId)).toBe(`${productId}-${skuId}`);
      expect(parseSellerSku(sellerSkuOf(productId, skuId))).toEqual({ productId, skuId, skuDigest: null });
    }
  });

  test('a SKU id too long for TikTok (50 characters in all) stands as its digest, and still finds its variant', () => {
    const long = '14:193#Sage Green;5:100014064#Extra Large;200007763#United Kingdom';
    const sellerSku = sellerSkuOf(productId, long);
    expect(sellerSku.length).toBeLessThanOrEqual(MAX_SELLER_SKU);
    expect(sellerSku).toMatch(new RegExp(`^${productId}~[\\w-]{24}$`));
    const ids = parseSellerSku(sellerSku);
    expect(ids).toMatchObject({ productId, skuId: null });
    expect(ids && namesVariant(ids, long)).toBe(true);
    expect(ids && namesVariant(ids, `${long} `)).toBe(false);
    // Right at the limit the id is kept as it is.
    const fits = 'x'.repeat(MAX_SELLER_SKU - productId.length - 1);
    expect(sellerSkuOf(productId, fits)).toBe(`${productId}-${fits}`);
    expect(sellerSkuOf(productId, `${fits}y`)).toContain('~');
  });

  test('anything not led by one of our product ids is not ours', () => {
    for (const sellerSku of [
      '',
      '0123456789abcde',
      '0123456789abcdef0',
      '0123456789ABCDEF',
      'g123456789abcdef',
      `${productId}-`,
      `${productId}_12000037162048815`,
      ` ${productId}`,
      `${productId}\n-1`,
      `${productId}-1\n`,
      `${productId}-a\u0000b`,
      `${productId}-${'x'.repeat(501)}`,
      "'; DROP TABLE products; --",
      `${productId}' OR '1'='1`,
      '<script>alert(1)</script>',
      'TIKTOK-SKU-001',
    ]) {
      expect(parseSellerSku(sellerSku), JSON.stringify(sellerSku)).toBeNull();
    }
  });

  test('a suffix that only looks dangerous stays a SKU id to compare, never more', () => {
    // The id is only ever compared with our variants' ids (bound parameters), so it finds none.
    expect(parseSellerSku(`${productId}-x' OR '1'='1`)).toEqual({ productId, skuId: "x' OR '1'='1", skuDigest: null });
  });
});

describe('descriptionHtml', () => {
  test('escapes HTML in the text and in the features', () => {
    const html = descriptionHtml('Fits <b>two</b> mugs & a "pot" it\'s said', ['<script>alert(1)</script>']);
    expect(html).toBe(
      '<p>Fits &lt;b&gt;two&lt;/b&gt; mugs &amp; a &quot;pot&quot; it&#39;s said</p>' +
        '<ul><li>&lt;script&gt;alert(1)&lt;/script&gt;</li></ul>',
    );
  });

  test('keeps paragraphs and line breaks', () => {
    expect(descriptionHtml('First line\nsecond line\n\n  Second paragraph  \n \n\nThird', [])).toBe(
      '<p>First line<br>second line</p><p>Second paragraph</p><p>Third</p>',
    );
  });

  test('lists the features after the text, leaving out blank ones', () => {
    expect(descriptionHtml('Text', [' Hand thrown ', '', '  ', 'Dishwasher safe'])).toBe(
      '<p>Text</p><ul><li>Hand thrown</li><li>Dishwasher safe</li></ul>',
    );
    expect(descriptionHtml('', ['Only a feature'])).toBe('<ul><li>Only a feature</li></ul>');
  });

  test('an empty description is still one (empty) paragraph', () => {
    expect(descriptionHtml('', [])).toBe('<p></p>');
    expect(descriptionHtml(' \n\n ', [' '])).toBe('<p></p>');
  });
});

describe('listingSkus', () => {
  test('a product without variants is one SKU at its sale price, with its stock', () => {
    expect(listingSkus(product({ salePrice: 2900 }), 'USD')).toEqual([
      { sellerSku: productId, variantName: '', price: 2900, currency: 'USD', quantity: 12 },
    ]);
    // A "sale" price above the price is no sale.
    expect(listingSkus(product({ salePrice: 3900 }), 'GBP')[0]).toMatchObject({ price: 3400, currency: 'GBP' });
  });

  test('negative stock is listed as 0', () => {
    expect(listingSkus(product({ stock: -3 }), 'USD')[0]?.quantity).toBe(0);
    const skus = listingSkus(product({ stock: -1, variants: [variant('1', { stock: 4 })] }), 'USD');
    expect(skus[0]?.quantity).toBe(0);
    expect(listingSkus(product({ variants: [variant('1', { stock: -2 })] }), 'USD')[0]?.quantity).toBe(0);
  });

  test('each variant is a SKU at its own sale price, never with more than the product has', () => {
    const skus = listingSkus(
      product({
        stock: 6,
        variants: [
          variant('12000037162048815', { name: 'Sage', price: 3600, salePrice: 3000, stock: 4 }),
          variant('12000037162048816', { name: 'Slate', price: 3800, salePrice: null, stock: 9 }),
        ],
      }),
      'USD',
    );
    expect(skus).toEqual([
      {
        sellerSku: `${productId}-12000037162048815`,
        variantName: 'Sage',
        price: 3000,
        currency: 'USD',
        quantity: 4,
      },
      {
        sellerSku: `${productId}-12000037162048816`,
        variantName: 'Slate',
        price: 3800,
        currency: 'USD',
        quantity: 6,
      },
    ]);
  });
});

describe('listingHash', () => {
  const listing = (overrides: Partial<ListableProduct> = {}) => {
    const p = product({ variants: [variant('1'), variant('2')], ...overrides });
    return {
      externalProductId: p.id,
      title: p.title,
      descriptionHtml: descriptionHtml(p.description, p.features),
      categoryId: '600412',
      skus: listingSkus(p, 'USD'),
    };
  };
  const images = ['/uploads/teapot-1.webp', '/uploads/teapot-2.webp'];
  const base = listingHash(listing(), images);

  test('is the same for the same listing, whatever the stock', () => {
    expect(listingHash(listing(), [...images])).toBe(base);
    expect(listingHash(listing({ stock: 0 }), images)).toBe(base);
    expect(listingHash(listing({ variants: [variant('1', { stock: 1 }), variant('2', { stock: 0 })] }), images)).toBe(
      base,
    );
  });

  test('changes with the price, the title, the text, the category and the pictures', () => {
    const changed = [
      listingHash(listing({ salePrice: 100, variants: [variant('1', { salePrice: 3000 }), variant('2')] }), images),
      listingHash(listing({ variants: [variant('1', { price: 3500 }), variant('2')] }), images),
      listingHash(listing({ title: 'Stoneware Teapot, large' }), images),
      listingHash(listing({ description: 'Holds six cups.' }), images),
      listingHash({ ...listing(), categoryId: '600411' }, images),
      listingHash({ ...listing(), skus: listing().skus.map((sku) => ({ ...sku, currency: 'GBP' })) }, images),
      listingHash(listing(), [...images, '/uploads/teapot-3.webp']),
      listingHash(listing(), [...images].reverse()),
      listingHash(listing(), images.slice(0, 1)),
    ];
    for (const hash of changed) expect(hash).not.toBe(base);
    expect(new Set(changed).size).toBe(changed.length);
  });
});
