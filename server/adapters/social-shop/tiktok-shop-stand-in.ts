import { createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sameText, signRequest, webhookSignature } from './tiktok-shop-signing.ts';

/*
 * A stand-in of TikTok Shop's Partner API, its token routes and its authorise page, speaking the
 * wire format of shared/integrations.md section 3 (our machines cannot reach TikTok): the same
 * query parameters, signature, headers and `{ code, message, request_id, data }` envelope. Tests
 * serve it over HTTP (listen); the demo calls handle() in-process through the client's fetch.
 *
 * Paths: the API under /api (/api/product/202309/products …), the token routes under
 * /auth/api/v2/token/get|refresh, the authorise page at /open/authorize. With `basePath` set, the
 * same paths are also answered under that prefix (the app mounts the page at
 * /sandbox/tiktok-shop/open/authorize and passes requests on unchanged).
 *
 * Gateway codes follow TikTok's as third-party clients quote them (36009004 bad parameter or
 * app key, 106001 bad sign, 105001 bad token, 105002 expired token, 36009002 too many requests,
 * 36009003 internal error, 36009009 unknown path). The listing codes 12052100-12052106 and
 * 12052900 are this stand-in's own; 12052024 (not a leaf category) is quoted by a client.
 */

export type StandInShop = {
  id: string;
  name: string;
  region: string;
  currency: string;
  cipher: string;
  code: string;
  warehouseId: string;
};

/** The one sandbox seller and its two shops (stable across restarts, so stored ciphers keep working). */
export const SANDBOX_SELLER = {
  openId: 'sbx-open-id-stillwater',
  name: 'Stillwater Sandbox Seller',
  region: 'US',
  shops: [
    {
      id: '7495112233445566001',
      name: 'Stillwater Sandbox US',
      region: 'US',
      currency: 'USD',
      cipher: 'ROW_c3RpbGx3YXRlci1zYW5kYm94LXVz',
      code: 'USLCSWSB01',
      warehouseId: '7300112233445566001',
    },
    {
      id: '7495112233445566002',
      name: 'Stillwater Sandbox GB',
      region: 'GB',
      currency: 'GBP',
      cipher: 'ROW_c3RpbGx3YXRlci1zYW5kYm94LWdi',
      code: 'GBLCSWSB02',
      warehouseId: '7300112233445566002',
    },
  ] as const satisfies readonly StandInShop[],
} as const;

type Category = { id: string; parentId: string; name: string; keywords?: string[] };

/** A small tree of home and desk categories; leaves carry the title words the recommendation looks for. */
export const SANDBOX_CATEGORIES: readonly Category[] = [
  { id: '600001', parentId: '0', name: 'Home Supplies' },
  { id: '600101', parentId: '600001', name: 'Home Fragrance' },
  { id: '600111', parentId: '600101', name: 'Scented Candles', keywords: ['candle', 'wax', 'wick', 'tealight'] },
  {
    id: '600112',
    parentId: '600101',
    name: 'Reed & Oil Diffusers',
    keywords: ['diffuser', 'reed', 'essential oil', 'aroma', 'mist'],
  },
  { id: '600201', parentId: '600001', name: 'Home Decor' },
  { id: '600211', parentId: '600201', name: 'Cushions & Covers', keywords: ['cushion', 'pillow'] },
  { id: '600212', parentId: '600201', name: 'Throws & Blankets', keywords: ['throw', 'blanket', 'quilt'] },
  {
    id: '600213',
    parentId: '600201',
    name: 'Planters & Pots',
    keywords: ['planter', 'plant pot', 'pot', 'vase', 'succulent'],
  },
  { id: '600214', parentId: '600201', name: 'Table & Desk Lamps', keywords: ['lamp', 'light', 'lantern'] },
  { id: '600002', parentId: '0', name: 'Office & Stationery' },
  { id: '600301', parentId: '600002', name: 'Desk Accessories' },
  {
    id: '600311',
    parentId: '600301',
    name: 'Desk Organisers',
    keywords: ['organiser', 'organizer', 'desk tray', 'tray', 'holder', 'desk'],
  },
  {
    id: '600321',
    parentId: '600002',
    name: 'Notebooks & Journals',
    keywords: ['notebook', 'journal', 'notepad', 'planner'],
  },
  { id: '600322', parentId: '600002', name: 'Pens & Pencils', keywords: ['pen', 'pencil', 'stationery'] },
  { id: '600003', parentId: '0', name: 'Food & Beverages' },
  { id: '600411', parentId: '600003', name: 'Tea', keywords: ['tea', 'matcha', 'chai', 'rooibos', 'chamomile'] },
  { id: '600412', parentId: '600003', name: 'Teaware', keywords: ['teapot', 'infuser', 'teacup', 'mug', 'kettle'] },
];

const leafIds = new Set(
  SANDBOX_CATEGORIES.filter((c) => !SANDBOX_CATEGORIES.some((child) => child.parentId === c.id)).map((c) => c.id),
);

export type StandInOptions = {
  appKey: string;
  appSecret: string;
  serviceId: string;
  /** Where the authorise page sends the seller back (our OAuth callback). */
  redirectUrl: string;
  /** Signs the tokens it issues; the same secret after a restart keeps them valid. Default: random. */
  tokenSecret?: string;
  accessTokenLifetimeSeconds?: number;
  refreshTokenLifetimeSeconds?: number;
  now?: () => Date;
  /** A prefix also accepted before every path (see above). */
  basePath?: string;
  /** Makes the stand-in refuse a listing (create or update) with this message; null accepts it. */
  rejectListing?: (body: Record<string, unknown>) => string | null;
};

type StoredSku = {
  id: string;
  sellerSku: string;
  style: string | null;
  price: string;
  currency: string;
  warehouseId: string;
  quantity: number;
};

export type StandInProduct = {
  id: string;
  shopId: string;
  title: string;
  externalProductId: string | null;
  categoryId: string;
  skus: StoredSku[];
  createTime: number;
  updateTime: number;
};

type StoredOrder = {
  id: string;
  shopId: string;
  status: string;
  createTime: number;
  updateTime: number;
  wire: Record<string, unknown>;
};

export type StandInCall = { method: string; path: string; query: Record<string, string> };

/** Query parameters never recorded (credentials). */
const SECRET_PARAMETERS = new Set(['sign', 'access_token', 'app_secret', 'auth_code', 'refresh_token']);

const AUTH_CODE_LIFETIME_SECONDS = 600;
const TIMESTAMP_TOLERANCE_SECONDS = 300;

class Refusal extends Error {
  readonly status: number;
  readonly code: number;
  constructor(status: number, code: number, message: string) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

const refuse = (code: number, message: string, status = 200): never => {
  throw new Refusal(status, code, message);
};

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** A positive decimal amount with at most two decimals ("12.50"); null otherwise. */
function positiveAmount(value: unknown): string | null {
  if (typeof value !== 'string' || !/^\d{1,9}(\.\d{1,2})?$/.test(value)) return null;
  return Number(value) > 0 ? value : null;
}

function amountToCents(amount: string): number {
  const [whole = '0', fraction = ''] = amount.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

function centsToAmount(cents: number): string {
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

export function createTikTokShopStandIn(options: StandInOptions) {
  const { appKey, appSecret, serviceId } = options;
  const tokenSecret = options.tokenSecret ?? randomBytes(32).toString('hex');
  const accessLifetime = options.accessTokenLifetimeSeconds ?? 7 * 24 * 3600;
  const refreshLifetime = options.refreshTokenLifetimeSeconds ?? 365 * 24 * 3600;
  const now = options.now ?? (() => new Date());
  const basePath = (options.basePath ?? '').replace(/\/+$/, '');
  const seconds = () => Math.floor(now().getTime() / 1000);

  const authCodes = new Map<string, { openId: string; expiresAt: number }>();
  const images = new Set<string>();
  const products = new Map<string, StandInProduct>();
  const orders = new Map<string, StoredOrder>();
  const failures: { pathSuffix: string; status?: number; code?: number; remaining: number }[] = [];
  const calls: StandInCall[] = [];
  /** Where the seller centre's test orders are delivered (TikTok's webhook subscription), once the app subscribes. */
  let deliverWebhook: ((body: string, headers: Record<string, string>) => Promise<unknown>) | null = null;
  let counter = 0;
  let nextProductId = 1729300000000000001n;
  let nextSkuId = 1731000000000000001n;
  let nextOrderId = 576800000000000001n;
  let nextLineId = 577000000000000001n;
  let nextNotificationId = 7327000000000000001n;

  // -------------------------------------------------------------------------------------------
  // Tokens: stateless, HMAC-signed, carrying the seller and the expiry

  function issueToken(kind: 'access' | 'refresh', openId: string, expiresAt: number): string {
    const payload = Buffer.from(
      JSON.stringify({ k: kind, s: openId, e: expiresAt, n: randomBytes(6).toString('hex') }),
    ).toString('base64url');
    const mac = createHmac('sha256', tokenSecret).update(payload).digest('base64url');
    return `TTP_${payload}.${mac}`;
  }

  /** The token's seller and expiry when the stand-in issued it as this kind; null otherwise. */
  function readToken(token: string, kind: 'access' | 'refresh'): { openId: string; expiresAt: number } | null {
    const match = /^TTP_([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]+)$/.exec(token);
    if (!match?.[1] || !match[2]) return null;
    const mac = createHmac('sha256', tokenSecret).update(match[1]).digest('base64url');
    if (!sameText(mac, match[2])) return null;
    try {
      const claims = JSON.parse(Buffer.from(match[1], 'base64url').toString('utf8')) as Record<string, unknown>;
      if (claims.k !== kind || typeof claims.s !== 'string' || typeof claims.e !== 'number') return null;
      return { openId: claims.s, expiresAt: claims.e };
    } catch {
      return null;
    }
  }

  function tokenData(openId: string) {
    const accessExpiry = seconds() + accessLifetime;
    const refreshExpiry = seconds() + refreshLifetime;
    return {
      access_token: issueToken('access', openId, accessExpiry),
      access_token_expire_in: accessExpiry,
      refresh_token: issueToken('refresh', openId, refreshExpiry),
      refresh_token_expire_in: refreshExpiry,
      open_id: openId,
      seller_name: SANDBOX_SELLER.name,
      seller_base_region: SANDBOX_SELLER.region,
      user_type: 0,
      granted_scopes: ['seller.authorization.info', 'seller.product.basic', 'seller.order.info'],
    };
  }

  // -------------------------------------------------------------------------------------------
  // Answers

  function envelope(status: number, code: number, message: string, data: unknown = null) {
    counter += 1;
    const requestId = `${now().toISOString().replace(/\D/g, '').slice(0, 14)}SBX${String(counter).padStart(8, '0')}`;
    return Response.json({ code, message, request_id: requestId, data }, { status });
  }

  const ok = (data: unknown) => envelope(200, 0, 'Success', data);

  function page(status: number, title: string, body: string) {
    const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
    return new Response(html, { status, headers: { 'content-type': 'text/html; charset=utf-8' } });
  }

  function redirectBack(params: Record<string, string>) {
    const url = new URL(options.redirectUrl);
    for (const [key, value] of Object.entries(params)) url.searchParams.set(key, value);
    return new Response(null, { status: 302, headers: { location: url.href } });
  }

  function record(method: string, path: string, url: URL) {
    const query: Record<string, string> = {};
    for (const [key, value] of url.searchParams) if (!SECRET_PARAMETERS.has(key)) query[key] = value;
    calls.push({ method, path, query });
  }

  function injectedFailure(path: string): Response | null {
    const failure = failures.find((f) => f.remaining > 0 && path.endsWith(f.pathSuffix));
    if (!failure) return null;
    failure.remaining -= 1;
    const status = failure.status ?? 200;
    const code = failure.code ?? (status === 429 ? 36009002 : status >= 500 ? 36009003 : 36009004);
    const message = status === 429 ? 'Too many requests' : status >= 500 ? 'Internal error' : 'Injected failure';
    return envelope(status, code, message);
  }

  // -------------------------------------------------------------------------------------------
  // The authorise page

  function authorisePage(url: URL): Response {
    const service = url.searchParams.get('service_id') ?? '';
    const state = url.searchParams.get('state') ?? '';
    if (!sameText(service, serviceId)) {
      return page(
        400,
        'Unknown app - TikTok Shop sandbox',
        '<h1>This app is not known</h1>\n<p>The link names no app of the TikTok Shop sandbox. Start the connection again from the shop.</p>',
      );
    }
    const hidden = `<input type="hidden" name="service_id" value="${escapeHtml(service)}">
<input type="hidden" name="state" value="${escapeHtml(state)}">`;
    const shopNames = SANDBOX_SELLER.shops.map((s) => `${s.name} (${s.region})`).join(' and ');
    return page(
      200,
      'Authorize the app - TikTok Shop sandbox',
      `<h1>Authorize the app to manage your TikTok Shop</h1>
<p>You are signed in to the TikTok Shop sandbox as <strong>${escapeHtml(SANDBOX_SELLER.name)}</strong>, with the shops ${escapeHtml(shopNames)}.</p>
<p>The app asks to read your shops, list products, update stock and read orders. This sandbox runs inside the shop: nothing is sent to TikTok.</p>
<form method="get" action="authorize/grant">
${hidden}
<button type="submit">Authorize</button>
</form>
<form method="get" action="authorize/cancel">
${hidden}
<button type="submit">Cancel</button>
</form>`,
    );
  }

  function authoriseDecision(url: URL, granted: boolean): Response {
    const service = url.searchParams.get('service_id') ?? '';
    const state = url.searchParams.get('state') ?? '';
    if (!sameText(service, serviceId)) {
      return page(
        400,
        'Unknown app - TikTok Shop sandbox',
        '<h1>This app is not known</h1>\n<p>Start the connection again from the shop.</p>',
      );
    }
    if (!granted) return redirectBack({ state });
    const code = `SBXC_${randomBytes(24).toString('hex')}`;
    authCodes.set(code, { openId: SANDBOX_SELLER.openId, expiresAt: seconds() + AUTH_CODE_LIFETIME_SECONDS });
    return redirectBack({ code, state });
  }

  // -------------------------------------------------------------------------------------------
  // The token routes (plain GETs with the app secret; not signed)

  function tokenRoute(route: string, url: URL): Response {
    const q = url.searchParams;
    if (!sameText(q.get('app_key') ?? '', appKey) || !sameText(q.get('app_secret') ?? '', appSecret)) {
      return refuse(36004004, 'Invalid credentials. The app_key or app_secret is invalid.', 401);
    }
    if (route === 'get') {
      if (q.get('grant_type') !== 'authorized_code') refuse(36009004, 'Invalid grant_type.', 400);
      const code = q.get('auth_code') ?? '';
      const grant = authCodes.get(code);
      authCodes.delete(code);
      if (!grant || grant.expiresAt < seconds()) {
        return refuse(36004004, 'Invalid auth_code. It is unknown, used or expired.', 401);
      }
      return ok(tokenData(grant.openId));
    }
    if (q.get('grant_type') !== 'refresh_token') refuse(36009004, 'Invalid grant_type.', 400);
    const claims = readToken(q.get('refresh_token') ?? '', 'refresh');
    if (!claims) return refuse(36004004, 'Invalid refresh_token.', 401);
    if (claims.expiresAt < seconds()) return refuse(105002, 'Expired credentials. The refresh_token has expired.', 401);
    return ok(tokenData(claims.openId));
  }

  // -------------------------------------------------------------------------------------------
  // The API: gateway checks, then the routes

  async function api(request: Request, url: URL, path: string): Promise<Response> {
    const q = url.searchParams;
    const route = routeOf(request.method, path);
    if (!route) return refuse(36009009, `Invalid path. ${request.method} ${path} is not an API.`, 404);
    if (!sameText(q.get('app_key') ?? '', appKey)) {
      return refuse(36009004, 'Invalid credentials. Invalid `app_key` query parameter.', 400);
    }
    const sign = q.get('sign');
    const timestamp = Number(q.get('timestamp'));
    if (!sign)
      return refuse(
        36009004,
        'Missing credentials. The request does not include a required signature in the query.',
        401,
      );
    if (!Number.isInteger(timestamp) || Math.abs(seconds() - timestamp) > TIMESTAMP_TOLERANCE_SECONDS) {
      return refuse(
        36009004,
        'Invalid timestamp. The `timestamp` query parameter must be within 5 minutes of the current time.',
        401,
      );
    }
    const contentType = request.headers.get('content-type') ?? '';
    const multipart = contentType.startsWith('multipart/form-data');
    const form = multipart ? await request.formData().catch(() => null) : null;
    const bodyText = request.method === 'GET' || multipart ? null : await request.text();
    const query = Object.fromEntries(q);
    if (!sameText(sign, signRequest({ appSecret, path, query, body: bodyText }))) {
      return refuse(106001, "Invalid credentials. The 'sign' query parameter is invalid.", 401);
    }
    const claims = readToken(request.headers.get('x-tts-access-token') ?? '', 'access');
    if (!claims) return refuse(105001, 'Invalid credentials. The `x-tts-access-token` header is invalid.', 401);
    if (claims.expiresAt < seconds()) return refuse(105002, 'Expired credentials. The access token has expired.', 401);

    const cipher = q.get('shop_cipher');
    const shop = SANDBOX_SELLER.shops.find((s) => s.cipher === cipher) ?? null;
    if (route.shopScoped) {
      if (!cipher) return refuse(36009004, 'Missing identifier. The `shop_cipher` query parameter is required.', 400);
      if (!shop) return refuse(36009004, 'Invalid identifier. The `shop_cipher` query parameter is invalid.', 400);
    } else if (cipher) {
      return refuse(
        36009004,
        'Unexpected identifier. The `shop_cipher` query parameter is not required for this request.',
        400,
      );
    }
    let body: Record<string, unknown> = {};
    if (bodyText) {
      try {
        const parsed: unknown = JSON.parse(bodyText);
        if (!isRecord(parsed)) throw new Error('not an object');
        body = parsed;
      } catch {
        return refuse(36009004, 'Invalid request body. It must be a JSON object.', 400);
      }
    }
    return route.answer({ shop: shop as StandInShop, body, query: q, form, id: route.id });
  }

  type Context = {
    shop: StandInShop;
    body: Record<string, unknown>;
    query: URLSearchParams;
    form: FormData | null;
    id: string;
  };
  type Route = { shopScoped: boolean; id: string; answer: (context: Context) => Response | Promise<Response> };

  function routeOf(method: string, path: string): Route | null {
    const product = /^\/product\/202309\/products\/([^/]+)$/.exec(path);
    const inventory = /^\/product\/202309\/products\/([^/]+)\/inventory\/update$/.exec(path);
    const route = (shopScoped: boolean, answer: Route['answer'], id = ''): Route => ({ shopScoped, answer, id });
    if (method === 'GET' && path === '/authorization/202309/shops') return route(false, authorisedShops);
    if (method === 'POST' && path === '/product/202309/images/upload') return route(false, uploadImage);
    if (method === 'GET' && path === '/product/202309/categories') return route(true, categories);
    if (method === 'POST' && path === '/product/202309/categories/recommend') return route(true, recommend);
    if (method === 'GET' && path === '/logistics/202309/warehouses') return route(true, warehouses);
    if (method === 'POST' && path === '/product/202309/products') return route(true, createProduct);
    if (method === 'POST' && path === '/product/202309/products/search') return route(true, searchProducts);
    if (method === 'PUT' && product?.[1]) return route(true, updateProduct, decodeURIComponent(product[1]));
    if (method === 'POST' && inventory?.[1]) return route(true, updateInventory, decodeURIComponent(inventory[1]));
    if (method === 'POST' && path === '/order/202309/orders/search') return route(true, searchOrders);
    if (method === 'GET' && path === '/order/202309/orders') return route(true, orderDetails);
    return null;
  }

  function authorisedShops() {
    return ok({
      shops: SANDBOX_SELLER.shops.map((s) => ({
        id: s.id,
        name: s.name,
        region: s.region,
        seller_type: 'LOCAL',
        cipher: s.cipher,
        code: s.code,
      })),
    });
  }

  async function uploadImage({ form }: Context) {
    const file = form?.get('data');
    if (!(file instanceof Blob) || file.size === 0) {
      return refuse(36009004, 'Invalid parameter. `data` must be an image file.', 400);
    }
    if (!file.type.startsWith('image/')) return refuse(12052101, 'The file is not an image.');
    const useCase = form?.get('use_case') ?? 'MAIN_IMAGE';
    const uri = `tos-maliva-i-o3syd03w52-us/${randomBytes(16).toString('hex')}`;
    images.add(uri);
    return ok({ uri, url: `https://sandbox.tiktok-shop.invalid/img/${uri}`, use_case: useCase });
  }

  function categories() {
    return ok({
      categories: SANDBOX_CATEGORIES.map((c) => ({
        id: c.id,
        parent_id: c.parentId,
        local_name: c.name,
        is_leaf: leafIds.has(c.id),
        permission_statuses: ['AVAILABLE'],
      })),
    });
  }

  function recommend({ body }: Context) {
    const title = typeof body.product_title === 'string' ? body.product_title.toLowerCase() : '';
    if (!title) return refuse(36009004, 'Invalid parameter. `product_title` is required.', 400);
    const description = typeof body.description === 'string' ? body.description.toLowerCase() : '';
    const score = (category: Category) =>
      (category.keywords ?? []).reduce(
        (sum, word) => sum + (title.includes(word) ? 10 * word.length : 0) + (description.includes(word) ? 1 : 0),
        0,
      );
    const best = SANDBOX_CATEGORIES.filter((c) => leafIds.has(c.id))
      .map((category) => ({ category, points: score(category) }))
      .filter((entry) => entry.points > 0)
      .sort((a, b) => b.points - a.points)[0]?.category;
    if (!best) return ok({ categories: [] });
    const path: Category[] = [];
    for (let node: Category | undefined = best; node; node = SANDBOX_CATEGORIES.find((c) => c.id === node?.parentId)) {
      path.unshift(node);
    }
    return ok({
      leaf_category_id: best.id,
      categories: path.map((c, index) => ({ id: c.id, name: c.name, level: index + 1, is_leaf: leafIds.has(c.id) })),
    });
  }

  function warehouses({ shop }: Context) {
    return ok({
      warehouses: [
        {
          id: shop.warehouseId,
          name: `${shop.name} warehouse`,
          effect_status: 'ENABLED',
          type: 'SALES_WAREHOUSE',
          sub_type: 'DOMESTIC_WAREHOUSE',
          is_default: true,
          address: { region_code: shop.region },
        },
      ],
    });
  }

  /** The listing's SKUs once the body passed the channel's rules; refuses otherwise. */
  function validListing(shop: StandInShop, body: Record<string, unknown>, productId: string | null) {
    const title = body.title;
    if (typeof title !== 'string' || [...title.trim()].length < 1 || [...title].length > 255) {
      refuse(12052100, 'The product title must have 1 to 255 characters.');
    }
    if (typeof body.description !== 'string') refuse(12052100, 'The product description is required.');
    const categoryId = String(body.category_id ?? '');
    if (!leafIds.has(categoryId)) refuse(12052024, 'Category is not final category.');
    const mainImages = body.main_images;
    if (
      !Array.isArray(mainImages) ||
      mainImages.length === 0 ||
      !mainImages.every((image) => isRecord(image) && typeof image.uri === 'string' && images.has(image.uri))
    ) {
      refuse(12052101, 'main_images must hold at least one uri returned by the image upload.');
    }
    const skus = body.skus;
    if (!Array.isArray(skus) || skus.length === 0 || skus.length > 100) {
      return refuse(12052102, 'A product needs 1 to 100 SKUs.');
    }
    const seen = new Set<string>();
    const styles = new Set<string>();
    const parsed = skus.map((sku): Omit<StoredSku, 'id'> => {
      if (!isRecord(sku)) return refuse(12052102, 'Each SKU must be an object.');
      const sellerSku = sku.seller_sku;
      if (typeof sellerSku !== 'string' || sellerSku.length < 1 || sellerSku.length > 50) {
        return refuse(12052102, 'Each SKU needs a seller_sku of 1 to 50 characters.');
      }
      if (seen.has(sellerSku)) refuse(12052103, `The seller_sku ${sellerSku} appears twice in the product.`);
      seen.add(sellerSku);
      const price = isRecord(sku.price) ? sku.price : {};
      const amount = positiveAmount(price.amount);
      if (!amount) return refuse(12052102, `The price of ${sellerSku} must be a decimal amount greater than 0.`);
      if (price.currency !== shop.currency) {
        refuse(12052102, `The price of ${sellerSku} must be in the shop's currency (${shop.currency}).`);
      }
      const stock = Array.isArray(sku.inventory) ? sku.inventory[0] : undefined;
      if (!isRecord(stock) || stock.warehouse_id !== shop.warehouseId) {
        return refuse(12052102, `The inventory of ${sellerSku} must name the shop's warehouse.`);
      }
      const quantity = stock.quantity;
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0 || quantity > 999_999) {
        return refuse(12052102, `The quantity of ${sellerSku} must be a whole number from 0 to 999999.`);
      }
      const attributes = Array.isArray(sku.sales_attributes) ? sku.sales_attributes : [];
      let style: string | null = null;
      if (skus.length > 1) {
        const first = attributes[0];
        if (
          attributes.length !== 1 ||
          !isRecord(first) ||
          typeof first.name !== 'string' ||
          !first.name ||
          typeof first.value_name !== 'string' ||
          !first.value_name.trim()
        ) {
          return refuse(12052105, `The SKU ${sellerSku} needs one sales attribute with a name and a value.`);
        }
        style = first.value_name;
        if (styles.has(style)) refuse(12052105, `Two SKUs have the same sales attribute value ${style}.`);
        styles.add(style);
      } else if (attributes.length > 0) {
        refuse(12052105, 'A product with one SKU has no sales attributes.');
      }
      return { sellerSku, style, price: amount, currency: shop.currency, warehouseId: shop.warehouseId, quantity };
    });
    for (const other of products.values()) {
      if (other.shopId !== shop.id || other.id === productId) continue;
      const taken = other.skus.find((sku) => seen.has(sku.sellerSku));
      if (taken) refuse(12052104, `The seller_sku ${taken.sellerSku} is already used by the product ${other.id}.`);
    }
    const rejection = options.rejectListing?.(body);
    if (rejection) refuse(12052106, rejection);
    return { title: title as string, categoryId, skus: parsed };
  }

  function productIds(product: StandInProduct) {
    return {
      product_id: product.id,
      skus: product.skus.map((sku) => ({
        id: sku.id,
        seller_sku: sku.sellerSku,
        sales_attributes: sku.style ? [{ name: 'Style', value_name: sku.style }] : [],
      })),
      warnings: [],
    };
  }

  function createProduct({ shop, body }: Context) {
    const listing = validListing(shop, body, null);
    const id = String(nextProductId++);
    const product: StandInProduct = {
      id,
      shopId: shop.id,
      title: listing.title,
      externalProductId: typeof body.external_product_id === 'string' ? body.external_product_id : null,
      categoryId: listing.categoryId,
      skus: listing.skus.map((sku) => ({ ...sku, id: String(nextSkuId++) })),
      createTime: seconds(),
      updateTime: seconds(),
    };
    products.set(id, product);
    return ok(productIds(product));
  }

  function ownProduct(shop: StandInShop, id: string): StandInProduct {
    const product = products.get(id);
    if (!product || product.shopId !== shop.id) return refuse(12052900, `The product ${id} was not found.`, 404);
    return product;
  }

  function updateProduct({ shop, body, id }: Context) {
    const product = ownProduct(shop, id);
    const listing = validListing(shop, body, product.id);
    // SKUs keep their ids across a full update when their seller SKU stays.
    product.skus = listing.skus.map((sku) => ({
      ...sku,
      id: product.skus.find((old) => old.sellerSku === sku.sellerSku)?.id ?? String(nextSkuId++),
    }));
    product.title = listing.title;
    product.categoryId = listing.categoryId;
    if (typeof body.external_product_id === 'string') product.externalProductId = body.external_product_id;
    product.updateTime = seconds();
    return ok(productIds(product));
  }

  function pageSize(query: URLSearchParams, max: number): number {
    const size = Number(query.get('page_size'));
    if (!Number.isInteger(size) || size < 1 || size > max) {
      return refuse(36009004, `Invalid parameter. page_size must be from 1 to ${max}.`, 400);
    }
    return size;
  }

  function paged<T>(items: T[], query: URLSearchParams, max: number) {
    const size = pageSize(query, max);
    const token = query.get('page_token');
    const start = token ? Number(Buffer.from(token, 'base64url').toString('utf8')) : 0;
    if (!Number.isInteger(start) || start < 0)
      return refuse(36009004, 'Invalid parameter. page_token is invalid.', 400);
    const end = start + size;
    return {
      items: items.slice(start, end),
      next_page_token: end < items.length ? Buffer.from(String(end)).toString('base64url') : '',
      total_count: items.length,
    };
  }

  function searchProducts({ shop, body, query }: Context) {
    const wanted = Array.isArray(body.seller_skus) ? new Set(body.seller_skus.map(String)) : null;
    const found = [...products.values()].filter(
      (p) => p.shopId === shop.id && (!wanted || p.skus.some((sku) => wanted.has(sku.sellerSku))),
    );
    const { items, ...rest } = paged(found, query, 100);
    return ok({
      products: items.map((p) => ({
        id: p.id,
        title: p.title,
        status: 'ACTIVATE',
        skus: p.skus.map((sku) => ({
          id: sku.id,
          seller_sku: sku.sellerSku,
          price: { amount: sku.price, currency: sku.currency },
          inventory: [{ warehouse_id: sku.warehouseId, quantity: sku.quantity }],
        })),
        create_time: p.createTime,
        update_time: p.updateTime,
      })),
      ...rest,
    });
  }

  function updateInventory({ shop, body, id }: Context) {
    const product = ownProduct(shop, id);
    const skus = Array.isArray(body.skus) ? body.skus : [];
    if (skus.length === 0) return refuse(36009004, 'Invalid parameter. skus is required.', 400);
    const changes = skus.map((entry) => {
      const sku = isRecord(entry) ? product.skus.find((s) => s.id === entry.id) : undefined;
      if (!sku || !isRecord(entry))
        return refuse(12052900, `The SKU ${String(isRecord(entry) ? entry.id : '')} is not in the product ${id}.`, 404);
      const stock = Array.isArray(entry.inventory) ? entry.inventory[0] : undefined;
      const quantity = isRecord(stock) ? stock.quantity : undefined;
      if (!isRecord(stock) || stock.warehouse_id !== shop.warehouseId) {
        return refuse(12052102, "The inventory must name the shop's warehouse.");
      }
      if (typeof quantity !== 'number' || !Number.isInteger(quantity) || quantity < 0 || quantity > 999_999) {
        return refuse(12052102, 'The quantity must be a whole number from 0 to 999999.');
      }
      return { sku, quantity };
    });
    for (const { sku, quantity } of changes) sku.quantity = quantity;
    product.updateTime = seconds();
    return ok({});
  }

  function searchOrders({ shop, body, query }: Context) {
    const from = typeof body.update_time_ge === 'number' ? body.update_time_ge : 0;
    const to = typeof body.update_time_lt === 'number' ? body.update_time_lt : Number.MAX_SAFE_INTEGER;
    const found = [...orders.values()]
      .filter((o) => o.shopId === shop.id && o.updateTime >= from && o.updateTime < to)
      .sort((a, b) => a.updateTime - b.updateTime || (a.id < b.id ? -1 : 1));
    const { items, ...rest } = paged(found, query, 100);
    return ok({ orders: items.map((o) => o.wire), ...rest });
  }

  function orderDetails({ shop, query }: Context) {
    const ids = (query.get('ids') ?? '').split(',').filter(Boolean);
    if (ids.length === 0 || ids.length > 50)
      return refuse(36009004, 'Invalid parameter. ids must name 1 to 50 orders.', 400);
    const found = ids.flatMap((id) => {
      const order = orders.get(id);
      return order && order.shopId === shop.id ? [order.wire] : [];
    });
    return ok({ orders: found });
  }

  // -------------------------------------------------------------------------------------------
  // Orders placed by tests and the demo

  const RECIPIENTS: Record<string, Record<string, unknown>> = {
    US: {
      name: 'Jordan Avery',
      first_name: 'Jordan',
      last_name: 'Avery',
      phone_number: '(+1)415-555-0134',
      address_line1: '1450 Harbor View Drive',
      address_line2: 'Apt 4B',
      address_line3: '',
      address_line4: '',
      postal_code: '94965',
      region_code: 'US',
      full_address: '1450 Harbor View Drive, Apt 4B, Sausalito, California, 94965, United States',
      district_info: [
        { address_level_name: 'Country', address_name: 'United States', address_level: 'L0' },
        { address_level_name: 'State', address_name: 'California', address_level: 'L1' },
        { address_level_name: 'County', address_name: 'Marin', address_level: 'L2' },
        { address_level_name: 'City', address_name: 'Sausalito', address_level: 'L3' },
      ],
    },
    GB: {
      name: 'Amelia Hart',
      first_name: 'Amelia',
      last_name: 'Hart',
      phone_number: '(+44)7700 900123',
      address_line1: '12 Riverside Walk',
      address_line2: '',
      address_line3: '',
      address_line4: '',
      postal_code: 'BA1 1SU',
      region_code: 'GB',
      full_address: '12 Riverside Walk, Bath, Somerset, BA1 1SU, United Kingdom',
      district_info: [
        { address_level_name: 'Country', address_name: 'United Kingdom', address_level: 'L0' },
        { address_level_name: 'Nation', address_name: 'England', address_level: 'L1' },
        { address_level_name: 'County', address_name: 'Somerset', address_level: 'L2' },
        { address_level_name: 'Post Town', address_name: 'Bath', address_level: 'L3' },
      ],
    },
  };

  /**
   * A buyer's paid order of listed SKUs (AWAITING_SHIPMENT), priced from the listings, and the
   * ORDER_STATUS_CHANGE webhook TikTok would push for it, signed with the app's key and secret.
   */
  function placeOrder({
    shopId,
    lines,
    buyer,
  }: {
    shopId: string;
    lines: { sellerSku: string; quantity: number }[];
    buyer?: { name?: string; email?: string };
  }) {
    const shop = SANDBOX_SELLER.shops.find((s) => s.id === shopId);
    if (!shop) throw new Error(`No sandbox shop ${shopId}`);
    if (lines.length === 0) throw new Error('An order needs lines');
    const lineItems: Record<string, unknown>[] = [];
    let subtotal = 0;
    for (const line of lines) {
      const product = [...products.values()].find(
        (p) => p.shopId === shopId && p.skus.some((sku) => sku.sellerSku === line.sellerSku),
      );
      const sku = product?.skus.find((s) => s.sellerSku === line.sellerSku);
      if (!product || !sku) throw new Error(`No listing of ${line.sellerSku} in ${shop.name}`);
      if (!Number.isInteger(line.quantity) || line.quantity < 1) throw new Error('Quantities are whole numbers from 1');
      // The 202309 shape has one line item per unit.
      for (let unit = 0; unit < line.quantity; unit++) {
        subtotal += amountToCents(sku.price);
        lineItems.push({
          id: String(nextLineId++),
          sku_id: sku.id,
          product_id: product.id,
          product_name: product.title,
          seller_sku: sku.sellerSku,
          sku_name: sku.style ?? '',
          sale_price: sku.price,
          original_price: sku.price,
          currency: shop.currency,
          display_status: 'AWAITING_SHIPMENT',
          package_status: 'TO_FULFILL',
        });
      }
    }
    const shipping = 395;
    // US sales tax comes on top; UK prices include VAT.
    const tax = shop.region === 'US' ? Math.round(subtotal * 0.0825) : 0;
    const time = seconds();
    const id = String(nextOrderId++);
    const recipient = { ...(RECIPIENTS[shop.region] ?? RECIPIENTS.US) };
    if (buyer?.name) recipient.name = buyer.name;
    const wire = {
      id,
      status: 'AWAITING_SHIPMENT',
      create_time: time,
      update_time: time,
      paid_time: time,
      buyer_email: buyer?.email ?? `v${id.slice(-8)}@scs.tiktokw.us`,
      user_id: `7494${id.slice(-12)}`,
      shipping_type: 'TIKTOK',
      fulfillment_type: 'FULFILLMENT_BY_SELLER',
      recipient_address: recipient,
      payment: {
        currency: shop.currency,
        sub_total: centsToAmount(subtotal),
        shipping_fee: centsToAmount(shipping),
        tax: centsToAmount(tax),
        total_amount: centsToAmount(subtotal + shipping + tax),
        original_total_product_price: centsToAmount(subtotal),
        original_shipping_fee: centsToAmount(shipping),
        seller_discount: '0.00',
        platform_discount: '0.00',
      },
      line_items: lineItems,
    };
    orders.set(id, { id, shopId, status: 'AWAITING_SHIPMENT', createTime: time, updateTime: time, wire });
    const webhookBody = JSON.stringify({
      type: 1,
      tts_notification_id: String(nextNotificationId++),
      shop_id: shopId,
      timestamp: time,
      data: { order_id: id, order_status: 'AWAITING_SHIPMENT', is_on_hold_order: false, update_time: time },
    });
    return {
      orderId: id,
      webhookBody,
      webhookHeaders: {
        authorization: webhookSignature(appKey, appSecret, webhookBody),
        'content-type': 'application/json',
      },
    };
  }

  // -------------------------------------------------------------------------------------------
  // The seller centre: the sandbox's listings, and test orders of them delivered to the webhook

  function sellerCentrePage(url: URL): Response {
    const placed = url.searchParams.get('placed');
    const failed = url.searchParams.get('failed');
    const notice = placed
      ? `<p role="status">Test order ${escapeHtml(placed)} was placed and delivered to the shop's webhook.</p>`
      : failed
        ? `<p role="alert">${escapeHtml(failed)}</p>`
        : '';
    const sections = SANDBOX_SELLER.shops.map((shop) => {
      const listed = [...products.values()].filter((p) => p.shopId === shop.id);
      const items = listed.flatMap((product) =>
        product.skus.map(
          (sku) => `<li>
<form method="post" action="seller-centre/orders">
<input type="hidden" name="shop_id" value="${escapeHtml(shop.id)}">
<input type="hidden" name="seller_sku" value="${escapeHtml(sku.sellerSku)}">
<label>${escapeHtml(product.title)}${sku.style ? ` (${escapeHtml(sku.style)})` : ''}, ${escapeHtml(sku.price)} ${escapeHtml(sku.currency)}, ${sku.quantity} in stock: quantity
<input type="number" name="quantity" value="1" min="1" max="20" required></label>
<button type="submit">Place a test order</button>
</form>
</li>`,
        ),
      );
      return `<section aria-labelledby="shop-${escapeHtml(shop.id)}">
<h2 id="shop-${escapeHtml(shop.id)}">${escapeHtml(shop.name)} (${escapeHtml(shop.region)})</h2>
${items.length ? `<ul>\n${items.join('\n')}\n</ul>` : '<p>Nothing is listed on this shop yet: run Sync Products from the back office.</p>'}
</section>`;
    });
    return page(
      200,
      'Seller centre - TikTok Shop sandbox',
      `<h1>TikTok Shop sandbox: seller centre</h1>
<p>A buyer's paid order of a listed product, placed here, reaches the shop as TikTok would send it: by the signed webhook, and in the next order search.</p>
${notice}
${sections.join('\n')}`,
    );
  }

  async function placeTestOrder(request: Request): Promise<Response> {
    const form = new URLSearchParams(await request.text());
    const back = (params: Record<string, string>) =>
      new Response(null, {
        status: 303,
        headers: { location: `../seller-centre?${new URLSearchParams(params).toString()}` },
      });
    const quantity = Number(form.get('quantity'));
    if (!Number.isInteger(quantity) || quantity < 1 || quantity > 20) {
      return back({ failed: 'The quantity must be a whole number from 1 to 20.' });
    }
    let order: ReturnType<typeof placeOrder>;
    try {
      order = placeOrder({
        shopId: form.get('shop_id') ?? '',
        lines: [{ sellerSku: form.get('seller_sku') ?? '', quantity }],
      });
    } catch (error) {
      return back({ failed: (error as Error).message });
    }
    if (deliverWebhook) await deliverWebhook(order.webhookBody, order.webhookHeaders);
    return back({ placed: order.orderId });
  }

  // -------------------------------------------------------------------------------------------
  // Entry points

  /** Answers one request of the API, the token routes or the authorise page. */
  async function handle(request: Request): Promise<Response> {
    const url = new URL(request.url);
    let path = url.pathname;
    if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length) || '/';
    try {
      if (request.method === 'GET' && path === '/open/authorize') return authorisePage(url);
      if (request.method === 'GET' && path === '/open/authorize/grant') return authoriseDecision(url, true);
      if (request.method === 'GET' && path === '/open/authorize/cancel') return authoriseDecision(url, false);
      if (request.method === 'GET' && path === '/open/seller-centre') return sellerCentrePage(url);
      if (request.method === 'POST' && path === '/open/seller-centre/orders') return await placeTestOrder(request);
      const token = /^\/auth\/api\/v2\/token\/(get|refresh)$/.exec(path);
      if (token?.[1]) {
        record(request.method, path, url);
        const failure = injectedFailure(path);
        if (failure) return failure;
        if (request.method !== 'GET') return refuse(36009009, 'The token routes take GET.', 404);
        return tokenRoute(token[1], url);
      }
      if (path.startsWith('/api/')) {
        const apiPath = path.slice('/api'.length);
        record(request.method, apiPath, url);
        const failure = injectedFailure(apiPath);
        if (failure) return failure;
        return await api(request, url, apiPath);
      }
      return page(
        404,
        'Not found - TikTok Shop sandbox',
        '<h1>Not found</h1>\n<p>The TikTok Shop sandbox has no page here.</p>',
      );
    } catch (error) {
      if (error instanceof Refusal) return envelope(error.status, error.code, error.message);
      throw error;
    }
  }

  /** Serves handle() over HTTP on 127.0.0.1 at a free port (tests). */
  async function listen(): Promise<{ url: string; close(): Promise<void> }> {
    const server = createServer(async (incoming, outgoing) => {
      try {
        const chunks: Buffer[] = [];
        for await (const chunk of incoming) chunks.push(chunk as Buffer);
        const headers = new Headers();
        for (const [key, value] of Object.entries(incoming.headers)) {
          if (typeof value === 'string') headers.set(key, value);
          else if (Array.isArray(value)) for (const v of value) headers.append(key, v);
        }
        const method = incoming.method ?? 'GET';
        const request = new Request(new URL(incoming.url ?? '/', `http://${incoming.headers.host ?? '127.0.0.1'}`), {
          method,
          headers,
          body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.concat(chunks),
        });
        const response = await handle(request);
        outgoing.writeHead(response.status, Object.fromEntries(response.headers));
        outgoing.end(Buffer.from(await response.arrayBuffer()));
      } catch {
        outgoing.writeHead(500, { 'content-type': 'application/json' });
        outgoing.end(JSON.stringify({ code: 36009003, message: 'Internal error', request_id: '', data: null }));
      }
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const { port } = server.address() as AddressInfo;
    return {
      url: `http://127.0.0.1:${port}`,
      close: () =>
        new Promise<void>((resolve) => {
          server.closeAllConnections();
          server.close(() => resolve());
        }),
    };
  }

  return {
    handle,
    listen,
    placeOrder,
    /** Where the seller centre's test orders are delivered: the shop's webhook, called in process. */
    subscribeWebhooks(deliver: (body: string, headers: Record<string, string>) => Promise<unknown>) {
      deliverWebhook = deliver;
    },
    /** The next `times` requests whose path ends with `pathSuffix` answer this failure. */
    failNext(pathSuffix: string, failure: { status?: number; code?: number; times: number }) {
      failures.push({ pathSuffix, status: failure.status, code: failure.code, remaining: failure.times });
    },
    /** Every request that reached the API or the token routes (credentials left out). */
    calls,
    /** The listings held, for assertions. */
    products: (): StandInProduct[] => [...products.values()],
    shops: SANDBOX_SELLER.shops,
  };
}

export type TikTokShopStandIn = ReturnType<typeof createTikTokShopStandIn>;
