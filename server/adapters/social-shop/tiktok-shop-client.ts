import { z } from 'zod';
import {
  type AuthorisedShop,
  CHANNEL_ORDER_STATUSES,
  type ChannelCategory,
  type ChannelOrder,
  type ChannelOrderLine,
  type ChannelOrderPage,
  type ChannelWebhookEvent,
  type ListingIds,
  type ListingInput,
  type ShopAccess,
  type SocialShop,
  SocialShopError,
  type SocialShopErrorKind,
  type SocialShopTokens,
} from './social-shop.ts';
import { signRequest, verifyWebhookSignature } from './tiktok-shop-signing.ts';

/*
 * TikTok Shop's Partner API (version 202309 routes) as the SocialShop port, from the integration
 * facts (shared/integrations.md section 3). Plain fetch: TikTok publishes no Node client for the
 * Partner API, and the community ones cannot all be pointed at a stand-in or sign the body as sent.
 * Signing, answer parsing and error mapping are pure functions exported for tests.
 */

export const TIKTOK_SHOP_API_BASE = 'https://open-api.tiktokglobalshop.com';
export const TIKTOK_SHOP_AUTH_BASE = 'https://auth.tiktok-shops.com/api/v2';
export const TIKTOK_SHOP_AUTHORIZE_BASE = 'https://services.tiktokshop.com/open/authorize';

export type TikTokShopClientConfig = {
  /** 'tiktok-shop' against TikTok, 'sandbox' against the stand-in. */
  mode: 'tiktok-shop' | 'sandbox';
  appKey: string;
  appSecret: string;
  serviceId: string;
  apiBase?: string;
  authBase?: string;
  authorizeBase?: string;
  /** How requests are sent; the sandbox passes the stand-in's in-process handler. */
  fetch?: typeof fetch;
  /** Attempts per call for transient failures (429, 5xx, network) and the first backoff delay. */
  retry?: { attempts: number; baseDelayMs: number };
  /** How long one attempt may take. */
  timeoutMs?: number;
  /** The clock, for the signed timestamp and token expiries. */
  now?: () => Date;
};

const ORDER_SEARCH_PAGE_SIZE = 50;
/** The order detail route takes at most 50 ids per call. */
const ORDER_IDS_PER_CALL = 50;
/** What an error message keeps of the channel's own words. */
const DETAIL_MAX = 300;

// ---------------------------------------------------------------------------------------------
// Error mapping

/*
 * The envelope's codes, from TikTok's common-errors page as third-party clients quote it (none
 * confirmed against TikTok here), and the HTTP statuses:
 *   105002                                  access token expired               → token_expired
 *   105001, 105003, 105004, 36004004, 101000 invalid or revoked token           → credentials
 *   106001                                  invalid `sign` (seen live with 401) → credentials
 *   36009004 naming credentials, the sign,  the gateway's overloaded parameter  → credentials
 *     the timestamp, the app key or a token code; other 36009004 messages      → rejected
 *   105005, 36009033, 12052700              API or scope not granted to the app → not_approved
 *   36009002                                too many requests                  → rate_limited (retried)
 *   36009003, 36009007, 12001000            TikTok's internal errors           → unavailable (retried)
 *   HTTP 401 → credentials, 403 → not_approved, 404 → not_found, 429 → rate_limited, 5xx → unavailable
 *   any other non-zero code                                                    → rejected
 */
const TOKEN_EXPIRED_CODES = new Set([105002]);
const CREDENTIAL_CODES = new Set([105001, 105003, 105004, 36004004, 101000, 106001]);
const NOT_APPROVED_CODES = new Set([105005, 36009033, 12052700]);
const RATE_LIMIT_CODES = new Set([36009002]);
const INTERNAL_ERROR_CODES = new Set([36009003, 36009007, 12001000]);
const OVERLOADED_PARAMETER_CODE = 36009004;

/** The kind of a failed answer, from its envelope code (when there is one) and HTTP status. */
export function classifyFailure(status: number, code: number | null, message: string): SocialShopErrorKind {
  if (code !== null) {
    if (TOKEN_EXPIRED_CODES.has(code)) return 'token_expired';
    if (CREDENTIAL_CODES.has(code)) return 'credentials';
    if (NOT_APPROVED_CODES.has(code)) return 'not_approved';
    if (RATE_LIMIT_CODES.has(code)) return 'rate_limited';
    if (INTERNAL_ERROR_CODES.has(code)) return 'unavailable';
    if (code === OVERLOADED_PARAMETER_CODE) {
      return /credential|signature|\bsign\b|timestamp|app_key|access.?token/i.test(message)
        ? 'credentials'
        : 'rejected';
    }
  }
  if (status === 429) return 'rate_limited';
  if (status >= 500) return 'unavailable';
  if (status === 401) return 'credentials';
  if (status === 403) return 'not_approved';
  if (status === 404) return 'not_found';
  return 'rejected';
}

const isTransient = (kind: SocialShopErrorKind) => kind === 'rate_limited' || kind === 'unavailable';

// ---------------------------------------------------------------------------------------------
// Money and times

/** Integer cents as the channel's decimal amount ("12.50"), exactly. */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not an amount of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

/** The channel's decimal amount ("12.5", "3", 12.5) as integer cents, half up; null when it is not one. */
export function decimalToCents(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const fraction = (match[2] ?? '').padEnd(3, '0');
  return Number(match[1]) * 100 + Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
}

/**
 * A token expiry as a Date. The facts say unix timestamps (units unconfirmed); a value too small to
 * be a timestamp (before 2001) is read as seconds from now, so that either reading works.
 */
export function expiryToDate(value: number, now: Date): Date {
  return value < 1_000_000_000 ? new Date(now.getTime() + value * 1000) : new Date(value * 1000);
}

const unixSeconds = (date: Date) => Math.floor(date.getTime() / 1000);

// ---------------------------------------------------------------------------------------------
// Answer shapes (only what we read; the channel sends more)

const Id = z.union([z.string().min(1), z.int().nonnegative()]).transform(String);
const Seconds = z.union([z.number(), z.string().regex(/^\d+$/).transform(Number)]);
const OptionalText = z
  .string()
  .nullish()
  .transform((v) => v ?? '');

const TokenData = z.object({
  access_token: z.string().min(1),
  access_token_expire_in: Seconds,
  refresh_token: z.string().min(1),
  refresh_token_expire_in: Seconds,
  seller_name: z.string().nullish(),
  seller_base_region: z.string().nullish(),
});

const ShopsData = z.object({
  shops: z
    .array(z.object({ id: Id, name: z.string(), region: z.string(), cipher: z.string().min(1), code: OptionalText }))
    .nullish()
    .transform((v) => v ?? []),
});

const CategoriesData = z.object({
  categories: z
    .array(z.object({ id: Id, parent_id: Id.nullish(), local_name: z.string(), is_leaf: z.boolean() }))
    .nullish()
    .transform((v) => v ?? []),
});

const RecommendData = z.object({
  leaf_category_id: Id.nullish(),
  categories: z
    .array(z.object({ id: Id, name: z.string(), level: z.number().optional(), is_leaf: z.boolean().optional() }))
    .nullish()
    .transform((v) => v ?? []),
});

const WarehousesData = z.object({
  warehouses: z
    .array(
      z.object({
        id: Id,
        is_default: z.boolean().optional(),
        type: z.string().optional(),
        effect_status: z.string().optional(),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
});

const SkuIds = z.array(z.object({ id: Id, seller_sku: OptionalText })).nullish();

const ProductIdsData = z.object({ product_id: Id, skus: SkuIds });

const ProductSearchData = z.object({
  products: z
    .array(z.object({ id: Id, skus: SkuIds }))
    .nullish()
    .transform((v) => v ?? []),
});

const ImageData = z.object({ uri: z.string().min(1) });

const OrderStatus = z.enum(CHANNEL_ORDER_STATUSES);

const WireOrder = z.object({
  id: Id,
  status: OrderStatus,
  create_time: Seconds,
  update_time: Seconds,
  buyer_email: OptionalText,
  recipient_address: z
    .object({
      name: OptionalText,
      first_name: OptionalText,
      last_name: OptionalText,
      phone_number: OptionalText,
      address_line1: OptionalText,
      address_line2: OptionalText,
      address_line3: OptionalText,
      address_line4: OptionalText,
      postal_code: OptionalText,
      region_code: OptionalText,
      district_info: z
        .array(z.object({ address_level: OptionalText, address_name: OptionalText }))
        .nullish()
        .transform((v) => v ?? []),
    })
    .nullish(),
  payment: z
    .object({
      currency: z.string(),
      sub_total: z.unknown(),
      shipping_fee: z.unknown(),
      tax: z.unknown(),
      total_amount: z.unknown(),
    })
    .nullish(),
  line_items: z
    .array(
      z.object({
        id: Id,
        sku_id: Id,
        product_id: Id,
        product_name: OptionalText,
        seller_sku: OptionalText,
        sale_price: z.unknown(),
        /** Not in the 202309 shape (one line item per unit); read when present. */
        quantity: z.int().positive().optional(),
      }),
    )
    .nullish()
    .transform((v) => v ?? []),
});
type WireOrder = z.infer<typeof WireOrder>;

const OrdersData = z.object({
  orders: z
    .array(z.unknown())
    .nullish()
    .transform((v) => v ?? []),
  next_page_token: z.string().nullish(),
});

const WebhookBody = z.object({
  type: z.int(),
  tts_notification_id: Id,
  shop_id: Id,
  timestamp: Seconds,
  data: z.record(z.string(), z.unknown()),
});

// ---------------------------------------------------------------------------------------------
// Mapping (pure)

export function toTokens(data: z.infer<typeof TokenData>, now: Date): SocialShopTokens {
  return {
    accessToken: data.access_token,
    accessTokenExpiresAt: expiryToDate(data.access_token_expire_in, now),
    refreshToken: data.refresh_token,
    refreshTokenExpiresAt: expiryToDate(data.refresh_token_expire_in, now),
    sellerName: data.seller_name || null,
    region: data.seller_base_region || null,
  };
}

/** The create/update body of a listing: prices as decimal strings, one sales attribute 'Style' for variants. */
export function toProductBody(listing: ListingInput) {
  const hasVariants = listing.skus.length > 1;
  return {
    title: listing.title,
    description: listing.descriptionHtml,
    category_id: listing.categoryId,
    main_images: listing.imageUris.map((uri) => ({ uri })),
    external_product_id: listing.externalProductId,
    skus: listing.skus.map((sku) => ({
      seller_sku: sku.sellerSku,
      ...(hasVariants ? { sales_attributes: [{ name: 'Style', value_name: sku.variantName }] } : {}),
      price: { amount: centsToDecimal(sku.price), currency: sku.currency },
      inventory: [{ warehouse_id: listing.warehouseId, quantity: sku.quantity }],
    })),
  };
}

function toListingIds(productId: string, skus: z.infer<typeof SkuIds>): ListingIds {
  return { productId, skus: (skus ?? []).map((sku) => ({ id: sku.id, sellerSku: sku.seller_sku })) };
}

/** A district level's name ('L1' state, 'L3' city …) from the address's district_info. */
function district(levels: { address_level: string; address_name: string }[], level: string) {
  return levels.find((entry) => entry.address_level === level)?.address_name ?? '';
}

/**
 * A channel order in our terms. The 202309 shape has one line item per unit, so line items of the
 * same SKU and price are folded into one line with a quantity (its id is the first item's).
 */
export function toChannelOrder(order: WireOrder): ChannelOrder {
  const lines = new Map<string, ChannelOrderLine>();
  for (const item of order.line_items) {
    const salePrice = decimalToCents(item.sale_price) ?? 0;
    const key = `${item.sku_id}\u0000${salePrice}`;
    const line = lines.get(key);
    if (line) line.quantity += item.quantity ?? 1;
    else {
      lines.set(key, {
        id: item.id,
        sellerSku: item.seller_sku,
        channelProductId: item.product_id,
        channelSkuId: item.sku_id,
        productName: item.product_name,
        salePrice,
        quantity: item.quantity ?? 1,
      });
    }
  }
  const address = order.recipient_address;
  const levels = address?.district_info ?? [];
  const cents = (value: unknown) => decimalToCents(value) ?? 0;
  return {
    id: order.id,
    status: order.status,
    createdAt: new Date(order.create_time * 1000),
    updatedAt: new Date(order.update_time * 1000),
    buyerEmail: order.buyer_email,
    recipient: {
      name: address?.name || [address?.first_name, address?.last_name].filter(Boolean).join(' '),
      street: address?.address_line1 ?? '',
      line2: [address?.address_line2, address?.address_line3, address?.address_line4].filter(Boolean).join(', '),
      city: district(levels, 'L3') || district(levels, 'L2'),
      state: district(levels, 'L1'),
      zipCode: address?.postal_code ?? '',
      country: (address?.region_code ?? '').toUpperCase(),
      phone: address?.phone_number ?? '',
    },
    lines: [...lines.values()],
    payment: {
      currency: order.payment?.currency ?? '',
      subtotal: cents(order.payment?.sub_total),
      shipping: cents(order.payment?.shipping_fee),
      tax: cents(order.payment?.tax),
      total: cents(order.payment?.total_amount),
    },
  };
}

/** The webhook's event from its raw body (signature already checked); null when the body is not one. */
export function parseWebhookEvent(rawBody: string): ChannelWebhookEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(rawBody);
  } catch {
    return null;
  }
  const parsed = WebhookBody.safeParse(json);
  if (!parsed.success) return null;
  const body = parsed.data;
  return {
    type: body.type,
    notificationId: body.tts_notification_id,
    shopId: body.shop_id,
    timestamp: body.timestamp,
    data: body.data,
  };
}

// ---------------------------------------------------------------------------------------------
// The client

/** The answer of every call: code 0 is success. */
type Envelope = { code?: unknown; message?: unknown; request_id?: unknown; data?: unknown };

type Call = {
  method: 'GET' | 'POST' | 'PUT';
  path: string;
  query?: Record<string, string | number | undefined>;
  /** A JSON body: serialised once, and that string is signed and sent on every attempt. */
  json?: unknown;
  /** A multipart body: not signed. */
  form?: FormData;
  access?: { accessToken: string; shopCipher?: string };
  /** What the call does, for error messages. */
  what: string;
};

export function createTikTokShopClient(config: TikTokShopClientConfig): SocialShop {
  const { appKey, appSecret, serviceId, mode } = config;
  const apiBase = (config.apiBase ?? TIKTOK_SHOP_API_BASE).replace(/\/+$/, '');
  const authBase = (config.authBase ?? TIKTOK_SHOP_AUTH_BASE).replace(/\/+$/, '');
  const authorizeBase = config.authorizeBase ?? TIKTOK_SHOP_AUTHORIZE_BASE;
  const send = config.fetch ?? globalThis.fetch;
  const attempts = Math.max(1, config.retry?.attempts ?? 3);
  const baseDelayMs = config.retry?.baseDelayMs ?? 500;
  const timeoutMs = config.timeoutMs ?? 15_000;
  const now = config.now ?? (() => new Date());

  /** Sends one request per attempt (rebuilt each time: fresh timestamp and signature) and answers `data`. */
  async function exchange(what: string, secrets: string[], build: () => { url: string; init: RequestInit }) {
    const redact = (text: string) =>
      secrets.reduce((acc, secret) => (secret ? acc.replaceAll(secret, '[redacted]') : acc), text).slice(0, DETAIL_MAX);
    for (let attempt = 1; ; attempt++) {
      let failure: SocialShopError;
      try {
        const { url, init } = build();
        const response = await send(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
        const text = await response.text();
        let envelope: Envelope | null = null;
        try {
          const parsed: unknown = JSON.parse(text);
          if (typeof parsed === 'object' && parsed !== null) envelope = parsed as Envelope;
        } catch {
          envelope = null;
        }
        const code = typeof envelope?.code === 'number' ? envelope.code : Number(envelope?.code ?? Number.NaN);
        const requestId = typeof envelope?.request_id === 'string' ? envelope.request_id.slice(0, 64) : null;
        if (response.ok && code === 0) return envelope?.data ?? {};
        const words = typeof envelope?.message === 'string' ? redact(envelope.message) : '';
        const knownCode = Number.isFinite(code) ? code : null;
        // A success status without an envelope is a garbled answer (a proxy's page, a cut body): transient.
        const kind = !envelope && response.ok ? 'unavailable' : classifyFailure(response.status, knownCode, words);
        const reason = words || (envelope ? `code ${knownCode}` : `HTTP ${response.status} without an envelope`);
        failure = new SocialShopError(kind, `TikTok Shop ${what} failed: ${reason}`, knownCode, requestId);
      } catch (error) {
        if (error instanceof SocialShopError) throw error;
        const name = (error as Error).name;
        const cause = (error as { cause?: { code?: unknown } }).cause?.code;
        const why =
          name === 'TimeoutError'
            ? `no answer within ${timeoutMs} ms`
            : `the network failed${typeof cause === 'string' ? ` (${cause})` : ''}`;
        failure = new SocialShopError('unavailable', `TikTok Shop ${what} failed: ${why}`);
      }
      if (!isTransient(failure.kind) || attempt >= attempts) throw failure;
      // Exponential backoff with full jitter on top, so that parallel callers spread out.
      const delay = baseDelayMs * 2 ** (attempt - 1) + Math.random() * baseDelayMs;
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }

  async function api(call: Call): Promise<unknown> {
    const bodyText = call.json === undefined ? null : JSON.stringify(call.json);
    const secrets = [appSecret, call.access?.accessToken ?? ''];
    return exchange(call.what, secrets, () => {
      const query: Record<string, string> = {};
      for (const [key, value] of Object.entries(call.query ?? {})) {
        if (value !== undefined && value !== '') query[key] = String(value);
      }
      query.app_key = appKey;
      query.timestamp = String(unixSeconds(now()));
      if (call.access?.shopCipher) query.shop_cipher = call.access.shopCipher;
      query.sign = signRequest({
        appSecret,
        path: call.path,
        query,
        body: call.method === 'GET' || call.form ? null : (bodyText ?? ''),
      });
      const headers: Record<string, string> = {};
      // FormData sets its own multipart content type with the boundary.
      if (!call.form) headers['content-type'] = 'application/json';
      if (call.access) headers['x-tts-access-token'] = call.access.accessToken;
      return {
        url: `${apiBase}${call.path}?${new URLSearchParams(query)}`,
        init: {
          method: call.method,
          headers,
          body: call.form ?? (call.method === 'GET' ? undefined : (bodyText ?? '')),
        },
      };
    });
  }

  /** The token routes: plain GETs with the app secret in the query (not signed, per SKIT). */
  async function tokenCall(route: 'get' | 'refresh', params: Record<string, string>, what: string) {
    const query = new URLSearchParams({ app_key: appKey, app_secret: appSecret, ...params });
    const data = await exchange(what, [appSecret, ...Object.values(params)], () => ({
      url: `${authBase}/token/${route}?${query}`,
      init: { method: 'GET', headers: { 'content-type': 'application/json' } },
    }));
    return toTokens(parse(TokenData, data, what), now());
  }

  function parse<T extends z.ZodType>(schema: T, data: unknown, what: string): z.infer<T> {
    const result = schema.safeParse(data);
    if (!result.success) {
      throw new SocialShopError('unavailable', `TikTok Shop ${what} gave an answer of an unexpected shape`);
    }
    return result.data;
  }

  const shop = (access: ShopAccess) => ({ accessToken: access.accessToken, shopCipher: access.shopCipher });
  const productPath = (id: string) => `/product/202309/products/${encodeURIComponent(id)}`;

  return {
    mode,

    authorizeUrl(state) {
      const url = new URL(authorizeBase);
      url.searchParams.set('service_id', serviceId);
      url.searchParams.set('state', state);
      return url.href;
    },

    exchangeCode(authCode) {
      return tokenCall('get', { auth_code: authCode, grant_type: 'authorized_code' }, 'token exchange');
    },

    refreshTokens(refreshToken) {
      return tokenCall('refresh', { refresh_token: refreshToken, grant_type: 'refresh_token' }, 'token refresh');
    },

    async authorisedShops(accessToken): Promise<AuthorisedShop[]> {
      const what = 'authorised shops';
      const data = await api({ method: 'GET', path: '/authorization/202309/shops', access: { accessToken }, what });
      return parse(ShopsData, data, what).shops;
    },

    async uploadImage(access, image) {
      const what = 'image upload';
      const form = new FormData();
      form.set('data', new Blob([new Uint8Array(image.bytes)], { type: image.contentType }), image.fileName);
      form.set('use_case', 'MAIN_IMAGE');
      // Not shop-scoped: TikTok refuses a shop_cipher on this route (36009004, per community clients).
      const data = await api({
        method: 'POST',
        path: '/product/202309/images/upload',
        form,
        access: { accessToken: access.accessToken },
        what,
      });
      return parse(ImageData, data, what).uri;
    },

    async categories(access): Promise<ChannelCategory[]> {
      const what = 'categories';
      const data = await api({ method: 'GET', path: '/product/202309/categories', access: shop(access), what });
      return parse(CategoriesData, data, what)
        .categories.filter((category) => category.is_leaf)
        .map((category) => ({
          id: category.id,
          name: category.local_name,
          isLeaf: true,
          parentId: category.parent_id && category.parent_id !== '0' ? category.parent_id : null,
        }));
    },

    async recommendCategory(access, product) {
      const what = 'category recommendation';
      const data = await api({
        method: 'POST',
        path: '/product/202309/categories/recommend',
        json: { product_title: product.title, description: product.descriptionHtml },
        access: shop(access),
        what,
      });
      const { leaf_category_id: leafId, categories: path } = parse(RecommendData, data, what);
      if (!leafId) return null;
      const index = path.findIndex((category) => category.id === leafId);
      return {
        id: leafId,
        name: path[index]?.name ?? '',
        isLeaf: true,
        parentId: index > 0 ? (path[index - 1]?.id ?? null) : null,
      };
    },

    async defaultWarehouseId(access) {
      const what = 'warehouses';
      const data = await api({ method: 'GET', path: '/logistics/202309/warehouses', access: shop(access), what });
      const sales = parse(WarehousesData, data, what).warehouses.filter(
        (warehouse) =>
          (warehouse.type ?? 'SALES_WAREHOUSE') === 'SALES_WAREHOUSE' &&
          (warehouse.effect_status ?? 'ENABLED') === 'ENABLED',
      );
      const chosen = sales.find((warehouse) => warehouse.is_default) ?? sales[0];
      if (!chosen) throw new SocialShopError('not_found', 'TikTok Shop shop has no sales warehouse');
      return chosen.id;
    },

    async createProduct(access, listing) {
      const what = 'product create';
      const data = await api({
        method: 'POST',
        path: '/product/202309/products',
        json: toProductBody(listing),
        access: shop(access),
        what,
      });
      const ids = parse(ProductIdsData, data, what);
      return toListingIds(ids.product_id, ids.skus);
    },

    async updateProduct(access, channelProductId, listing) {
      const what = 'product update';
      const data = await api({
        method: 'PUT',
        path: productPath(channelProductId),
        json: toProductBody(listing),
        access: shop(access),
        what,
      });
      const ids = parse(ProductIdsData, data, what);
      return toListingIds(ids.product_id, ids.skus);
    },

    async findProductBySellerSku(access, sellerSku) {
      const what = 'product search';
      const data = await api({
        method: 'POST',
        path: '/product/202309/products/search',
        query: { page_size: 10 },
        json: { seller_skus: [sellerSku] },
        access: shop(access),
        what,
      });
      const product = parse(ProductSearchData, data, what).products.find((candidate) =>
        (candidate.skus ?? []).some((sku) => sku.seller_sku === sellerSku),
      );
      return product ? toListingIds(product.id, product.skus) : null;
    },

    async updateInventory(access, channelProductId, skus, warehouseId) {
      await api({
        method: 'POST',
        path: `${productPath(channelProductId)}/inventory/update`,
        json: {
          skus: skus.map((sku) => ({
            id: sku.channelSkuId,
            inventory: [{ warehouse_id: warehouseId, quantity: sku.quantity }],
          })),
        },
        access: shop(access),
        what: 'inventory update',
      });
    },

    async searchOrders(access, range, pageToken): Promise<ChannelOrderPage> {
      const what = 'order search';
      const data = await api({
        method: 'POST',
        path: '/order/202309/orders/search',
        query: { page_size: ORDER_SEARCH_PAGE_SIZE, page_token: pageToken ?? undefined },
        json: { update_time_ge: unixSeconds(range.updatedFrom), update_time_lt: unixSeconds(range.updatedTo) },
        access: shop(access),
        what,
      });
      const page = parse(OrdersData, data, what);
      return {
        orders: page.orders.map((order) => toChannelOrder(parse(WireOrder, order, what))),
        nextPageToken: page.next_page_token || null,
      };
    },

    async getOrders(access, ids) {
      const what = 'order details';
      const orders: ChannelOrder[] = [];
      for (let start = 0; start < ids.length; start += ORDER_IDS_PER_CALL) {
        const data = await api({
          method: 'GET',
          path: '/order/202309/orders',
          query: { ids: ids.slice(start, start + ORDER_IDS_PER_CALL).join(',') },
          access: shop(access),
          what,
        });
        for (const order of parse(OrdersData, data, what).orders)
          orders.push(toChannelOrder(parse(WireOrder, order, what)));
      }
      return orders;
    },

    verifyWebhook(rawBody, authorization) {
      if (!verifyWebhookSignature(appKey, appSecret, rawBody, authorization)) return null;
      return parseWebhookEvent(rawBody);
    },
  };
}
