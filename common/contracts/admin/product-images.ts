import * as z from 'zod/mini';
import { IMAGE_TYPES } from '../../product-rules.ts';

/**
 * The image manager's uploads (back-office spec 2, Image manager; 5, Image upload): the file is
 * the raw body, typed by its Content-Type (image/jpeg, image/png or image/webp, at most 5 MB);
 * where it goes is in the query (spec 3's storage paths: products/{productId}/image-{n}-… for a
 * saved product, drafts/{aliId or new}/image-{n}-… for one being created).
 */
export const uploadProductImage = {
  method: 'POST',
  path: '/api/admin/product-images',
  contentTypes: IMAGE_TYPES,
  query: z.object({
    productId: z.optional(z.string().check(z.regex(/^[0-9a-f]{16}$/, 'must be a product id (16 hex characters)'))),
    aliId: z.optional(z.string().check(z.regex(/^\d{1,20}$/, 'must be the marketplace product id (digits)'))),
    /** The image's position in the product's list (the n of image-{n}-{timestamp}). */
    n: z.coerce.number().check(z.int('must be a whole number'), z.gte(0), z.lte(9_999)),
  }),
  response: z.object({
    /** The widest rendition's URL (the storefront finds the narrower ones beside it). */
    url: z.string(),
    width: z.int(),
    height: z.int(),
  }),
} as const;

/**
 * Renames a stored image: the name's extension is stripped and it must not be empty (spec 5); the
 * server makes a file name of it and answers the new URL. Only this shop's product and draft images.
 */
export const renameProductImage = {
  method: 'POST',
  path: '/api/admin/product-images/rename',
  body: z.object({
    url: z.string().check(z.minLength(1, 'is required'), z.maxLength(2_000)),
    name: z.string().check(z.maxLength(200, 'must be at most 200 characters')),
  }),
  response: z.object({ url: z.string() }),
} as const;
