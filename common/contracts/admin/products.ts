import * as z from 'zod/mini';
import {
  CATEGORY_NAME_MAX,
  DEFAULT_VARIANT_LABEL,
  MAX_PRODUCT_IMAGES,
  MAX_VARIANT_IMAGES,
  PRODUCT_CATEGORIES_MAX,
  PRODUCT_DESCRIPTION_MAX,
  PRODUCT_LIST_ITEM_MAX,
  PRODUCT_LIST_MAX,
  PRODUCT_PRICE_MAX,
  PRODUCT_SLUG_MAX,
  PRODUCT_TITLE_MAX,
  productMessages,
  SKU_VARIANTS_MAX,
  SLUG_PATTERN,
} from '../../product-rules.ts';
import { productStatuses, SkuVariant } from '../catalog.ts';
import { Pagination } from '../pagination.ts';
import { AdminListQuery } from './users.ts';

/** Spec 3 and 9: the products tab's sort columns; its list shows archived products too. */
export const adminProductSortFields = ['title', 'price', 'stock', 'sales', 'createdAt'] as const;
export const adminProductStatuses = [...productStatuses, 'archived'] as const;
export const AdminProductStatus = z.enum(adminProductStatuses);

/** A product as the back office reads it (spec 3, Product): amounts in integer cents. */
export const AdminProduct = z.object({
  id: z.string(),
  title: z.string(),
  slug: z.string(),
  description: z.string(),
  /** The first variant's skuId, for the table ('' without variants). */
  sku: z.string(),
  images: z.array(z.string()),
  price: z.int(),
  salePrice: z.nullable(z.int()),
  categories: z.array(z.string()),
  tags: z.array(z.string()),
  features: z.array(z.string()),
  status: AdminProductStatus,
  stock: z.int(),
  skuVariants: z.array(SkuVariant),
  aliId: z.nullable(z.string()),
  aliExpressPrice: z.nullable(z.int()),
  variantLabel: z.string(),
  skuImagePosition: z.nullable(z.int()),
  sales: z.int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type AdminProduct = z.infer<typeof AdminProduct>;

export const listAdminProducts = {
  method: 'GET',
  path: '/api/admin/products',
  query: z.extend(AdminListQuery, {
    sortBy: z._default(z.enum(adminProductSortFields), 'createdAt'),
    /** A category's name (any case); the list's every product when absent. */
    categoryFilter: z.optional(z.string().check(z.trim(), z.maxLength(CATEGORY_NAME_MAX))),
  }),
  response: z.object({ products: z.array(AdminProduct), pagination: Pagination }),
} as const;

export const ProductIdParam = z.object({
  id: z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be a product id (16 hex characters)')),
});

export const getAdminProduct = {
  method: 'GET',
  path: '/api/admin/products/:id',
  params: ProductIdParam,
  response: AdminProduct,
} as const;

export const listAdminCategories = {
  method: 'GET',
  path: '/api/admin/categories',
  response: z.object({
    categories: z.array(z.object({ id: z.string(), name: z.string(), slug: z.string(), productCount: z.int() })),
  }),
} as const;

const cents = (message: string) => z.int(message).check(z.gte(0, message), z.lte(PRODUCT_PRICE_MAX, message));
const listItem = z.string().check(z.maxLength(PRODUCT_LIST_ITEM_MAX));
/** A URL the shop stores or shows: a path on this site or an https address. */
const ImageUrl = z.string().check(
  z.maxLength(2000),
  z.refine(
    (url) => /^\/[^/\\]/.test(url) || /^https:\/\/[^\s]+$/.test(url),
    'must be a path on this site or an https URL',
  ),
);

/** Spec 3 and 5 (SKU editor): a variant as the form sends it, in integer cents. */
export const SkuVariantInput = z.object({
  skuId: z._default(z.string().check(z.trim(), z.maxLength(64)), ''),
  skuAttr: z.string().check(z.trim(), z.minLength(1, productMessages.skuNameAndAttr), z.maxLength(500)),
  name: z.string().check(z.trim(), z.minLength(1, productMessages.skuNameAndAttr), z.maxLength(200)),
  label: z._default(z.string().check(z.trim(), z.maxLength(200)), ''),
  price: z.int(productMessages.skuPrice).check(z.gt(0, productMessages.skuPrice), z.lte(PRODUCT_PRICE_MAX)),
  salePrice: z._default(z.nullable(cents('must be a whole number of cents, 0 or more')), null),
  stock: z.int(productMessages.skuStock).check(z.gte(0, productMessages.skuStock), z.lte(1_000_000)),
  image: z._default(z.nullable(ImageUrl), null),
  images: z._default(z.array(ImageUrl).check(z.maxLength(MAX_VARIANT_IMAGES)), []),
  isActive: z._default(z.boolean(), true),
});
export type SkuVariantInput = z.output<typeof SkuVariantInput>;

/** The product fields, each required as the edit form may send it. */
const productFields = {
  title: z
    .string(productMessages.titleRequired)
    .check(z.trim(), z.minLength(1, productMessages.titleRequired), z.maxLength(PRODUCT_TITLE_MAX)),
  /** Empty: generated from the title on create, the current one kept on edit. */
  slug: z.string().check(
    z.trim(),
    z.toLowerCase(),
    z.maxLength(PRODUCT_SLUG_MAX),
    z.refine((slug) => slug === '' || SLUG_PATTERN.test(slug), 'must be lower-case letters, digits and hyphens'),
  ),
  description: z.string().check(z.maxLength(PRODUCT_DESCRIPTION_MAX)),
  price: z
    .int(productMessages.priceRequired)
    .check(z.gt(0, productMessages.priceRequired), z.lte(PRODUCT_PRICE_MAX, productMessages.priceRequired)),
  salePrice: z.nullable(cents('must be a whole number of cents, 0 or more')),
  status: z.enum(productStatuses),
  categories: z.array(z.string().check(z.maxLength(CATEGORY_NAME_MAX))).check(z.maxLength(PRODUCT_CATEGORIES_MAX)),
  tags: z.array(listItem).check(z.maxLength(PRODUCT_LIST_MAX)),
  features: z.array(listItem).check(z.maxLength(PRODUCT_LIST_MAX)),
  images: z.array(ImageUrl).check(z.maxLength(MAX_PRODUCT_IMAGES)),
  skuVariants: z.array(SkuVariantInput).check(
    z.maxLength(SKU_VARIANTS_MAX),
    z.refine(
      (variants) => new Set(variants.map((variant) => variant.skuAttr)).size === variants.length,
      productMessages.skuDuplicate,
    ),
  ),
  aliId: z
    .string(productMessages.aliIdRequired)
    .check(
      z.trim(),
      z.minLength(1, productMessages.aliIdRequired),
      z.regex(/^\d{1,20}$/, 'must be the marketplace product id (digits)'),
    ),
  /** What the marketplace charges us per unit (read-only in the form: from Fetch Product Info). */
  aliExpressPrice: z.nullable(cents('must be a whole number of cents, 0 or more')),
  variantLabel: z.string().check(z.trim(), z.maxLength(60)),
  skuImagePosition: z.nullable(z.int().check(z.gte(0), z.lte(MAX_PRODUCT_IMAGES))),
  /** Units on hand for a product without variants (with variants: the sum of the active ones'). */
  stock: z.int().check(z.gte(0), z.lte(1_000_000)),
};

/** Spec 7: the product payload of the Add Product modal (POST); a field not given takes its default. */
export const ProductInput = z.object({
  ...productFields,
  slug: z._default(productFields.slug, ''),
  description: z._default(productFields.description, ''),
  salePrice: z._default(productFields.salePrice, null),
  status: z._default(productFields.status, 'active'),
  categories: z._default(productFields.categories, []),
  tags: z._default(productFields.tags, []),
  features: z._default(productFields.features, []),
  images: z._default(productFields.images, []),
  skuVariants: z._default(productFields.skuVariants, []),
  aliExpressPrice: z._default(productFields.aliExpressPrice, null),
  variantLabel: z._default(productFields.variantLabel, DEFAULT_VARIANT_LABEL),
  skuImagePosition: z._default(productFields.skuImagePosition, null),
  stock: z._default(productFields.stock, 0),
});
export type ProductInput = z.output<typeof ProductInput>;

/**
 * Spec 7: the Edit Product modal's fields (PATCH): any subset, without defaults (a field not sent
 * is left as it is); an empty slug keeps the current one.
 */
export const ProductPatch = z.partial(z.object(productFields));
export type ProductPatch = z.output<typeof ProductPatch>;

export const createAdminProduct = {
  method: 'POST',
  path: '/api/admin/products',
  body: ProductInput,
  response: z.object({ message: z.string(), product: AdminProduct }),
} as const;

export const updateAdminProduct = {
  method: 'PATCH',
  path: '/api/admin/products/:id',
  params: ProductIdParam,
  body: ProductPatch,
  response: z.object({ message: z.string(), product: AdminProduct }),
} as const;

/** A product with orders is archived instead (its order lines keep it); `archived` says which. */
export const deleteAdminProduct = {
  method: 'DELETE',
  path: '/api/admin/products/:id',
  params: ProductIdParam,
  response: z.object({ message: z.string(), archived: z.boolean() }),
} as const;
