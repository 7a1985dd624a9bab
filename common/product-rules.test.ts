import { describe, expect, test } from 'vitest';
import { seedCategories } from '#seed/categories.ts';
import {
  applyProductPrice,
  dropBlank,
  extractMarketplaceId,
  imageCountMessage,
  NAVIGATION_CATEGORIES,
  normaliseCategories,
  productStock,
  singleSkuNote,
  skuProblem,
  slugify,
  tableCategories,
  tableDescription,
} from './product-rules.ts';

describe('product rules (back-office spec 2-5)', () => {
  test('the marketplace id from a number or the URL patterns of spec 5', () => {
    expect(extractMarketplaceId(' 1005006 ')).toBe('1005006');
    expect(extractMarketplaceId('https://www.aliexpress.com/item/1005006123.html?spm=a')).toBe('1005006123');
    expect(extractMarketplaceId('https://shop.example/product/42/lamp')).toBe('42');
    expect(extractMarketplaceId('https://www.amazon.com/dp/12345')).toBe('12345');
    expect(extractMarketplaceId('https://x.example/p?productId=77&x=1')).toBe('77');
    expect(extractMarketplaceId('https://x.example/p?a=1&id=88')).toBe('88');
    expect(extractMarketplaceId('lamp')).toBeNull();
    expect(extractMarketplaceId('')).toBeNull();
  });

  test('slugs, categories and lists', () => {
    expect(slugify('Café Stone  Fountain!')).toBe('cafe-stone-fountain');
    expect(slugify('!!!')).toBe('product');
    expect(normaliseCategories([' Desk  Calm ', 'desk calm', '', 'Gifts'])).toEqual(['Desk Calm', 'Gifts']);
    expect(dropBlank([' a ', ' ', ''])).toEqual(['a']);
  });

  test('the table: the description cut at 100 characters, 2 category tags then how many more', () => {
    expect(tableDescription('x'.repeat(100))).toBe('x'.repeat(100));
    expect(tableDescription('x'.repeat(101))).toBe(`${'x'.repeat(100)}...`);
    expect(tableCategories(['a', 'b', 'c', 'd'])).toEqual({ shown: ['a', 'b'], more: 2 });
    expect(tableCategories(['a'])).toEqual({ shown: ['a'], more: 0 });
  });

  test('the spec texts', () => {
    expect(singleSkuNote('Black')).toBe('1 valid SKU found — Black automatically selected for all purchases');
    expect(imageCountMessage(20, 21)).toBe('You can only have up to 20 images. Currently you have 21 images.');
  });

  test('the product price over one SKU always, over several only when it changed', () => {
    const v = (price: number, isActive = true) => ({ price, salePrice: null, isActive });
    const product = { price: 500, salePrice: 400 };
    expect(applyProductPrice(product, [v(100), v(200, false)], false)).toEqual([
      { price: 500, salePrice: 400, isActive: true },
      v(200, false),
    ]);
    expect(applyProductPrice(product, [v(100), v(200)], false)).toEqual([v(100), v(200)]);
    expect(applyProductPrice(product, [v(100), v(200)], true).map((x) => x.price)).toEqual([500, 500]);
  });

  test('the SKU editor messages, in order', () => {
    const sku = { name: 'Black', skuAttr: '14:1', price: 100, stock: 0 };
    expect(skuProblem(sku, [])).toBeNull();
    expect(skuProblem({ ...sku, name: '' }, [])).toBe('Name and AliExpress SKU (skuAttr) are required.');
    expect(skuProblem({ ...sku, price: 0 }, [])).toBe('Price must be greater than 0.');
    expect(skuProblem({ ...sku, stock: -1 }, [])).toBe('Stock must be ≥ 0.');
    expect(skuProblem(sku, ['14:1'])).toBe('This AliExpress SKU is already added.');
  });

  test('stock: the active variants, or the product its own', () => {
    expect(
      productStock(
        [
          { isActive: true, stock: 2 },
          { isActive: false, stock: 9 },
        ],
        50,
      ),
    ).toBe(2);
    expect(productStock([], 5)).toBe(5);
  });

  test('the built-in navigation categories are the seeded nav, in order', () => {
    expect([...NAVIGATION_CATEGORIES]).toEqual(seedCategories.map((category) => category.name));
  });
});
