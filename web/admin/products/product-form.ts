import type { AdminProduct, ProductInput, SkuVariantInput } from '#common/contracts/admin/products.ts';
import { centsToDollars, dollarsToCents } from '#common/money.ts';
import {
  applyProductPrice,
  DEFAULT_VARIANT_LABEL,
  dropBlank,
  extractMarketplaceId,
  MAX_VARIANT_IMAGES,
  normaliseCategories,
  normaliseCategoryName,
  PRODUCT_PRICE_MAX,
  productMessages,
  SLUG_PATTERN,
  skuProblem,
} from '#common/product-rules.ts';

/**
 * The Add and Edit Product modals' state and rules (back-office spec 2, 3, 4 and 5), pure so
 * that they are tested without a browser: prices in dollars as typed, integer cents on the wire.
 */

export type ProductStatus = ProductInput['status'];
/** A SKU variant as the form keeps it: the wire's shape, amounts in integer cents. */
export type Variant = SkuVariantInput;

/** A variant as the marketplace routes answer it (spec 3: price and salePrice in dollars). */
export type FetchedVariant = {
  skuId: string;
  skuAttr: string;
  name: string;
  label: string;
  price: number;
  salePrice: number | null;
  stock: number;
  image: string | null;
};

/** GET /api/aliexpress/product-info/{id} (spec 3, Marketplace product info response). */
export type ProductInfo = {
  productId: string;
  title: string;
  description: string;
  imageUrls: string[];
  variants: FetchedVariant[];
  variantLabel: string;
  /** What one unit costs the shop, integer cents. */
  aliExpressPrice: number | null;
  stock: number;
};

/** What the AI Content Generator hands back (spec 3: AI response fields). */
export type AiContent = {
  title?: string;
  description?: string;
  features?: string[];
  tags?: string[];
  seo?: unknown;
};

export type ProductFormState = {
  /** The marketplace ID or URL as typed; the id is read out of it (spec 5). */
  aliInput: string;
  title: string;
  slug: string;
  description: string;
  /** Dollars as typed. */
  price: string;
  salePrice: string;
  status: ProductStatus;
  categories: string[];
  /** At least one row each (spec 5): blank rows are dropped on save. */
  tags: string[];
  features: string[];
  images: string[];
  skuImagePosition: number | null;
  variantLabel: string;
  /** The product's SKUs (active and inactive). */
  skuVariants: Variant[];
  /** The SKUs the last Fetch SKUs / Fetch Product Info found, in cents. */
  availableSkus: Variant[];
  /** The marketplace's pictures, offered by the image manager. */
  marketplaceImages: string[];
  /** Read-only: the marketplace's price (cents) and stock. */
  aliExpressPrice: number | null;
  marketStock: number | null;
  /** The product's own stock, kept for a product without variants. */
  stock: number;
  /** What the last Fetch Product Info filled in, to tell it from what the admin typed. */
  fetched: { productId: string; title: string; description: string; price: string } | null;
};

export type ProductFormErrors = Partial<Record<'aliInput' | 'title' | 'slug' | 'price' | 'salePrice', string>>;

const dollarText = (cents: number | null) => (cents === null ? '' : centsToDollars(cents).toFixed(2));

export function emptyProductForm(): ProductFormState {
  return {
    aliInput: '',
    title: '',
    slug: '',
    description: '',
    price: '',
    salePrice: '',
    status: 'active',
    categories: [],
    tags: [''],
    features: [''],
    images: [],
    skuImagePosition: null,
    variantLabel: DEFAULT_VARIANT_LABEL,
    skuVariants: [],
    availableSkus: [],
    marketplaceImages: [],
    aliExpressPrice: null,
    marketStock: null,
    stock: 0,
    fetched: null,
  };
}

const atLeastOneRow = (items: readonly string[]) => (items.length > 0 ? [...items] : ['']);

/** The Edit Product modal's form for a product (spec 2): money back in dollars. */
export function productFormOf(product: AdminProduct): ProductFormState {
  return {
    ...emptyProductForm(),
    aliInput: product.aliId ?? '',
    title: product.title,
    slug: product.slug,
    description: product.description,
    price: dollarText(product.price),
    salePrice: dollarText(product.salePrice),
    status: product.status === 'archived' ? 'inactive' : product.status,
    categories: [...product.categories],
    tags: atLeastOneRow(product.tags),
    features: atLeastOneRow(product.features),
    images: [...product.images],
    skuImagePosition: product.skuImagePosition,
    variantLabel: product.variantLabel || DEFAULT_VARIANT_LABEL,
    skuVariants: product.skuVariants.map((variant) => ({ ...variant, images: [...variant.images] })),
    aliExpressPrice: product.aliExpressPrice,
    marketStock: null,
    stock: product.stock,
  };
}

/** A fetched variant in the form's terms (dollars to cents), active. */
export function variantOfFetched(fetched: FetchedVariant): Variant {
  return {
    skuId: fetched.skuId,
    skuAttr: fetched.skuAttr,
    name: fetched.name || fetched.label || fetched.skuAttr || fetched.skuId,
    label: fetched.label,
    price: dollarsToCents(fetched.price),
    salePrice: fetched.salePrice === null || fetched.salePrice === undefined ? null : dollarsToCents(fetched.salePrice),
    stock: Math.max(0, Math.trunc(fetched.stock)),
    image: fetched.image,
    images: fetched.image ? [fetched.image] : [],
    isActive: true,
  };
}

/** A fetched SKU the shop can sell: a price above 0 and stock that is a count. */
export function isValidSku(variant: Variant): boolean {
  return variant.price > 0 && Number.isInteger(variant.stock) && variant.stock >= 0;
}

/**
 * Spec 4: the one SKU when exactly one SKU is fetched or valid (the variants the product has and
 * the valid ones fetched, counted once by skuAttr); null when there are several or none.
 */
export function singleSku(form: Pick<ProductFormState, 'skuVariants' | 'availableSkus'>): Variant | null {
  const known = new Map<string, Variant>();
  for (const variant of form.skuVariants) known.set(variant.skuAttr, variant);
  for (const variant of form.availableSkus) {
    if (isValidSku(variant) && !known.has(variant.skuAttr)) known.set(variant.skuAttr, variant);
  }
  if (known.size !== 1) return null;
  return [...known.values()][0] ?? null;
}

/** The fetched SKUs not yet on the product, filtered by a search over name, label, skuAttr and skuId. */
export function availableToAdd(
  form: Pick<ProductFormState, 'skuVariants' | 'availableSkus'>,
  search: string,
): Variant[] {
  const taken = new Set(form.skuVariants.map((variant) => variant.skuAttr));
  const words = search.trim().toLowerCase().split(/\s+/).filter(Boolean);
  return form.availableSkus.filter((variant) => {
    if (taken.has(variant.skuAttr)) return false;
    const text = `${variant.name} ${variant.label} ${variant.skuAttr} ${variant.skuId}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
}

/**
 * Fetch SKUs / Refresh SKUs (spec 4): the fetched list replaces the available one; with exactly
 * one valid SKU and none on the product yet, that SKU becomes the product's only variant.
 */
export function withFetchedSkus(form: ProductFormState, fetched: readonly FetchedVariant[]): ProductFormState {
  const availableSkus = fetched.map(variantOfFetched);
  const next = { ...form, availableSkus };
  const valid = availableSkus.filter(isValidSku);
  if (form.skuVariants.length === 0 && valid.length === 1 && valid[0]) {
    next.skuVariants = [valid[0]];
    if (form.price.trim() === '') next.price = dollarText(valid[0].price);
  }
  return next;
}

/**
 * Fetch Product Info (spec 2): the id, the marketplace's pictures, price and stock, its SKUs and
 * variant label; the title, description and price where the form has none yet or still holds
 * what the last fetch put there. Another product's info drops the SKUs taken from the first.
 */
export function withProductInfo(form: ProductFormState, info: ProductInfo): ProductFormState {
  const cheapest = info.variants
    .map(variantOfFetched)
    .filter(isValidSku)
    .reduce<number | null>((low, variant) => (low === null || variant.price < low ? variant.price : low), null);
  const before = form.fetched;
  const untouched = (current: string, fetched: string | undefined) =>
    current.trim() === '' || (fetched !== undefined && current === fetched);
  const title = untouched(form.title, before?.title) ? info.title : form.title;
  const description = untouched(form.description, before?.description) ? info.description : form.description;
  const price = untouched(form.price, before?.price) ? dollarText(cheapest) : form.price;
  const skuVariants = before && before.productId !== info.productId ? [] : form.skuVariants;
  const next: ProductFormState = {
    ...form,
    aliInput: info.productId,
    title,
    description,
    price,
    skuVariants,
    fetched: { productId: info.productId, title, description, price },
    marketplaceImages: [...info.imageUrls],
    aliExpressPrice: info.aliExpressPrice,
    marketStock: info.stock,
    variantLabel:
      skuVariants.length === 0 || form.variantLabel.trim() === ''
        ? info.variantLabel || DEFAULT_VARIANT_LABEL
        : form.variantLabel,
  };
  return withFetchedSkus(next, info.variants);
}

/** Spec 5: AI autofill applies only a non-empty title, a non-empty description and non-empty lists. */
export function withAiContent(form: ProductFormState, content: AiContent): ProductFormState {
  const next = { ...form };
  if (typeof content.title === 'string' && content.title.trim()) next.title = content.title.trim();
  if (typeof content.description === 'string' && content.description.trim()) next.description = content.description;
  const features = Array.isArray(content.features)
    ? dropBlank(content.features.filter((f) => typeof f === 'string'))
    : [];
  if (features.length > 0) next.features = features;
  const tags = Array.isArray(content.tags) ? dropBlank(content.tags.filter((t) => typeof t === 'string')) : [];
  if (tags.length > 0) next.tags = tags;
  return next;
}

/** Spec 5: a new category can be added when it is not blank and not already selected (any case). */
export function canAddCategory(selected: readonly string[], name: string): boolean {
  const normal = normaliseCategoryName(name).toLowerCase();
  return normal !== '' && !selected.some((category) => category.toLowerCase() === normal);
}

export function withCategory(selected: readonly string[], name: string): string[] {
  return canAddCategory(selected, name) ? normaliseCategories([...selected, name]) : [...selected];
}

/** Spec 5: a dynamic list's row removed, at least one row kept. */
export function withoutRow(rows: readonly string[], index: number): string[] {
  if (rows.length <= 1) return [''];
  return rows.filter((_, i) => i !== index);
}

export function withRow(rows: readonly string[], index: number, value: string): string[] {
  return rows.map((row, i) => (i === index ? value : row));
}

const dollars = /^\d+(\.\d{1,2})?$/;

/** A dollar amount as typed: its cents, null when blank, NaN when not an amount. */
export function readDollars(text: string): number | null {
  const value = text.trim();
  if (value === '') return null;
  if (!dollars.test(value)) return Number.NaN;
  return dollarsToCents(Number(value));
}

/** Whether Update Product must first ask (spec 2): the price changed and several SKUs are active. */
export function needsPriceConfirm(form: ProductFormState, originalPrice: number | null): boolean {
  if (originalPrice === null) return false;
  const price = readDollars(form.price);
  return (
    price !== null &&
    !Number.isNaN(price) &&
    price !== originalPrice &&
    form.skuVariants.filter((variant) => variant.isActive).length > 1
  );
}

/**
 * The form checked as spec 5 says (the server checks it again) and, when it holds, the product
 * payload (spec 7): cents, blank tags and features dropped, categories normalised, and with a
 * single SKU the product's price and sale price written over it (spec 4).
 */
export function readProductForm(
  form: ProductFormState,
  { priceChanged = false }: { priceChanged?: boolean } = {},
): { body: ProductInput } | { errors: ProductFormErrors } {
  const errors: ProductFormErrors = {};
  const aliId = extractMarketplaceId(form.aliInput);
  if (!aliId) errors.aliInput = productMessages.aliIdRequired;
  const title = form.title.trim();
  if (!title) errors.title = productMessages.titleRequired;
  const slug = form.slug.trim().toLowerCase();
  if (slug !== '' && !SLUG_PATTERN.test(slug)) {
    errors.slug = 'A URL slug is lower-case letters, digits and hyphens (empty: made from the title)';
  }
  const price = readDollars(form.price);
  if (price === null || Number.isNaN(price) || price <= 0 || price > PRODUCT_PRICE_MAX) {
    errors.price = productMessages.priceRequired;
  }
  const salePrice = readDollars(form.salePrice);
  if (salePrice !== null && (Number.isNaN(salePrice) || salePrice > PRODUCT_PRICE_MAX)) {
    errors.salePrice = 'A sale price is an amount of 0 or more, with at most 2 decimals';
  }
  if (Object.keys(errors).length > 0 || !aliId || price === null) return { errors };

  const one = singleSku(form);
  let skuVariants: Variant[];
  if (one) {
    // A lone SKU without an attribute string is the product itself: it is ordered without one.
    skuVariants = one.skuAttr.trim() ? [{ ...one, isActive: true }] : [];
  } else {
    skuVariants = form.skuVariants;
  }
  skuVariants = applyProductPrice({ price, salePrice }, skuVariants, priceChanged || one !== null);
  const stock = skuVariants.length === 0 ? (one?.stock ?? form.marketStock ?? form.stock) : form.stock;
  return {
    body: {
      title,
      slug,
      description: form.description,
      price,
      salePrice,
      status: form.status,
      categories: normaliseCategories(form.categories),
      tags: dropBlank(form.tags),
      features: dropBlank(form.features),
      images: [...form.images],
      skuVariants,
      aliId,
      aliExpressPrice: form.aliExpressPrice,
      variantLabel: form.variantLabel.trim() || DEFAULT_VARIANT_LABEL,
      skuImagePosition: form.skuImagePosition,
      stock: Math.max(0, stock),
    },
  };
}

/** The SKU editor's fields as typed (spec 2 and 5): money in dollars. */
export type SkuDraft = {
  skuId: string;
  skuAttr: string;
  name: string;
  label: string;
  price: string;
  salePrice: string;
  stock: string;
  image: string;
  images: string[];
  isActive: boolean;
};

export function skuDraftOf(variant: Variant): SkuDraft {
  return {
    skuId: variant.skuId,
    skuAttr: variant.skuAttr,
    name: variant.name,
    label: variant.label,
    price: dollarText(variant.price),
    salePrice: dollarText(variant.salePrice),
    stock: String(variant.stock),
    image: variant.image ?? '',
    images: [...variant.images],
    isActive: variant.isActive,
  };
}

export function emptySkuDraft(): SkuDraft {
  return {
    skuId: '',
    skuAttr: '',
    name: '',
    label: '',
    price: '',
    salePrice: '',
    stock: '0',
    image: '',
    images: [],
    isActive: true,
  };
}

/**
 * The SKU editor's Add Variant / Save Changes (spec 5): the first problem in the spec's words,
 * or the variant in cents. `otherSkuAttrs` are the product's other SKUs' (a duplicate is refused).
 */
export function readSkuDraft(
  draft: SkuDraft,
  otherSkuAttrs: readonly string[],
): { variant: Variant } | { error: string } {
  const price = readDollars(draft.price);
  const stockText = draft.stock.trim();
  const stock = /^-?\d+$/.test(stockText) ? Number(stockText) : Number.NaN;
  const problem = skuProblem(
    { name: draft.name, skuAttr: draft.skuAttr, price: price === null ? 0 : price, stock },
    otherSkuAttrs.map((attr) => attr.trim()),
  );
  if (problem) return { error: problem };
  if (price === null || Number.isNaN(price)) return { error: productMessages.skuPrice };
  const salePrice = readDollars(draft.salePrice);
  if (salePrice !== null && Number.isNaN(salePrice)) {
    return { error: 'A sale price is an amount of 0 or more, with at most 2 decimals.' };
  }
  if (draft.images.length > MAX_VARIANT_IMAGES) return { error: `A SKU has at most ${MAX_VARIANT_IMAGES} images.` };
  const image = draft.image.trim();
  return {
    variant: {
      skuId: draft.skuId.trim(),
      skuAttr: draft.skuAttr.trim(),
      name: draft.name.trim(),
      label: draft.label.trim(),
      price,
      salePrice,
      stock,
      image: image === '' ? null : image,
      images: draft.images.slice(0, MAX_VARIANT_IMAGES),
      isActive: draft.isActive,
    },
  };
}

/** A gallery with one more image (no duplicates, at most MAX_VARIANT_IMAGES). */
export function withGalleryImage(images: readonly string[], url: string): string[] {
  if (images.includes(url) || images.length >= MAX_VARIANT_IMAGES) return [...images];
  return [...images, url];
}
