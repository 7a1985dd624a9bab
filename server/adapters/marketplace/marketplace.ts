/**
 * What the shop needs from the marketplace it dropships from, in the shop's own terms: integer
 * cents, the shop's variant shape (back-office spec 3: skuId, skuAttr, name, label, price,
 * salePrice, stock, image), ids as strings. Implementations: AliExpress's dropshipping API
 * (aliexpress-marketplace.ts) and the offline demo marketplace (demo-marketplace.ts).
 */

import type { RefusalReason } from '#server/http/remote-fetch.ts';

/** One purchasable variant (a marketplace SKU), as the SKU editor and the product table hold it. */
export type MarketplaceVariant = {
  /** The marketplace's SKU id (digits). */
  skuId: string;
  /** The SKU's attribute string, the key it is ordered by ('' for a product with one SKU). */
  skuAttr: string;
  /** Shown to shoppers: the seller's own value names, e.g. 'Black Green / Polarized'. */
  name: string;
  /** The marketplace's short value names, e.g. 'green / Polarized'. */
  label: string;
  /** The list price, integer cents. */
  price: number;
  /** The discounted price, integer cents; null when there is no discount. */
  salePrice: number | null;
  /** Units the marketplace can sell now. */
  stock: number;
  /** The variant's own picture, when it has one. */
  image: string | null;
};

/** A marketplace product as the Add and Edit Product modals fetch it. */
export type MarketplaceProduct = {
  productId: string;
  title: string;
  /** The seller's description, HTML as the marketplace gives it ('' when none). */
  descriptionHtml: string;
  /** Product pictures, https, without duplicates, at most MAX_PRODUCT_IMAGES. */
  imageUrls: string[];
  variants: MarketplaceVariant[];
  /** The name of the variant dimension(s), e.g. 'Color' or 'Lenses Color / Lens'; 'Style' when none. */
  variantLabel: string;
  /** What one unit costs us at the cheapest variant (its sale price when discounted), integer cents. */
  cost: number;
  /** Units across all variants. */
  stock: number;
  /** The product's specifications (name → value), e.g. { 'Brand Name': 'FUQIAN' }. */
  specifications: Record<string, string>;
  /** False when the marketplace no longer sells it (delisted, off shelf). */
  isOnSale: boolean;
};

/** Where and to whom the supplier ships: the order's shipping address, plus a phone when known. */
export type SupplierAddress = {
  name: string;
  street: string;
  line2?: string;
  city: string;
  state: string;
  zipCode: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
  /** Digits of the recipient's phone, without the country code; carriers ask for one. */
  phone?: string | null;
  /** The phone's country calling code, e.g. '+1'. */
  phoneCountryCode?: string | null;
};

export type SupplierOrderLine = {
  /** The marketplace product id (our products.aliId). */
  productId: string;
  /** The variant's skuAttr ('' for a product with one SKU). */
  skuAttr: string;
  quantity: number;
};

export type SupplierOrderRequest = {
  /** Our order id: the idempotency key (the same id never makes a second supplier order) and the reconciliation key. */
  orderId: string;
  /**
   * When the placement was first attempted (the attempt recorded before the call). The demo
   * marketplace derives its supplier order id and its simulated progress from it, so a retry
   * with the same attempt answers the same order even after a restart; AliExpress ignores it.
   */
  placedAt?: Date;
  address: SupplierAddress;
  lines: SupplierOrderLine[];
};

/** Where a supplier order is, in the shop's terms. */
export const supplierOrderStatuses = [
  'placed', // accepted, awaiting payment or the marketplace's checks
  'processing', // paid, the seller prepares it
  'shipped',
  'delivered',
  'cancelled',
  'on_hold', // a dispute or a frozen payment: needs a person
  'unknown', // a status this code does not know: change nothing, show it
] as const;
export type SupplierOrderStatus = (typeof supplierOrderStatuses)[number];

export type SupplierOrderState = {
  supplierOrderId: string;
  status: SupplierOrderStatus;
  /** The marketplace's own status words, for the back office (e.g. 'WAIT_BUYER_ACCEPT_GOODS'). */
  supplierStatus: string;
  /** The parcels' tracking numbers known so far. */
  trackingNumbers: { trackingNumber: string; carrier: string | null }[];
};

export type SupplierShipment = {
  trackingNumber: string;
  carrier: string | null;
  /** Newest first. */
  events: { at: Date; description: string }[];
};

export type Marketplace = {
  name: 'aliexpress' | 'demo';
  /** A product with its variants and pictures. Throws MarketplaceError ('not_found', …). */
  getProduct(productId: string): Promise<MarketplaceProduct>;
  /**
   * Places the supplier order for one of our orders, `orderId` as the marketplace's own order
   * reference (AliExpress's out_order_id), so that a second call with the same id answers the
   * first order instead of ordering twice. An outcome that cannot be known (a timeout, a 5xx, an
   * unreadable answer) throws 'unknown_outcome': call again with the same orderId. Whether the
   * real marketplace replays on that id is unconfirmed, so callers record the attempt first.
   */
  placeOrder(order: SupplierOrderRequest): Promise<{ supplierOrderIds: string[] }>;
  getOrder(supplierOrderId: string): Promise<SupplierOrderState>;
  /** The parcels of a shipped supplier order and their tracking events ([] before shipping). */
  getTracking(supplierOrderId: string): Promise<SupplierShipment[]>;
  /**
   * The bytes of one of the marketplace's pictures (a product-info image URL), fetched under the
   * remote-fetch rules: https, the marketplace's image hosts only, public addresses only, size and
   * time limits, an image by its bytes. Throws ImageDownloadError naming the refusal.
   */
  downloadImage(url: string): Promise<Buffer>;
};

/** A picture the marketplace adapter would not or could not download, with remote-fetch's reason. */
export class ImageDownloadError extends Error {
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, message: string) {
    super(message);
    this.name = 'ImageDownloadError';
    this.reason = reason;
  }
}

/** The product-level pictures kept from the marketplace (back-office spec 9: the first 10). */
export const MAX_PRODUCT_IMAGES = 10;

/** Spec 5: marketplace image URLs naming no photo, a placeholder or a transparent pixel are not pictures of the product. */
export function isPlaceholderImageUrl(url: string): boolean {
  return /no[-_ ]?photo|placeholder|transparent/i.test(url);
}

export const marketplaceErrorCodes = [
  'auth', // the app key, the signature or the access token was refused: fix the configuration
  'rate_limited', // too many calls: wait `retryAfterMs`
  'not_found', // no such product or order
  'not_available', // the product is not sold to the destination country
  'invalid_request', // our request was malformed (a bad id, a missing field)
  'rejected', // the marketplace refused the request (an order it will not place, an unknown SKU)
  'outage', // the marketplace could not be reached or failed on its side
  'bad_response', // an answer this code cannot read
  'unknown_outcome', // an order may or may not have been placed: place it again with the same orderId
] as const;
export type MarketplaceErrorCode = (typeof marketplaceErrorCodes)[number];

const transientCodes: ReadonlySet<MarketplaceErrorCode> = new Set(['rate_limited', 'outage', 'unknown_outcome']);

/** A failed marketplace call. Its message names the marketplace's own code and words, never a credential. */
export class MarketplaceError extends Error {
  readonly code: MarketplaceErrorCode;
  /** Worth trying again later (with the same arguments). */
  readonly transient: boolean;
  /** How long to wait before trying again, when the marketplace says or implies it. */
  readonly retryAfterMs: number | null;
  /** The marketplace's request id, for its support. */
  readonly requestId: string | null;
  constructor(
    code: MarketplaceErrorCode,
    message: string,
    { retryAfterMs = null, requestId = null }: { retryAfterMs?: number | null; requestId?: string | null } = {},
  ) {
    super(message);
    this.name = 'MarketplaceError';
    this.code = code;
    this.transient = transientCodes.has(code);
    this.retryAfterMs = retryAfterMs;
    this.requestId = requestId;
  }
}
