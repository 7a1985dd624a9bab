/**
 * What the shop needs from the social-shop channel (TikTok Shop's Partner API), in the shop's own
 * terms: integer cents, Dates, ids as strings. Implementations: the Partner API client
 * (tiktok-shop-client.ts), pointed at TikTok when TIKTOK_SHOP_* is configured and at the sandbox
 * stand-in (tiktok-shop-stand-in.ts, the same wire format) otherwise.
 */

/** The tokens of one authorisation (the seller's grant), with their expiry. */
export type SocialShopTokens = {
  accessToken: string;
  accessTokenExpiresAt: Date;
  refreshToken: string;
  refreshTokenExpiresAt: Date;
  /** The seller's name and base region, as the grant gives them (null when missing). */
  sellerName: string | null;
  region: string | null;
};

/** A shop the grant covers; `cipher` is what every shop-scoped call needs. */
export type AuthorisedShop = { id: string; name: string; region: string; cipher: string; code: string };

/** Shop-scoped calls: the access token and the shop's cipher. */
export type ShopAccess = { accessToken: string; shopCipher: string };

/** A category of the channel's tree (listings need a leaf). */
export type ChannelCategory = { id: string; name: string; isLeaf: boolean; parentId: string | null };

/** One SKU of a listing, as we send it. */
export type ListingSkuInput = {
  /** Our key for the SKU, unique within the shop: how a channel order's line finds our product and variant. */
  sellerSku: string;
  /** The variant's name shown on the channel ('' for a product with one SKU). */
  variantName: string;
  /** Integer cents. */
  price: number;
  currency: string;
  quantity: number;
};

/** A product listing as we send it (create or full update). */
export type ListingInput = {
  /** Our product id (the channel's external_product_id). */
  externalProductId: string;
  title: string;
  descriptionHtml: string;
  categoryId: string;
  /** Image uris returned by uploadImage, in order; at least one. */
  imageUris: string[];
  skus: ListingSkuInput[];
  warehouseId: string;
};

/** The channel's ids for a listing and its SKUs. */
export type ListingIds = { productId: string; skus: { id: string; sellerSku: string }[] };

/** A channel order's status (TikTok Shop's order_status values). */
export const CHANNEL_ORDER_STATUSES = [
  'UNPAID',
  'ON_HOLD',
  'AWAITING_SHIPMENT',
  'PARTIALLY_SHIPPING',
  'AWAITING_COLLECTION',
  'IN_TRANSIT',
  'DELIVERED',
  'COMPLETED',
  'CANCELLED',
] as const;
export type ChannelOrderStatus = (typeof CHANNEL_ORDER_STATUSES)[number];

export type ChannelOrderLine = {
  /** The channel's line id. */
  id: string;
  /** Our key for the SKU as we listed it (ListingSkuInput.sellerSku). */
  sellerSku: string;
  channelProductId: string;
  channelSkuId: string;
  productName: string;
  /** Integer cents per unit, as the buyer paid. */
  salePrice: number;
  quantity: number;
};

export type ChannelOrder = {
  id: string;
  status: ChannelOrderStatus;
  createdAt: Date;
  updatedAt: Date;
  /** The buyer's e-mail as the channel gives it (often a relay address); '' when none. */
  buyerEmail: string;
  recipient: {
    name: string;
    street: string;
    line2: string;
    city: string;
    state: string;
    zipCode: string;
    /** ISO 3166-1 alpha-2. */
    country: string;
    phone: string;
  };
  lines: ChannelOrderLine[];
  /** Integer cents. */
  payment: { currency: string; subtotal: number; shipping: number; tax: number; total: number };
};

/** A page of the order search. */
export type ChannelOrderPage = { orders: ChannelOrder[]; nextPageToken: string | null };

/** What kind of failure a call met (the envelope's code or the HTTP status, mapped). */
export type SocialShopErrorKind =
  /** The app's key or secret is wrong, or the token is invalid or revoked (401). */
  | 'credentials'
  /** The app may not call this API yet (403). */
  | 'not_approved'
  /** The access token has expired: refresh it and call again. */
  | 'token_expired'
  | 'not_found'
  /** The channel refused the request's content (a listing's category, a missing attribute…). */
  | 'rejected'
  /** Too many requests, after the retries. */
  | 'rate_limited'
  /** The channel did not answer or answered 5xx, after the retries. */
  | 'unavailable';

/** A failed call: the channel's code and message (never a token) and our kind. */
export class SocialShopError extends Error {
  readonly kind: SocialShopErrorKind;
  readonly code: number | null;
  readonly requestId: string | null;
  constructor(kind: SocialShopErrorKind, message: string, code: number | null = null, requestId: string | null = null) {
    super(message);
    this.name = 'SocialShopError';
    this.kind = kind;
    this.code = code;
    this.requestId = requestId;
  }
}

/** An event the channel pushed to our webhook (ORDER_STATUS_CHANGE is type 1). */
export type ChannelWebhookEvent = {
  type: number;
  notificationId: string;
  shopId: string;
  timestamp: number;
  data: Record<string, unknown>;
};

export interface SocialShop {
  /** 'tiktok-shop' against TikTok, 'sandbox' against the stand-in. */
  readonly mode: 'tiktok-shop' | 'sandbox';
  /** Where the seller authorises the app (opened in the 600x700 popup), with our state. */
  authorizeUrl(state: string): string;
  /** Trades the code of the redirect back for tokens. */
  exchangeCode(authCode: string): Promise<SocialShopTokens>;
  refreshTokens(refreshToken: string): Promise<SocialShopTokens>;
  /** The shops the grant covers, with their ciphers (Resolve Shops). */
  authorisedShops(accessToken: string): Promise<AuthorisedShop[]>;
  /** Uploads one picture (its bytes); answers the uri listings refer to. */
  uploadImage(access: ShopAccess, image: { bytes: Buffer; fileName: string; contentType: string }): Promise<string>;
  /** Leaf categories of the shop's category tree. */
  categories(access: ShopAccess): Promise<ChannelCategory[]>;
  /** The channel's recommended leaf category for a product, or null. */
  recommendCategory(
    access: ShopAccess,
    product: { title: string; descriptionHtml: string },
  ): Promise<ChannelCategory | null>;
  /** The shop's default warehouse id (stock is set per warehouse). */
  defaultWarehouseId(access: ShopAccess): Promise<string>;
  createProduct(access: ShopAccess, listing: ListingInput): Promise<ListingIds>;
  /** Replaces the whole listing (PUT). */
  updateProduct(access: ShopAccess, channelProductId: string, listing: ListingInput): Promise<ListingIds>;
  /** Finds a listing by one of its seller SKUs (to adopt one created by a run that died before recording it). */
  findProductBySellerSku(access: ShopAccess, sellerSku: string): Promise<ListingIds | null>;
  updateInventory(
    access: ShopAccess,
    channelProductId: string,
    skus: { channelSkuId: string; quantity: number }[],
    warehouseId: string,
  ): Promise<void>;
  /** Orders updated in [from, to), a page at a time. */
  searchOrders(
    access: ShopAccess,
    range: { updatedFrom: Date; updatedTo: Date },
    pageToken?: string | null,
  ): Promise<ChannelOrderPage>;
  getOrders(access: ShopAccess, ids: string[]): Promise<ChannelOrder[]>;
  /**
   * The webhook's event when its `Authorization` header is the HMAC of this app (checked in
   * constant time); null when the signature or the body is wrong.
   */
  verifyWebhook(rawBody: string, authorization: string | undefined): ChannelWebhookEvent | null;
}
