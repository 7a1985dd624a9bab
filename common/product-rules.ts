/**
 * The back office's product rules (back-office spec 3, 4, 5 and 9), zod-free so that the admin
 * app's forms and the server apply the same ones.
 */

/** Spec 3: the default variant label. */
export const DEFAULT_VARIANT_LABEL = 'Style';
/** Spec 9: variant images per SKU, and product images offered as picks in the SKU editor. */
export const MAX_VARIANT_IMAGES = 8;
export const SKU_IMAGE_PICKS = 8;
/**
 * The product-level image manager's maximum (the spec leaves it open, docs/decisions.md): the
 * marketplace gives up to 10 pictures; room for as many of the shop's own again.
 */
export const MAX_PRODUCT_IMAGES = 20;
/** Spec 9: image files. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
/**
 * Spec 7: the built-in navigation categories (the storefront's nav of the seeded shop, in its
 * order): the products tab offers them when GET /api/admin/categories fails.
 */
export const NAVIGATION_CATEGORIES = [
  'New Releases',
  'Fountains',
  'Wellness',
  'Decor',
  'Lighting',
  'Aromatherapy',
  'Gifts',
] as const;
/** Spec 2: the products table cuts the description at 100 characters, and shows 2 category tags. */
export const TABLE_DESCRIPTION_CHARS = 100;
export const TABLE_CATEGORY_TAGS = 2;

export const PRODUCT_TITLE_MAX = 200;
export const PRODUCT_SLUG_MAX = 100;
export const PRODUCT_DESCRIPTION_MAX = 20_000;
export const PRODUCT_LIST_ITEM_MAX = 300;
export const PRODUCT_LIST_MAX = 30;
export const PRODUCT_CATEGORIES_MAX = 10;
export const CATEGORY_NAME_MAX = 60;
export const SKU_VARIANTS_MAX = 100;
/** Prices up to $1,000,000 (integer cents). */
export const PRODUCT_PRICE_MAX = 100_000_000;

/** Spec 5: the validation messages. */
export const productMessages = {
  titleRequired: 'Product title is required',
  priceRequired: 'Valid price is required',
  aliIdRequired: 'AliExpress Product ID is required',
  skuIdRequired: 'AliExpress Product ID is required to fetch SKUs',
  skuNameAndAttr: 'Name and AliExpress SKU (skuAttr) are required.',
  skuPrice: 'Price must be greater than 0.',
  skuStock: 'Stock must be ≥ 0.',
  skuDuplicate: 'This AliExpress SKU is already added.',
  imageType: 'Please select only JPEG, PNG, or WebP images.',
  imageSize: 'Please select images smaller than 5MB.',
  deleteConfirm: 'Are you sure you want to delete this product? This cannot be undone.',
  priceOverwrite: 'This product has several SKUs: changing the price overwrites the price of every SKU. Continue?',
} as const;

/** Spec 5: 'You can only have up to {max} images. Currently you have {n} images.' */
export function imageCountMessage(max: number, current: number): string {
  return `You can only have up to ${max} images. Currently you have ${current} images.`;
}

/** Spec 4: the note shown when exactly one SKU is valid. */
export function singleSkuNote(sku: string): string {
  return `1 valid SKU found — ${sku} automatically selected for all purchases`;
}

/**
 * Spec 5: the marketplace id from a numeric string or a URL (item/{id}.html, product/{id},
 * dp/{id}, a productId= or id= query); null when none is found.
 */
export function extractMarketplaceId(input: string): string | null {
  const text = input.trim();
  if (/^\d{1,20}$/.test(text)) return text;
  const patterns = [
    /\/item\/(\d{1,20})\.html/i,
    /\/product\/(\d{1,20})(?:[/?#.]|$)/i,
    /\/dp\/(\d{1,20})(?:[/?#.]|$)/i,
    /[?&]productId=(\d{1,20})(?:&|#|$)/i,
    /[?&]id=(\d{1,20})(?:&|#|$)/i,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match?.[1]) return match[1];
  }
  return null;
}

/** A URL slug from a title: lower-case ASCII words joined by hyphens, at most PRODUCT_SLUG_MAX characters. */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, PRODUCT_SLUG_MAX - 4)
    .replace(/-+$/, '');
  return slug || 'product';
}

/** A slug as the URL field accepts it. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** Spec 5: a category name trimmed with its inner spaces collapsed. */
export function normaliseCategoryName(name: string): string {
  return name.trim().replace(/\s+/g, ' ');
}

/** Category names normalised, blanks dropped, the first of names equal but for case kept. */
export function normaliseCategories(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of names) {
    const name = normaliseCategoryName(raw);
    const key = name.toLowerCase();
    if (!name || seen.has(key)) continue;
    seen.add(key);
    result.push(name);
  }
  return result;
}

/** Spec 5: blank tags and features are dropped on save (each trimmed). */
export function dropBlank(items: readonly string[]): string[] {
  return items.map((item) => item.trim()).filter((item) => item.length > 0);
}

/** Spec 2: the products table's description, cut to 100 characters. */
export function tableDescription(description: string): string {
  return description.length > TABLE_DESCRIPTION_CHARS
    ? `${description.slice(0, TABLE_DESCRIPTION_CHARS)}...`
    : description;
}

/** Spec 2: the first 2 category tags, and how many more ('+N more'). */
export function tableCategories(categories: readonly string[]): { shown: string[]; more: number } {
  return {
    shown: categories.slice(0, TABLE_CATEGORY_TAGS),
    more: Math.max(0, categories.length - TABLE_CATEGORY_TAGS),
  };
}

type PricedVariant = { price: number; salePrice: number | null; isActive: boolean };

/**
 * Spec 4: with exactly one valid (active) SKU, the product's price and sale price are that
 * SKU's on save; with several, a changed product price overwrites every SKU's (the form asks
 * first). Returns the variants to store.
 */
export function applyProductPrice<V extends PricedVariant>(
  product: { price: number; salePrice: number | null },
  variants: readonly V[],
  priceChanged: boolean,
): V[] {
  const active = variants.filter((variant) => variant.isActive);
  if (active.length === 1 || priceChanged) {
    return variants.map((variant) =>
      active.length === 1 && !variant.isActive
        ? variant
        : { ...variant, price: product.price, salePrice: product.salePrice },
    );
  }
  return [...variants];
}

/** Spec 5 (SKU editor): the first problem of a variant being added or saved, or null. */
export function skuProblem(
  variant: { name: string; skuAttr: string; price: number; stock: number },
  otherSkuAttrs: readonly string[],
): string | null {
  if (!variant.name.trim() || !variant.skuAttr.trim()) return productMessages.skuNameAndAttr;
  if (!(variant.price > 0)) return productMessages.skuPrice;
  if (!Number.isInteger(variant.stock) || variant.stock < 0) return productMessages.skuStock;
  if (otherSkuAttrs.includes(variant.skuAttr.trim())) return productMessages.skuDuplicate;
  return null;
}

/** Stock a product offers: the sum of its active variants' stock, or its own when it has none. */
export function productStock(variants: readonly { isActive: boolean; stock: number }[], ownStock: number): number {
  if (variants.length === 0) return Math.max(0, ownStock);
  return variants.filter((v) => v.isActive).reduce((sum, v) => sum + Math.max(0, v.stock), 0);
}
