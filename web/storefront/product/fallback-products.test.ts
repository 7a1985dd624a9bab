import { expect, test } from 'vitest';
import { Product } from '#common/contracts/catalog.ts';
import { fallbackProduct, fallbackProducts } from './fallback-products.ts';

test('the built-in products keep the spec prices and render as products', () => {
  expect(Object.keys(fallbackProducts)).toEqual(['desktop-fountain', 'wireless-charger']);
  const fountain = Product.parse(fallbackProduct('desktop-fountain'));
  expect(fountain).toMatchObject({ price: 12998, salePrice: 7799, slug: 'desktop-fountain' });
  expect(fountain.skuVariants).toHaveLength(1);
  expect(Product.parse(fallbackProduct('wireless-charger'))).toMatchObject({ price: 4999, salePrice: 2999 });
});

test('there is no built-in product for other slugs', () => {
  expect(fallbackProduct('moon-lamp')).toBeNull();
});
