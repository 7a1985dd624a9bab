import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { fetchRemoteImage, marketplaceImageHosts, type RemoteFetchOptions } from '#server/http/remote-fetch.ts';
import {
  ImageDownloadError,
  isPlaceholderImageUrl,
  MAX_PRODUCT_IMAGES,
  type Marketplace,
  MarketplaceError,
  type MarketplaceProduct,
  type MarketplaceVariant,
  type SupplierOrderRequest,
  type SupplierOrderState,
  type SupplierOrderStatus,
  type SupplierShipment,
} from './marketplace.ts';

/*
 * AliExpress's dropshipping ("DS") API through its Open Platform gateway, as the integration facts
 * (shared/integrations.md section 2) describe it: every call a signed form POST to {base}/sync.
 * Signing, parsing and error mapping are pure functions exported for tests. Plain fetch: the one
 * Node client in the npm registry (ae_sdk 0.6.0, one maintainer) has its host fixed, so it cannot
 * be pointed at a stand-in; it puts the access token and the signature in the URL (kept by proxies
 * and access logs), has no timeout, and sorts keys by locale rather than ASCII order.
 */

export const ALIEXPRESS_API_BASE = 'https://api-sg.aliexpress.com';

export type AliExpressOptions = {
  appKey: string;
  appSecret: string;
  /** The seller's access token, read at each call so that a refreshed one is used at once. */
  accessToken: string | (() => string);
  /** The gateway's root; tests point it at the local stand-in. */
  apiBase?: string;
  /** Where products are priced and shipped to (ISO 3166-1 alpha-2). */
  shipToCountry?: string;
  /** The carrier service asked for on each line (e.g. CAINIAO_STANDARD); unset: the marketplace's default. */
  logisticsServiceName?: string | null;
  /** Pay supplier orders at once with the account's payment method; off: they wait to be paid on AliExpress. */
  payAutomatically?: boolean;
  /** How long one call may take. */
  timeoutMs?: number;
  /** The clock, for the signed timestamp. */
  now?: () => number;
  /**
   * How pictures are downloaded (remote-fetch's options); the allowed hosts are always the
   * marketplace's image hosts unless given. Tests point the name resolution at local servers.
   */
  imageFetch?: RemoteFetchOptions;
};

const PRODUCT_GET = 'aliexpress.ds.product.get';
const ORDER_CREATE = 'aliexpress.ds.order.create';
const ORDER_GET = 'aliexpress.trade.ds.order.get';
const ORDER_TRACKING = 'aliexpress.ds.order.tracking.get';

/** The doc's FAQ: on throttling, sleep 1-2 s and retry. */
const RATE_LIMIT_WAIT_MS = 2000;
/** What an error message keeps of the marketplace's own words. */
const DETAIL_MAX = 200;

// ---------------------------------------------------------------------------------------------
// Signing (integrations 2.2)

/**
 * The request's signature: every parameter but `sign`, sorted by key in ASCII order, written
 * key1value1key2value2… without separators or encoding (prefixed with the API path for the
 * REST-style system APIs, whose name contains '/'), HMAC-SHA256 with the app secret, upper-case hex.
 */
export function signAliExpressRequest(params: Readonly<Record<string, string>>, appSecret: string): string {
  const keys = Object.keys(params)
    .filter((key) => key !== 'sign')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const method = params.method ?? '';
  let text = method.includes('/') ? method : '';
  for (const key of keys) text += `${key}${params[key]}`;
  return createHmac('sha256', appSecret).update(text, 'utf8').digest('hex').toUpperCase();
}

/** The system parameters of one call plus its business ones, signed. */
export function buildSignedParams(
  method: string,
  business: Readonly<Record<string, string>>,
  {
    appKey,
    appSecret,
    accessToken,
    timestamp,
  }: { appKey: string; appSecret: string; accessToken: string; timestamp: number },
): Record<string, string> {
  const params: Record<string, string> = {
    ...business,
    app_key: appKey,
    method,
    // Epoch milliseconds, as the official SDK sends it.
    timestamp: String(timestamp),
    sign_method: 'sha256',
    // The official Python SDK's name for the access token on /sync.
    session: accessToken,
    format: 'json',
    simplify: 'false',
  };
  params.sign = signAliExpressRequest(params, appSecret);
  return params;
}

// ---------------------------------------------------------------------------------------------
// Reading answers

/** JSON with integers beyond 2^53 kept as their digits (AliExpress ids have up to 19). */
export function parseAliExpressJson(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
    typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value) && context?.source
      ? context.source
      : value,
  );
}

/**
 * A list as the gateway sends it: a bare array (the doc's samples) or an object holding one array
 * under a singular key (`{ ae_item_sku_info_d_t_o: […] }`, the wire); absent is empty.
 */
export function unwrapList(value: unknown): unknown {
  if (value === undefined || value === null || value === '') return [];
  if (Array.isArray(value)) return value;
  if (typeof value === 'object') {
    const values = Object.values(value);
    if (values.length === 0) return [];
    const arrays = values.filter(Array.isArray);
    if (arrays.length === 1 && values.length === 1) return arrays[0];
  }
  return value;
}

/**
 * A decimal amount ("3.94", 3.94, "12") to integer cents, half up at the cent, without binary
 * floating point; null for anything else (negative, empty, exponent notation).
 */
export function decimalToCents(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,9})(?:\.(\d+))?$/.exec(text);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = (match[2] ?? '').padEnd(3, '0');
  const cents = Number(fraction.slice(0, 2)) + (Number(fraction[2]) >= 5 ? 1 : 0);
  return whole * 100 + cents;
}

const IdText = z
  .union([
    z
      .string()
      .trim()
      .regex(/^\d{1,20}$/),
    z.int().nonnegative(),
  ])
  .transform(String);
const Text = z.union([z.string(), z.number()]).transform((v) => String(v).trim());
const listOf = <T extends z.ZodType>(item: T) => z.preprocess(unwrapList, z.array(item));

const SkuProperty = z.object({
  sku_property_name: Text.optional(),
  sku_property_value: Text.optional(),
  property_value_definition_name: Text.optional(),
  sku_image: Text.optional(),
});

const Sku = z.object({
  sku_id: IdText,
  sku_attr: Text.optional(),
  sku_price: z.unknown(),
  offer_sale_price: z.unknown().optional(),
  sku_available_stock: z.union([z.int(), z.string().regex(/^\d+$/).transform(Number)]).optional(),
  currency_code: z.string().optional(),
  ae_sku_property_dtos: listOf(SkuProperty).optional(),
});

const ProductResult = z.object({
  ae_item_base_info_dto: z.object({
    product_id: IdText,
    subject: Text,
    detail: z.string().optional(),
    mobile_detail: z.string().optional(),
    product_status_type: z.string().optional(),
    currency_code: z.string().optional(),
  }),
  ae_multimedia_info_dto: z.object({ image_urls: z.string().optional() }).optional(),
  ae_item_sku_info_dtos: listOf(Sku),
  ae_item_properties: listOf(z.object({ attr_name: Text, attr_value: Text.optional() })).optional(),
});

/** A picture address made https ('//host/…' and 'http://…' upgraded); null when it is not a web URL. */
export function normaliseImageUrl(raw: string): string | null {
  const text = raw.trim();
  const absolute = text.startsWith('//') ? `https:${text}` : text.replace(/^http:\/\//i, 'https://');
  try {
    const url = new URL(absolute);
    return url.protocol === 'https:' && url.hostname ? url.href : null;
  } catch {
    return null;
  }
}

/** The `#Name` parts of a sku_attr ("73:175#Black Green;71:193#Polarized" → ['Black Green', 'Polarized']), '' where none. */
export function skuAttrNames(skuAttr: string): string[] {
  if (!skuAttr) return [];
  return skuAttr.split(';').map((part) => {
    const hash = part.indexOf('#');
    return hash === -1 ? '' : part.slice(hash + 1).trim();
  });
}

/**
 * The variant parsing rules (integrations 2.4): a SKU's name is each property's seller-given value
 * name (property_value_definition_name), else its marketplace value, else the `#Name` of its
 * sku_attr, joined with ' / '; its label is each marketplace value (else the same name); its image
 * the first sku_image; the product's variant label the first SKU's property names ('Style' when
 * none). A product's only SKU without properties is named 'Standard'. SKUs repeating a sku_attr
 * are dropped (it is the ordering key, unique per product).
 */
export function parseAliExpressProduct(result: unknown): MarketplaceProduct {
  const parsed = ProductResult.safeParse(result);
  if (!parsed.success) {
    throw new MarketplaceError('bad_response', `AliExpress product answer unreadable: ${describeIssues(parsed.error)}`);
  }
  const { ae_item_base_info_dto: base, ae_multimedia_info_dto: media } = parsed.data;
  const skus = parsed.data.ae_item_sku_info_dtos;
  if (skus.length === 0) {
    throw new MarketplaceError('bad_response', `AliExpress product ${base.product_id} has no SKUs`);
  }

  const variants: MarketplaceVariant[] = [];
  const seen = new Set<string>();
  let variantLabel = '';
  for (const sku of skus) {
    const skuAttr = sku.sku_attr ?? '';
    if (seen.has(skuAttr)) continue;
    seen.add(skuAttr);
    const currency = sku.currency_code ?? base.currency_code ?? 'USD';
    if (currency !== 'USD') {
      throw new MarketplaceError(
        'bad_response',
        `AliExpress priced SKU ${sku.sku_id} in ${currency.slice(0, 8)}, not USD`,
      );
    }
    const price = decimalToCents(sku.sku_price);
    const offer = sku.offer_sale_price === undefined ? null : decimalToCents(sku.offer_sale_price);
    if (price === null || (sku.offer_sale_price !== undefined && offer === null)) {
      throw new MarketplaceError('bad_response', `AliExpress SKU ${sku.sku_id} has an unreadable price`);
    }
    const properties = sku.ae_sku_property_dtos ?? [];
    const attrNames = skuAttrNames(skuAttr);
    const names: string[] = [];
    const labels: string[] = [];
    const count = Math.max(properties.length, attrNames.length);
    for (let i = 0; i < count; i++) {
      const property = properties[i];
      const name = property?.property_value_definition_name || property?.sku_property_value || attrNames[i] || '';
      const label = property?.sku_property_value || name;
      if (name) names.push(name);
      if (label) labels.push(label);
    }
    if (!variantLabel) {
      variantLabel = properties
        .map((p) => p.sku_property_name ?? '')
        .filter(Boolean)
        .join(' / ');
    }
    const name = names.join(' / ') || (skus.length === 1 ? 'Standard' : `SKU ${sku.sku_id}`);
    const imageText = properties.map((p) => p.sku_image ?? '').find(Boolean);
    variants.push({
      skuId: sku.sku_id,
      skuAttr,
      name,
      label: labels.join(' / ') || name,
      price,
      salePrice: offer !== null && offer < price ? offer : null,
      stock: Math.max(0, sku.sku_available_stock ?? 0),
      image: imageText ? normaliseImageUrl(imageText) : null,
    });
  }

  const imageUrls: string[] = [];
  for (const raw of (media?.image_urls ?? '').split(';')) {
    const url = normaliseImageUrl(raw);
    // Placeholders do not take one of the 10 places.
    if (url && !isPlaceholderImageUrl(url) && !imageUrls.includes(url)) imageUrls.push(url);
    if (imageUrls.length === MAX_PRODUCT_IMAGES) break;
  }

  // A Map, so that a property named like an Object member (__proto__) is only a name.
  const specifications = new Map<string, string>();
  for (const { attr_name: name, attr_value: value } of parsed.data.ae_item_properties ?? []) {
    if (!name || !value) continue;
    // A property with several values comes as several rows of the same name.
    const earlier = specifications.get(name);
    specifications.set(name, earlier ? `${earlier}, ${value}` : value);
  }

  return {
    productId: base.product_id,
    title: base.subject,
    descriptionHtml: base.detail ?? base.mobile_detail ?? '',
    imageUrls,
    variants,
    variantLabel: variantLabel || 'Style',
    cost: Math.min(...variants.map((v) => v.salePrice ?? v.price)),
    stock: variants.reduce((sum, v) => sum + v.stock, 0),
    specifications: Object.fromEntries(specifications),
    isOnSale: base.product_status_type === undefined || base.product_status_type === 'onSelling',
  };
}

/**
 * AliExpress order statuses in the shop's terms [unconfirmed beyond WAIT_BUYER_ACCEPT_GOODS, the
 * one integrations 2.6 names: the rest are AliExpress's documented status words as commonly
 * read]. FUND_PROCESSING follows the buyer's receipt; IN_CANCEL is a cancellation asked, not yet
 * done, so it waits for a person; FINISH closes both a received order and a cancelled one, told
 * apart by whether anything shipped.
 */
export function toSupplierOrderStatus(orderStatus: string, logisticsStatus: string): SupplierOrderStatus {
  switch (orderStatus) {
    case 'PLACE_ORDER_SUCCESS':
    case 'RISK_CONTROL':
    case 'WAIT_SELLER_EXAMINE_MONEY':
      return 'placed';
    case 'WAIT_SELLER_SEND_GOODS':
    case 'SELLER_PART_SEND_GOODS':
      return 'processing';
    case 'WAIT_BUYER_ACCEPT_GOODS':
      return 'shipped';
    case 'FUND_PROCESSING':
      return 'delivered';
    case 'IN_CANCEL':
    case 'IN_ISSUE':
    case 'IN_FROZEN':
      return 'on_hold';
    case 'FINISH':
      return logisticsStatus === '' || logisticsStatus === 'NO_LOGISTICS' ? 'cancelled' : 'delivered';
    default:
      return 'unknown';
  }
}

const OrderResult = z.object({
  order_status: Text,
  logistics_status: Text.optional(),
  logistics_info_list: listOf(
    z.object({ logistics_no: Text.optional(), logistics_service: Text.optional() }),
  ).optional(),
});

export function parseAliExpressOrder(supplierOrderId: string, result: unknown): SupplierOrderState {
  const parsed = OrderResult.safeParse(result);
  if (!parsed.success) {
    throw new MarketplaceError('bad_response', `AliExpress order answer unreadable: ${describeIssues(parsed.error)}`);
  }
  const { order_status: status, logistics_status: logistics = '' } = parsed.data;
  return {
    supplierOrderId,
    status: toSupplierOrderStatus(status, logistics),
    supplierStatus: status.slice(0, 60),
    trackingNumbers: (parsed.data.logistics_info_list ?? [])
      .filter((l) => l.logistics_no)
      .map((l) => ({ trackingNumber: l.logistics_no ?? '', carrier: l.logistics_service || null })),
  };
}

const TrackingResult = z.object({
  ret: z.union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')]),
  code: Text.optional(),
  msg: Text.optional(),
  data: z
    .object({
      tracking_detail_line_list: listOf(
        z.object({
          mail_no: Text,
          carrier_name: Text.optional(),
          detail_node_list: listOf(
            z.object({
              time_stamp: z.union([z.int(), z.string().regex(/^\d+$/).transform(Number)]),
              tracking_detail_desc: Text.optional(),
              tracking_name: Text.optional(),
            }),
          ).optional(),
        }),
      ).optional(),
    })
    .optional(),
});

export function parseAliExpressTracking(result: unknown): SupplierShipment[] {
  const parsed = TrackingResult.safeParse(result);
  if (!parsed.success) {
    throw new MarketplaceError(
      'bad_response',
      `AliExpress tracking answer unreadable: ${describeIssues(parsed.error)}`,
    );
  }
  if (!parsed.data.ret) {
    throw new MarketplaceError(
      'rejected',
      `AliExpress refused the tracking query: ${detail(parsed.data.code)} ${detail(parsed.data.msg)}`.trim(),
    );
  }
  return (parsed.data.data?.tracking_detail_line_list ?? []).map((line) => ({
    trackingNumber: line.mail_no,
    carrier: line.carrier_name || null,
    events: (line.detail_node_list ?? [])
      .map((node) => ({
        at: new Date(node.time_stamp),
        description: [node.tracking_name, node.tracking_detail_desc].filter(Boolean).join(': '),
      }))
      .sort((a, b) => b.at.getTime() - a.at.getTime()),
  }));
}

function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`)
    .join('; ');
}

function detail(text: unknown): string {
  return typeof text === 'string' || typeof text === 'number'
    ? String(text).replace(/\s+/g, ' ').slice(0, DETAIL_MAX)
    : '';
}

// ---------------------------------------------------------------------------------------------
// Errors

/**
 * The gateway's error envelope `{ error_response: { code, msg, request_id } }` to our error: a
 * refused app key, signature or token is 'auth' (fix the configuration, do not retry), throttling
 * 'rate_limited', a bad parameter 'invalid_request', a failure on the marketplace's side 'outage'.
 */
export function mapGatewayError(method: string, error: { code?: unknown; msg?: unknown; request_id?: unknown }) {
  const code = detail(error.code);
  const msg = detail(error.msg);
  const requestId = typeof error.request_id === 'string' ? error.request_id.slice(0, 64) : null;
  const words = `${code} ${msg}`;
  const message = `AliExpress ${method} failed: ${words.trim() || 'no reason given'}`;
  if (/CallLimit|frequency|throttl|too many/i.test(words) || code === '7') {
    return new MarketplaceError('rate_limited', message, { retryAfterMs: RATE_LIMIT_WAIT_MS, requestId });
  }
  if (/AppKey|Signature|AccessToken|Session|Permission|Unauthori|Forbidden|Expired/i.test(words)) {
    return new MarketplaceError(
      'auth',
      `${message} (check ALIEXPRESS_APP_KEY, ALIEXPRESS_APP_SECRET and the access token)`,
      { requestId },
    );
  }
  if (/Missing|Invalid.*Param|Parameter/i.test(words)) {
    return new MarketplaceError('invalid_request', message, { requestId });
  }
  if (/^isp\.|ServiceUnavailable|SystemError|Remote service|^15$/i.test(code)) {
    return new MarketplaceError('outage', message, { requestId });
  }
  return new MarketplaceError('rejected', message, { requestId });
}

/** A DS API's own result code (`rsp_code`) other than 200: 605 no such product, 602 not sold there, 404 their system error. */
export function mapResultCode(method: string, rspCode: string, rspMsg: unknown, requestId: string | null) {
  const message = `AliExpress ${method} failed: ${rspCode} ${detail(rspMsg)}`.trim();
  if (rspCode === '605' || /ITEM_ID_NOT_FOUND|not.?found/i.test(detail(rspMsg))) {
    return new MarketplaceError('not_found', message, { requestId });
  }
  if (rspCode === '602') return new MarketplaceError('not_available', message, { requestId });
  if (rspCode === '404' || rspCode.startsWith('5')) return new MarketplaceError('outage', message, { requestId });
  return mapGatewayError(method, { code: rspCode, msg: rspMsg, request_id: requestId ?? undefined });
}

// ---------------------------------------------------------------------------------------------
// The client

const ProductId = z
  .string()
  .trim()
  .regex(/^\d{1,20}$/, 'must be the digits of a marketplace id');
const OneLine = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    // Control characters (NUL included) have no place in an address or an id.
    .refine((value) => !/[\p{Cc}]/u.test(value), 'must not contain control characters');

const OrderRequest = z.object({
  orderId: OneLine(64).pipe(z.string().min(1)),
  address: z.object({
    name: OneLine(200).pipe(z.string().min(1)),
    street: OneLine(200).pipe(z.string().min(1)),
    line2: OneLine(200).optional(),
    city: OneLine(100).pipe(z.string().min(1)),
    state: OneLine(100),
    zipCode: OneLine(20).pipe(z.string().min(1)),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 code')
      .transform((c) => c.toUpperCase()),
    phone: OneLine(30).nullish(),
    phoneCountryCode: z
      .string()
      .trim()
      .regex(/^\+?\d{1,4}$/, 'must be a calling code such as +1')
      .nullish(),
  }),
  lines: z
    .array(
      z.object({
        productId: ProductId,
        skuAttr: OneLine(500),
        quantity: z.int().min(1).max(999),
      }),
    )
    .min(1)
    .max(100),
});

export function createAliExpressMarketplace(options: AliExpressOptions): Marketplace {
  const {
    appKey,
    appSecret,
    apiBase = ALIEXPRESS_API_BASE,
    shipToCountry = 'US',
    logisticsServiceName = null,
    payAutomatically = false,
    timeoutMs = 15_000,
    now = Date.now,
    imageFetch = {},
  } = options;
  const token = () => (typeof options.accessToken === 'function' ? options.accessToken() : options.accessToken);
  const url = new URL('/sync', apiBase).href;

  /**
   * One signed call; answers the method's `…_response` object. When `placing`, every failure
   * after which the order may exist (a timeout, a 5xx, an unreadable answer) is 'unknown_outcome'.
   */
  async function call(method: string, business: Record<string, string>, placing = false) {
    const unclear = (message: string) =>
      new MarketplaceError(
        placing ? 'unknown_outcome' : 'outage',
        `${message}${placing ? '; the order may exist' : ''}`,
      );
    // A failure the marketplace reports on its side may come after the order was made.
    const answered = (error: MarketplaceError) =>
      placing && error.code === 'outage'
        ? new MarketplaceError('unknown_outcome', `${error.message}; the order may exist`, {
            requestId: error.requestId,
          })
        : error;
    const accessToken = token();
    const params = buildSignedParams(method, business, { appKey, appSecret, accessToken, timestamp: now() });
    let response: Response;
    try {
      response = await fetch(url, {
        method: 'POST',
        // The token and the signature go in the body, so no proxy or access log keeps them.
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=utf-8', accept: 'application/json' },
        body: new URLSearchParams(params).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      const cause = (error as { cause?: { code?: string } }).cause?.code;
      // A refused connection never reached the marketplace, so nothing was placed.
      if (cause === 'ECONNREFUSED' || cause === 'ENOTFOUND') {
        throw new MarketplaceError('outage', `AliExpress could not be reached (${cause})`);
      }
      const name = (error as Error).name;
      throw unclear(
        `AliExpress ${method} ${name === 'TimeoutError' ? `timed out after ${timeoutMs} ms` : 'failed on the network'}`,
      );
    }
    // Credentials echoed back by the marketplace are masked before any of its words are kept.
    let text = await response.text().catch(() => '');
    for (const secret of [appSecret, accessToken]) if (secret) text = text.replaceAll(secret, '[redacted]');
    if (response.status === 429) {
      const seconds = Number(response.headers.get('retry-after'));
      throw new MarketplaceError('rate_limited', `AliExpress ${method} answered 429`, {
        retryAfterMs: Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 300) * 1000 : RATE_LIMIT_WAIT_MS,
      });
    }
    let body: unknown;
    try {
      body = parseAliExpressJson(text);
    } catch {
      body = undefined;
    }
    const envelope = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : null;
    const gatewayError = envelope?.error_response;
    if (typeof gatewayError === 'object' && gatewayError !== null) {
      throw answered(mapGatewayError(method, gatewayError as Record<string, unknown>));
    }
    if (response.status >= 500) throw unclear(`AliExpress ${method} answered HTTP ${response.status}`);
    if (response.status === 401 || response.status === 403) {
      throw new MarketplaceError('auth', `AliExpress ${method} answered HTTP ${response.status}`);
    }
    const answer = envelope?.[`${method.replaceAll('.', '_')}_response`];
    if (response.status >= 400 || typeof answer !== 'object' || answer === null) {
      const why =
        response.status >= 400
          ? `HTTP ${response.status}`
          : envelope
            ? 'an unexpected answer'
            : 'an answer that is not JSON';
      if (placing) throw unclear(`AliExpress ${method} gave ${why}`);
      throw new MarketplaceError('bad_response', `AliExpress ${method} gave ${why}`);
    }
    const result = answer as Record<string, unknown>;
    const rspCode = result.rsp_code;
    if (rspCode !== undefined && String(rspCode) !== '200' && String(rspCode) !== '0') {
      const requestId = typeof result.request_id === 'string' ? result.request_id.slice(0, 64) : null;
      throw answered(mapResultCode(method, String(rspCode), result.rsp_msg, requestId));
    }
    return result;
  }

  function invalid(error: z.ZodError) {
    return new MarketplaceError('invalid_request', `Invalid marketplace request: ${describeIssues(error)}`);
  }

  return {
    name: 'aliexpress',

    async getProduct(productId) {
      const id = ProductId.safeParse(productId);
      if (!id.success) throw invalid(id.error);
      const answer = await call(PRODUCT_GET, {
        product_id: id.data,
        ship_to_country: shipToCountry,
        target_currency: 'USD',
        target_language: 'en',
        remove_personal_benefit: 'false',
      });
      if (answer.result === undefined || answer.result === null) {
        throw new MarketplaceError('not_found', `AliExpress has no product ${id.data}`);
      }
      return parseAliExpressProduct(answer.result);
    },

    async placeOrder(order: SupplierOrderRequest) {
      const parsed = OrderRequest.safeParse(order);
      if (!parsed.success) throw invalid(parsed.error);
      const { orderId, address, lines } = parsed.data;
      const request = {
        out_order_id: orderId,
        logistics_address: {
          full_name: address.name,
          contact_person: address.name,
          address: address.street,
          ...(address.line2 ? { address2: address.line2 } : {}),
          city: address.city,
          province: address.state,
          country: address.country,
          zip: address.zipCode,
          mobile_no: address.phone ?? '',
          phone_country: address.phoneCountryCode ?? '',
          locale: 'en_US',
        },
        product_items: lines.map((line) => ({
          product_id: line.productId,
          sku_attr: line.skuAttr,
          product_count: line.quantity,
          ...(logisticsServiceName ? { logistics_service_name: logisticsServiceName } : {}),
        })),
      };
      const answer = await call(
        ORDER_CREATE,
        {
          param_place_order_request4_open_api_d_t_o: JSON.stringify(request),
          ds_extend_request: JSON.stringify({ payment: { try_to_pay: String(payAutomatically), pay_currency: 'USD' } }),
        },
        true,
      );
      const result = answer.result as Record<string, unknown> | undefined;
      if (!result || typeof result !== 'object') {
        throw new MarketplaceError('unknown_outcome', `AliExpress ${ORDER_CREATE} gave no result; the order may exist`);
      }
      const success = result.is_success === true || result.is_success === 'true';
      if (!success) {
        throw new MarketplaceError(
          'rejected',
          `AliExpress refused order ${orderId}: ${detail(result.error_code)} ${detail(result.error_msg)}`.trim(),
        );
      }
      // order_list is a bare array or { number: […] }.
      const list = unwrapList(result.order_list);
      const ids = Array.isArray(list) ? list.map((id) => String(id)).filter((id) => /^\d{1,20}$/.test(id)) : [];
      if (ids.length === 0) {
        throw new MarketplaceError(
          'unknown_outcome',
          `AliExpress accepted order ${orderId} without an order id; it may exist`,
        );
      }
      return { supplierOrderIds: ids };
    },

    async getOrder(supplierOrderId) {
      const id = ProductId.safeParse(supplierOrderId);
      if (!id.success) throw invalid(id.error);
      const answer = await call(ORDER_GET, { single_order_query: JSON.stringify({ order_id: id.data }) });
      if (answer.result === undefined || answer.result === null) {
        throw new MarketplaceError('not_found', `AliExpress has no order ${id.data}`);
      }
      return parseAliExpressOrder(id.data, answer.result);
    },

    async getTracking(supplierOrderId) {
      const id = ProductId.safeParse(supplierOrderId);
      if (!id.success) throw invalid(id.error);
      const answer = await call(ORDER_TRACKING, { ae_order_id: id.data, language: 'en_US' });
      return parseAliExpressTracking(answer.result);
    },

    async downloadImage(imageUrl) {
      const fetched = await fetchRemoteImage(imageUrl, { allowedHosts: marketplaceImageHosts, ...imageFetch });
      if (!fetched.ok) throw new ImageDownloadError(fetched.reason, fetched.message);
      return fetched.bytes;
    },
  };
}
