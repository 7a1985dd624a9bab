import { createHash } from 'node:crypto';
import { effectivePrice } from '#common/money.ts';
import type { ListingInput, ListingSkuInput } from '#server/adapters/social-shop/social-shop.ts';

/** TikTok Shop takes up to 9 main pictures per listing. */
export const MAX_LISTING_IMAGES = 9;

/** What a listing is built from: one of our active products as the sync reads it. */
export type ListableProduct = {
  id: string;
  title: string;
  description: string;
  features: string[];
  price: number;
  salePrice: number | null;
  stock: number;
  variants: { skuId: string; name: string; price: number; salePrice: number | null; stock: number }[];
};

/** TikTok Shop's longest seller SKU. */
export const MAX_SELLER_SKU = 50;

/** A SKU id too long for a seller SKU stands there as its digest. */
export function skuDigest(skuId: string): string {
  return createHash('sha256').update(skuId).digest('base64url').slice(0, 24);
}

/**
 * Our key for a SKU on the channel (seller_sku): the product id, and the marketplace SKU id of
 * a variant ('-' between them). A channel order's line names it, which is how the line finds our
 * product. A hand-added variant's SKU id is its attribute string ('14:193#Blue'), which can be
 * long: past TikTok's 50 characters its digest stands for it ('~' between).
 */
export function sellerSkuOf(productId: string, skuId: string | null): string {
  if (!skuId) return productId;
  const plain = `${productId}-${skuId}`;
  return plain.length <= MAX_SELLER_SKU ? plain : `${productId}~${skuDigest(skuId)}`;
}

/**
 * The product and variant a seller SKU names (the product id has neither '-' nor '~'): the SKU id
 * itself, whatever it holds (it is only ever compared with our variants' ids), or its digest.
 */
export function parseSellerSku(
  sellerSku: string,
): { productId: string; skuId: string | null; skuDigest: string | null } | null {
  const match = /^([0-9a-f]{16})(?:-([^\p{Cc}]{1,500})|~([A-Za-z0-9_-]{24}))?$/u.exec(sellerSku);
  if (!match?.[1]) return null;
  return { productId: match[1], skuId: match[2] ?? null, skuDigest: match[3] ?? null };
}

/** Whether a seller SKU's variant part names this variant. */
export function namesVariant(ids: { skuId: string | null; skuDigest: string | null }, variantSkuId: string): boolean {
  return ids.skuId !== null ? ids.skuId === variantSkuId : ids.skuDigest === skuDigest(variantSkuId);
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The channel's description is HTML: our plain paragraphs, then the features as a list. */
export function descriptionHtml(description: string, features: string[]): string {
  const paragraphs = description
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean)
    .map((p) => `<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>`);
  const items = features.map((f) => f.trim()).filter(Boolean);
  const list = items.length ? [`<ul>${items.map((f) => `<li>${escapeHtml(f)}</li>`).join('')}</ul>`] : [];
  return [...paragraphs, ...list].join('') || `<p>${escapeHtml('')}</p>`;
}

/** The SKUs as listed: each active variant at the price the shop sells it for, or the product itself. */
export function listingSkus(product: ListableProduct, currency: string): ListingSkuInput[] {
  if (product.variants.length === 0) {
    return [
      {
        sellerSku: sellerSkuOf(product.id, null),
        variantName: '',
        price: effectivePrice(product.price, product.salePrice),
        currency,
        quantity: Math.max(0, product.stock),
      },
    ];
  }
  return product.variants.map((variant) => ({
    sellerSku: sellerSkuOf(product.id, variant.skuId),
    variantName: variant.name,
    price: effectivePrice(variant.price, variant.salePrice),
    currency,
    // A variant never has more than its product (the product's stock is what is left in all).
    quantity: Math.max(0, Math.min(variant.stock, product.stock)),
  }));
}

/**
 * What decides whether a listing must be sent again: everything but the stock (which the
 * inventory push keeps in step) and the channel's picture uris (our picture URLs stand for them).
 */
export function listingHash(listing: Omit<ListingInput, 'imageUris' | 'warehouseId'>, imageUrls: string[]): string {
  const content = {
    title: listing.title,
    descriptionHtml: listing.descriptionHtml,
    categoryId: listing.categoryId,
    imageUrls,
    skus: listing.skus.map(({ quantity: _quantity, ...sku }) => sku),
  };
  return createHash('sha256').update(JSON.stringify(content)).digest('hex');
}
