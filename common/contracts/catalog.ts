import { z } from 'zod';
import { MAX_PAGE_LIMIT } from '../constants.ts';

export const productStatuses = ['active', 'inactive', 'draft'] as const;
export const ProductStatus = z.enum(productStatuses);

export const SkuVariant = z.object({
  skuId: z.string(),
  skuAttr: z.string(),
  name: z.string(),
  label: z.string(),
  /** Integer cents. */
  price: z.number().int(),
  salePrice: z.number().int().nullable(),
  stock: z.number().int(),
  image: z.string().nullable(),
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
  price: z.number().int(),
  salePrice: z.number().int().nullable(),
  images: z.array(z.string()),
  features: z.array(z.string()),
  specifications: z.record(z.string(), z.string()),
  tags: z.array(z.string()),
  /** Category names, the main one first. */
  categories: z.array(z.string()),
  variantLabel: z.string(),
  skuVariants: z.array(SkuVariant),
  skuImagePosition: z.number().int().nullable(),
  stock: z.number().int(),
  status: ProductStatus,
  aliId: z.string().nullable(),
  createdAt: z.string(),
});
export type Product = z.infer<typeof Product>;

export const Pagination = z.object({
  page: z.number().int(),
  pages: z.number().int(),
  total: z.number().int(),
  limit: z.number().int(),
});
export type Pagination = z.infer<typeof Pagination>;

export const ProductList = z.object({ products: z.array(Product), pagination: Pagination });
export type ProductList = z.infer<typeof ProductList>;

export const Category = z.object({ name: z.string(), slug: z.string(), productCount: z.number().int() });
export type Category = z.infer<typeof Category>;

/** page and limit of every public list; a bad value is refused, naming the field. */
export const PageQuery = z.object({
  page: z.coerce.number().int().min(1).max(10_000).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_LIMIT).default(24),
});

export const listProducts = {
  method: 'GET',
  path: '/api/products',
  query: PageQuery.extend({ category: z.string().trim().min(1).max(100).optional() }),
  response: ProductList,
} as const;

export const searchProducts = {
  method: 'GET',
  path: '/api/products/search/:term',
  params: z.object({ term: z.string().trim().min(1, 'must not be empty').max(100) }),
  query: PageQuery,
  response: ProductList,
} as const;

export const getProduct = {
  method: 'GET',
  path: '/api/products/:id',
  params: z.object({ id: z.string().trim().min(1).max(200) }),
  response: Product,
} as const;

export const getProductById = {
  method: 'GET',
  path: '/api/products/by-id/:id',
  params: z.object({ id: z.string().trim().min(1).max(200) }),
  response: Product,
} as const;

export const listCategories = {
  method: 'GET',
  path: '/api/categories',
  response: z.object({ categories: z.array(Category) }),
} as const;
