import { describe, expect, test } from 'vitest';
import type { AdminProduct } from '#common/contracts/admin/products.ts';
import { productMessages } from '#common/product-rules.ts';
import {
  availableToAdd,
  canAddCategory,
  emptyProductForm,
  emptySkuDraft,
  type FetchedVariant,
  needsPriceConfirm,
  type ProductFormState,
  type ProductInfo,
  productFormOf,
  readDollars,
  readProductForm,
  readSkuDraft,
  singleSku,
  skuDraftOf,
  type Variant,
  withAiContent,
  withCategory,
  withFetchedSkus,
  withGalleryImage,
  withoutRow,
  withProductInfo,
} from './product-form.ts';

const fetched = (n: number, overrides: Partial<FetchedVariant> = {}): FetchedVariant => ({
  skuId: `10${n}`,
  skuAttr: `14:20${n}`,
  name: `Colour ${n}`,
  label: `c${n}`,
  price: 10 + n,
  salePrice: null,
  stock: 5,
  image: `https://ae01.alicdn.com/kf/${n}.jpg`,
  ...overrides,
});

const variant = (n: number, overrides: Partial<Variant> = {}): Variant => ({
  skuId: `10${n}`,
  skuAttr: `14:20${n}`,
  name: `Colour ${n}`,
  label: '',
  price: 1000 + n,
  salePrice: null,
  stock: 5,
  image: null,
  images: [],
  isActive: true,
  ...overrides,
});

const filled = (overrides: Partial<ProductFormState> = {}): ProductFormState => ({
  ...emptyProductForm(),
  aliInput: 'https://www.aliexpress.com/item/1005006.html?spm=x',
  title: '  Stone Fountain ',
  price: '49.99',
  ...overrides,
});

const info: ProductInfo = {
  productId: '1005006',
  title: 'Desk fountain',
  description: 'Water over stone.',
  imageUrls: ['https://ae01.alicdn.com/kf/a.jpg'],
  variants: [fetched(1), fetched(2, { price: 8.5, salePrice: 7.25 })],
  variantLabel: 'Color',
  aliExpressPrice: 850,
  stock: 10,
};

describe('the product form (spec 2 and 5)', () => {
  test('a new product is active, labelled Style, with one row of tags and features', () => {
    expect(emptyProductForm()).toMatchObject({ status: 'active', variantLabel: 'Style', tags: [''], features: [''] });
  });

  test('the spec messages for a missing title, price and marketplace id', () => {
    const read = readProductForm(emptyProductForm());
    expect(read).toEqual({
      errors: {
        aliInput: productMessages.aliIdRequired,
        title: productMessages.titleRequired,
        price: productMessages.priceRequired,
      },
    });
    for (const price of ['0', '-1', 'abc', '1.999']) {
      expect(readProductForm(filled({ price }))).toMatchObject({ errors: { price: productMessages.priceRequired } });
    }
  });

  test('dollars become cents, the id comes out of the URL, blank rows go, categories are normalised', () => {
    const read = readProductForm(
      filled({
        salePrice: '39.5',
        slug: '',
        tags: ['calm', '  ', ' desk '],
        features: [''],
        categories: [' decor ', 'Decor', 'Wellness'],
      }),
    );
    expect(read).toMatchObject({
      body: {
        aliId: '1005006',
        title: 'Stone Fountain',
        slug: '',
        price: 4999,
        salePrice: 3950,
        tags: ['calm', 'desk'],
        features: [],
        categories: ['decor', 'Wellness'],
        status: 'active',
        variantLabel: 'Style',
      },
    });
  });

  test('a slug that is not lower-case words with hyphens is refused; an empty one is sent empty', () => {
    expect(readProductForm(filled({ slug: 'Calm Fountain!' }))).toHaveProperty('errors.slug');
    expect(readProductForm(filled({ slug: 'Calm-Fountain' }))).toMatchObject({ body: { slug: 'calm-fountain' } });
  });

  test('an existing product reads back in dollars, archived shown as inactive, empty lists as one row', () => {
    const product: AdminProduct = {
      id: '0123456789abcdef',
      title: 'Lamp',
      slug: 'lamp',
      description: 'Warm.',
      sku: '101',
      images: ['/media/a.webp'],
      price: 2500,
      salePrice: null,
      categories: ['Lighting'],
      tags: [],
      features: ['Dimmable'],
      status: 'archived',
      stock: 3,
      skuVariants: [variant(1)],
      aliId: '42',
      aliExpressPrice: 900,
      variantLabel: 'Style',
      skuImagePosition: null,
      sales: 0,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    };
    expect(productFormOf(product)).toMatchObject({
      aliInput: '42',
      price: '25.00',
      salePrice: '',
      status: 'inactive',
      tags: [''],
      features: ['Dimmable'],
    });
  });
});

describe('marketplace fetches (spec 2 and 4)', () => {
  test('product info fills the blanks, keeps what was typed, and lists the SKUs in cents', () => {
    const form = withProductInfo({ ...emptyProductForm(), title: 'Mine' }, info);
    expect(form).toMatchObject({
      aliInput: '1005006',
      title: 'Mine',
      description: 'Water over stone.',
      price: '8.50',
      aliExpressPrice: 850,
      marketStock: 10,
      variantLabel: 'Color',
      marketplaceImages: ['https://ae01.alicdn.com/kf/a.jpg'],
      skuVariants: [],
    });
    expect(form.availableSkus.map((v) => [v.price, v.salePrice])).toEqual([
      [1100, null],
      [850, 725],
    ]);
  });

  test("a second fetch replaces what the first filled in, keeps what was typed, and drops another product's SKUs", () => {
    const first = { ...withProductInfo(emptyProductForm(), info), skuVariants: [variant(1)] };
    const typed = { ...first, description: 'My words.' };
    const other: ProductInfo = {
      ...info,
      productId: '77',
      title: 'Lamp',
      description: 'Light.',
      variants: [fetched(5), fetched(6)],
    };
    expect(withProductInfo(typed, other)).toMatchObject({
      aliInput: '77',
      title: 'Lamp',
      description: 'My words.',
      price: '15.00',
      skuVariants: [],
    });
    expect(withProductInfo(first, info).skuVariants).toHaveLength(1);
  });

  test('exactly one valid SKU is selected by itself, and the product price is written over it on save', () => {
    const form = withFetchedSkus(filled({ price: '' }), [fetched(1), fetched(2, { price: 0 })]);
    expect(form.skuVariants.map((v) => v.skuAttr)).toEqual(['14:201']);
    expect(form.price).toBe('11.00');
    expect(singleSku(form)?.skuAttr).toBe('14:201');
    const read = readProductForm({ ...form, price: '15', salePrice: '12' });
    expect(read).toMatchObject({ body: { skuVariants: [{ skuAttr: '14:201', price: 1500, salePrice: 1200 }] } });
  });

  test('a lone SKU without an attribute string is the product itself: no variant, its stock', () => {
    const form = withFetchedSkus(filled(), [fetched(1, { skuAttr: '', stock: 7 })]);
    expect(readProductForm(form)).toMatchObject({ body: { skuVariants: [], stock: 7 } });
  });

  test('with several SKUs none is selected; the list offers those not yet added, searched', () => {
    const form = withFetchedSkus(filled(), [fetched(1), fetched(2), fetched(3, { name: 'Walnut' })]);
    expect(form.skuVariants).toEqual([]);
    expect(singleSku(form)).toBeNull();
    const withOne = { ...form, skuVariants: [variant(1)] };
    expect(availableToAdd(withOne, '').map((v) => v.skuAttr)).toEqual(['14:202', '14:203']);
    expect(availableToAdd(withOne, 'waln').map((v) => v.name)).toEqual(['Walnut']);
  });

  test('several SKUs keep their own prices unless the price changed (after the confirm)', () => {
    const form = filled({ price: '20', skuVariants: [variant(1), variant(2)] });
    expect(needsPriceConfirm(form, 4999)).toBe(true);
    expect(needsPriceConfirm(form, 2000)).toBe(false);
    expect(
      needsPriceConfirm(filled({ price: '20', skuVariants: [variant(1), variant(2, { isActive: false })] }), 4999),
    ).toBe(false);
    expect(needsPriceConfirm(form, null)).toBe(false);
    expect(readProductForm(form)).toMatchObject({ body: { skuVariants: [{ price: 1001 }, { price: 1002 }] } });
    expect(readProductForm(form, { priceChanged: true })).toMatchObject({
      body: { skuVariants: [{ price: 2000 }, { price: 2000 }] },
    });
  });
});

describe('AI autofill, categories and lists (spec 5)', () => {
  test('only a non-empty title, description and non-empty lists are applied', () => {
    const form = filled({ description: 'Old', tags: ['a'], features: ['f'] });
    expect(withAiContent(form, { title: ' ', description: '', features: [], tags: ['  '] })).toEqual(form);
    expect(
      withAiContent(form, { title: 'New', description: 'Better', features: ['x', ''], tags: ['t'] }),
    ).toMatchObject({
      title: 'New',
      description: 'Better',
      features: ['x'],
      tags: ['t'],
    });
  });

  test('a category is added unless blank or already chosen, any case', () => {
    expect(canAddCategory(['Decor'], '  ')).toBe(false);
    expect(canAddCategory(['Decor'], ' decor ')).toBe(false);
    expect(canAddCategory(['Decor'], 'Desk  Calm')).toBe(true);
    expect(withCategory(['Decor'], ' Desk  Calm ')).toEqual(['Decor', 'Desk Calm']);
    expect(withCategory(['Decor'], 'DECOR')).toEqual(['Decor']);
  });

  test('removing the last row leaves one empty row', () => {
    expect(withoutRow(['a', 'b'], 0)).toEqual(['b']);
    expect(withoutRow(['a'], 0)).toEqual(['']);
  });

  test('dollars as typed', () => {
    expect(readDollars('')).toBeNull();
    expect(readDollars('12.3')).toBe(1230);
    expect(readDollars('0.07')).toBe(7);
    expect(readDollars('1e3')).toBeNaN();
  });
});

describe('the SKU editor (spec 5)', () => {
  test('the spec messages', () => {
    const draft = { ...emptySkuDraft(), name: 'Black', skuAttr: '14:1', price: '10', stock: '2' };
    expect(readSkuDraft({ ...draft, name: ' ' }, [])).toEqual({ error: productMessages.skuNameAndAttr });
    expect(readSkuDraft({ ...draft, skuAttr: '' }, [])).toEqual({ error: productMessages.skuNameAndAttr });
    expect(readSkuDraft({ ...draft, price: '0' }, [])).toEqual({ error: productMessages.skuPrice });
    expect(readSkuDraft({ ...draft, price: '' }, [])).toEqual({ error: productMessages.skuPrice });
    expect(readSkuDraft({ ...draft, stock: '-1' }, [])).toEqual({ error: productMessages.skuStock });
    expect(readSkuDraft({ ...draft, stock: '1.5' }, [])).toEqual({ error: productMessages.skuStock });
    expect(readSkuDraft(draft, ['14:1'])).toEqual({ error: productMessages.skuDuplicate });
  });

  test('a variant round-trips through the editor in dollars', () => {
    const original = variant(1, { price: 1234, salePrice: 999, image: 'https://ae01.alicdn.com/kf/1.jpg' });
    const draft = skuDraftOf(original);
    expect(draft).toMatchObject({ price: '12.34', salePrice: '9.99', stock: '5' });
    expect(readSkuDraft(draft, [])).toEqual({ variant: original });
  });

  test('the gallery takes up to 8 images, each once', () => {
    let images: string[] = [];
    for (let n = 0; n < 10; n++) images = withGalleryImage(images, `/media/${n}.webp`);
    expect(images).toHaveLength(8);
    expect(withGalleryImage(['/a.webp'], '/a.webp')).toEqual(['/a.webp']);
  });
});
