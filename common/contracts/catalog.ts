import * as z from 'zod/mini';
import { MAX_PAGE_LIMIT, SEARCH_TERM_MAX } from '../constants.ts';

export const productStatuses = ['active', 'inactive', 'draft'] as const;
export const ProductStatus = z.enum(productStatuses);

export const SkuVariant = z.object({
  skuId: z.string(),
  skuAttr: z.string(),
  name: z.string(),
  label: z.string(),
  /** Integer cents. */
  price: z.int(),
  salePrice: z.nullable(z.int()),
  stock: z.int(),
  image: z.nullable(z.string()),
  images: z.array(z.string()),
  isActive: z.boolean(),
});
export type SkuVariant = z.infer<typeof SkuVariant>;

export const Product = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  description: z.string(),
  /** Integer cents. */
  price: z.int(),
  salePrice: z.nullable(z.int()),
  images: z.array(z.string()),
  features: z.array(z.string()),
  specifications: z.record(z.string(), z.string()),
  tags: z.array(z.string()),
  /** Category names, the main one first. */
  categories: z.array(z.string()),
  variantLabel: z.string(),
  skuVariants: z.array(SkuVariant),
  skuImagePosition: z.nullable(z.int()),
  stock: z.int(),
  status: ProductStatus,
  aliId: z.nullable(z.string()),
  /** Average and count of the public reviews (not in the spec's list: the listing shows them). */
  rating: z.object({ average: z.number(), count: z.int() }),
  createdAt: z.string(),
});
export type Product = z.infer<typeof Product>;

import { Pagination } from './pagination.ts';

/**
 * A product in a list: what listings show, without the long text, the specifications and the
 * variants' galleries (GET /api/products/:id has the whole product). Lists stay small and fast.
 */
export const ProductSummary = z.extend(
  z.pick(Product, {
    id: true,
    slug: true,
    title: true,
    price: true,
    salePrice: true,
    images: true,
    features: true,
    categories: true,
    variantLabel: true,
    stock: true,
    status: true,
    rating: true,
    createdAt: true,
  }),
  {
    /** The start of the description, cut at a word, at most 200 characters. */
    summary: z.string(),
    skuVariants: z.array(z.omit(SkuVariant, { images: true })),
  },
);
export type ProductSummary = z.infer<typeof ProductSummary>;

export const ProductList = z.object({ products: z.array(ProductSummary), pagination: Pagination });
export type ProductList = z.infer<typeof ProductList>;

export const Category = z.object({ name: z.string(), slug: z.string(), productCount: z.int() });
export type Category = z.infer<typeof Category>;

/** page and limit of every public list; a bad value is refused, naming the field. */
export const PageQuery = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(10_000)), 1),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(MAX_PAGE_LIMIT)), 24),
});

/** A trimmed, non-empty text of at most `max` characters. */
const text = (max: number) => z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max));

export const listProducts = {
  method: 'GET',
  path: '/api/products',
  query: z.extend(PageQuery, { category: z.optional(text(100)) }),
  response: ProductList,
} as const;

export const searchProducts = {
  method: 'GET',
  path: '/api/products/search/:term',
  params: z.object({ term: text(SEARCH_TERM_MAX) }),
  query: PageQuery,
  response: ProductList,
} as const;

export const getProduct = {
  method: 'GET',
  path: '/api/products/:id',
  params: z.object({ id: text(200) }),
  response: Product,
} as const;

export const getProductById = {
  method: 'GET',
  path: '/api/products/by-id/:id',
  params: z.object({ id: text(200) }),
  response: Product,
} as const;

export const listCategories = {
  method: 'GET',
  path: '/api/categories',
  response: z.object({ categories: z.array(Category) }),
} as const;
