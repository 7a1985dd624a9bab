import * as z from 'zod/mini';
import { MAX_PRODUCT_IMAGES } from '../../product-rules.ts';

/*
 * The back office's marketplace calls (back-office spec 7, Marketplace): product info and SKUs
 * for the Add and Edit Product modals, the marketplace pictures of the image manager and their
 * import, and the storefront's refresh. Spec 3: a fetched variant's price and sale price are in
 * dollars; aliExpressPrice (the cost) is in integer cents like every other price of the shop.
 */

/** An imported picture's name. */
export const IMAGE_NAME_MAX = 120;

const noControlCharacters = (text: string) => !/\p{Cc}/u.test(text);

/** A marketplace product id: digits. */
export const MarketplaceId = z.string().check(z.regex(/^\d{1,20}$/, 'must be a marketplace product id (digits)'));
export const MarketplaceIdParam = z.object({ id: MarketplaceId });

/** Spec 3: each fetched variant; price and salePrice in dollars. */
export const FetchedVariant = z.object({
  skuId: z.string(),
  skuAttr: z.string(),
  name: z.string(),
  label: z.string(),
  /** Dollars. */
  price: z.number(),
  /** Dollars; null when the marketplace gives no discount. */
  salePrice: z.nullable(z.number()),
  stock: z.int(),
  image: z.nullable(z.string()),
});
export type FetchedVariant = z.infer<typeof FetchedVariant>;

/** Spec 3: the Marketplace product info response, with the description, the cost and the stock. */
export const MarketplaceProductInfo = z.object({
  productId: z.string(),
  title: z.string(),
  /** At most 10, https (or the shop's own paths with the demo marketplace), without duplicates or placeholders. */
  imageUrls: z.array(z.string()),
  variants: z.array(FetchedVariant),
  variantLabel: z.string(),
  /** The seller's description as plain text, paragraphs separated by blank lines. */
  description: z.string(),
  /** What one unit costs the shop, integer cents. */
  aliExpressPrice: z.int(),
  /** Units across the variants. */
  stock: z.int(),
});
export type MarketplaceProductInfo = z.infer<typeof MarketplaceProductInfo>;

export const getMarketplaceProductInfo = {
  method: 'GET',
  path: '/api/aliexpress/product-info/:id',
  params: MarketplaceIdParam,
  response: MarketplaceProductInfo,
} as const;

export const getMarketplaceProductSkus = {
  method: 'GET',
  path: '/api/aliexpress/product-skus/:id',
  params: MarketplaceIdParam,
  response: z.object({ variants: z.array(FetchedVariant) }),
} as const;

/** Fired once when the storefront starts: at most one refresh an hour per instance, in the background. */
export const refreshMarketplaceData = {
  method: 'GET',
  path: '/api/aliexpress/refresh',
  response: z.object({ started: z.boolean() }),
} as const;

/** Our product id (16 hex), or empty for a product being created. */
const OptionalProductId = z.optional(
  z.nullable(z.string().check(z.regex(/^([0-9a-f]{16})?$/, 'must be a product id (16 hex characters) or empty'))),
);
const UrlText = z
  .string()
  .check(
    z.trim(),
    z.minLength(1, 'is required'),
    z.maxLength(2000, 'must be at most 2000 characters'),
    z.refine(noControlCharacters, 'must not contain control characters'),
  );

/** Spec 7: the marketplace pictures of a product, from its id or URL. */
export const fetchMarketplaceImages = {
  method: 'POST',
  path: '/api/admin/fetch-aliexpress-images',
  body: z.object({
    productId: OptionalProductId,
    /** A marketplace id or a product URL (item/{id}.html, product/{id}, dp/{id}, productId= or id=). */
    aliExpressUrl: UrlText,
  }),
  response: z.object({ images: z.array(z.string()) }),
} as const;

/** Spec 7: one marketplace picture stored as the shop's own image. */
export const uploadMarketplaceImage = {
  method: 'POST',
  path: '/api/admin/upload-aliexpress-image',
  body: z.object({
    /** The product the picture is for; empty while it is being created (then stored under drafts/). */
    productId: OptionalProductId,
    /** The marketplace id of a product being created, for its drafts/{aliId} folder. */
    aliId: z.optional(
      z.nullable(z.string().check(z.regex(/^(\d{1,20})?$/, 'must be a marketplace product id (digits)'))),
    ),
    imageUrl: UrlText,
    /** The picture's place among the product's images (1 first), for its storage path; default 1. */
    position: z.optional(z.int().check(z.gte(1), z.lte(MAX_PRODUCT_IMAGES))),
    /** A name for the picture (its alt text and file name), without extension. */
    customName: z.optional(
      z.nullable(
        z
          .string()
          .check(
            z.trim(),
            z.maxLength(IMAGE_NAME_MAX, `must be at most ${IMAGE_NAME_MAX} characters`),
            z.refine(noControlCharacters, 'must not contain control characters'),
          ),
      ),
    ),
  }),
  response: z.object({ url: z.string(), width: z.int(), height: z.int(), name: z.string() }),
} as const;
