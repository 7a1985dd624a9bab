import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, test, vi } from 'vitest';
import type { SocialShop, SyncRun } from '#common/contracts/admin/social-shop.ts';
import { SANDBOX_SELLER } from '#server/adapters/social-shop/tiktok-shop-stand-in.ts';
import { products, skuVariants } from '#server/features/catalog/catalog.tables.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { standInOverHttp } from '#server/testing/social-shop-stand-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { SOCIAL_SHOP_CALLBACK_PATH, SOCIAL_SHOP_WEBHOOK_PATH } from './social-shop.routes.ts';
import { socialShopListings, socialShopOauthStates } from './social-shop.tables.ts';

const appKey = 'sbxtestappkey01';
const appSecret = 'test-app-secret-0123456789abcdef';
const serviceId = '7300000000000000001';
/** The product the stand-in refuses, as TikTok refuses a listing it finds wrong. */
let refusedTitle = '';
const { standIn, client } = await standInOverHttp(
  {
    appKey,
    appSecret,
    serviceId,
    rejectListing: (body) =>
      body.title === refusedTitle ? 'The product title contains a word TikTok Shop does not allow.' : null,
  },
  { retry: { attempts: 3, baseDelayMs: 5 } },
);

// Jobs of its own, so that the test can run the scheduled order search as the cron would.
const jobErrors: unknown[] = [];
const jobs = createJobs();
jobs.runInProcess((error) => jobErrors.push(error));
const { app, database } = await buildTestApp({ jobs, socialShop: { socialShop: client, standIn } });
async function jobsDone() {
  await jobs.idle();
  expect(jobErrors).toEqual([]);
}
async function runScheduled(name: string) {
  const job = jobs.definitions.find((definition) => definition.name === name);
  if (!job) throw new Error(`no job ${name}`);
  await job.run({});
}
const { db } = database;
const [usShop] = SANDBOX_SELLER.shops;

/** The seller's side of the popup: the authorise page, then Authorize (or Cancel); answers the redirect back. */
async function authorise(authUrl: string, choice: 'grant' | 'cancel' = 'grant'): Promise<URL> {
  const page = await fetch(authUrl);
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Authorize');
  const decision = new URL(`authorize/${choice}`, authUrl);
  decision.search = new URL(authUrl).search;
  const answer = await fetch(decision, { redirect: 'manual' });
  expect(answer.status).toBe(302);
  return new URL(answer.headers.get('location') ?? '');
}

async function ownerBrowser() {
  return (await signedInAs(app, db, 'owner')).browser;
}

/** Connect → authorise → callback, as the owner's browser; answers where the callback sent it. */
async function connect(browser: Awaited<ReturnType<typeof ownerBrowser>>, choice: 'grant' | 'cancel' = 'grant') {
  const { authUrl } = (await browser.get('/api/tiktok-shop/auth-url')).json() as { authUrl: string };
  const back = await authorise(authUrl, choice);
  const callback = await browser.get(`${back.pathname}${back.search}`);
  expect(callback.statusCode).toBe(303);
  return { location: callback.headers.location, back };
}

async function connectedShop(): Promise<{ browser: Awaited<ReturnType<typeof ownerBrowser>>; shop: SocialShop }> {
  const browser = await ownerBrowser();
  await connect(browser);
  const resolved = await browser.post('/api/tiktok-shop/resolve-shops', {});
  expect(resolved.statusCode).toBe(200);
  const shop = (resolved.json().shops as SocialShop[]).find((s) => s.shopId === usShop.id);
  if (!shop) throw new Error('the US shop was not resolved');
  return { browser, shop };
}

async function finished(browser: Awaited<ReturnType<typeof ownerBrowser>>, run: SyncRun): Promise<SyncRun> {
  await jobsDone();
  const answer = await browser.get(`/api/tiktok-shop/syncs/${run.syncId}`);
  expect(answer.statusCode).toBe(200);
  return answer.json() as SyncRun;
}

describe('connecting a shop (OAuth)', () => {
  test('Connect, Authorize and the callback store a pending shop; Resolve Shops makes its shops ready', async () => {
    const browser = await ownerBrowser();
    const before = ((await browser.get('/api/tiktok-shop/shops')).json().shops as SocialShop[]).length;
    const { authUrl } = (await browser.get('/api/tiktok-shop/auth-url')).json() as { authUrl: string };
    const url = new URL(authUrl);
    expect(url.searchParams.get('service_id')).toBe(serviceId);
    expect(url.searchParams.get('state')).toMatch(/^[\w-]{43}$/);
    // The state itself is never stored, only its hash.
    const stored = await db.select().from(socialShopOauthStates);
    expect(stored.some((row) => row.stateHash === url.searchParams.get('state'))).toBe(false);

    const back = await authorise(authUrl);
    const callback = await browser.get(`${back.pathname}${back.search}`);
    expect(callback.statusCode).toBe(303);
    expect(callback.headers.location).toBe('/admin?tab=tiktok-shop&tiktok_success=1');
    const listed = (await browser.get('/api/tiktok-shop/shops')).json();
    // The sandbox says where its seller centre is (the test orders); TikTok would not.
    expect(listed.sellerCentreUrl).toBe('/sandbox/tiktok-shop/open/seller-centre');
    const shops = listed.shops as SocialShop[];
    expect(shops).toHaveLength(before + 1);
    expect(shops.at(-1)).toMatchObject({ status: 'pending', shopName: SANDBOX_SELLER.name, shopsDiscovered: 0 });

    const resolved = await browser.post('/api/tiktok-shop/resolve-shops', {});
    expect(resolved.statusCode).toBe(200);
    const ready = resolved.json().shops as SocialShop[];
    expect(ready.filter((s) => s.status === 'pending')).toEqual([]);
    for (const sandboxShop of SANDBOX_SELLER.shops) {
      expect(ready).toContainEqual(
        expect.objectContaining({
          shopId: sandboxShop.id,
          shopName: sandboxShop.name,
          region: sandboxShop.region,
          status: 'ready',
          shopsDiscovered: 2,
        }),
      );
    }
    // No token ever reaches the browser.
    expect(JSON.stringify(ready)).not.toMatch(/SBX|token/i);
  });

  test('the state is single use: the same redirect again is refused', async () => {
    const browser = await ownerBrowser();
    const { back } = await connect(browser);
    const replay = await browser.get(`${back.pathname}${back.search}`);
    expect(replay.headers.location).toBe('/admin?tab=tiktok-shop&tiktok_error=invalid_state');
  });

  test('a missing, wrong, expired or other session’s state is refused', async () => {
    const browser = await ownerBrowser();
    const missing = await browser.get(`${SOCIAL_SHOP_CALLBACK_PATH}?code=abc`);
    expect(missing.headers.location).toBe('/admin?tab=tiktok-shop&tiktok_error=invalid_state');
    const wrong = await browser.get(`${SOCIAL_SHOP_CALLBACK_PATH}?code=abc&state=${'x'.repeat(43)}`);
    expect(wrong.headers.location).toBe('/admin?tab=tiktok-shop&tiktok_error=invalid_state');

    // Another admin's browser cannot use this session's state.
    const { authUrl } = (await browser.get('/api/tiktok-shop/auth-url')).json() as { authUrl: string };
    const back = await authorise(authUrl);
    const other = await ownerBrowser();
    const stolen = await other.get(`${back.pathname}${back.search}`);
    expect(stolen.headers.location).toBe('/admin?tab=tiktok-shop&tiktok_error=invalid_state');
    const visitor = await testClient(app).get(`${back.pathname}${back.search}`);
    expect(visitor.headers.location).toBe('/admin?tab=tiktok-shop&tiktok_error=invalid_state');

    // Ten minutes later the state is no longer good.
    const late = await browser.get('/api/tiktok-shop/auth-url');
    const lateBack = await authorise((late.json() as { authUrl: string }).authUrl);
    await db.update(socialShopOauthStates).set({ expiresAt: sql`now() - interval '1 second'` });
    const expired = await browser.get(`${lateBack.pathname}${lateBack.search}`);
    expect(expired.headers.location).toBe('/admin?tab=tiktok-shop&tiktok_error=invalid_state');
  });

  test('Cancel on the authorise page comes back as no_auth_code; a refused code as connection_failed', async () => {
    const browser = await ownerBrowser();
    expect((await connect(browser, 'cancel')).location).toBe('/admin?tab=tiktok-shop&tiktok_error=no_auth_code');
    standIn.failNext('/token/get', { status: 500, times: 5 });
    expect((await connect(browser)).location).toBe('/admin?tab=tiktok-shop&tiktok_error=connection_failed');
  });

  test('the callback takes only short strings', async () => {
    const browser = await ownerBrowser();
    const response = await browser.get(`${SOCIAL_SHOP_CALLBACK_PATH}?state=${'s'.repeat(3000)}`);
    expect(response.statusCode).toBe(400);
  });
});

describe('syncing products and stock', () => {
  test('a sync lists every active product once; the one the channel refuses lands in errors', async () => {
    const { browser, shop } = await connectedShop();
    const active = await db
      .select({ id: products.id, title: products.title })
      .from(products)
      .where(eq(products.status, 'active'));
    refusedTitle = active[3]?.title ?? '';

    const started = await browser.post('/api/tiktok-shop/sync-products', { shopId: shop.shopId, forceAll: false });
    expect([200, 202]).toContain(started.statusCode);
    const run = await finished(browser, started.json() as SyncRun);
    expect(run).toMatchObject({ status: 'finished', kind: 'products', done: active.length, total: active.length });
    expect(run.result).toMatchObject({ synced: active.length - 1, failed: 1 });
    expect(run.result?.errors).toEqual([
      {
        title: refusedTitle,
        productId: active[3]?.id,
        error: expect.stringContaining('The product title contains a word TikTok Shop does not allow.'),
      },
    ]);
    expect(run.result?.results).toHaveLength(active.length - 1);
    const listed = standIn.products().filter((p) => p.shopId === shop.shopId);
    expect(listed).toHaveLength(active.length - 1);
    expect(new Set(listed.map((p) => p.externalProductId)).size).toBe(listed.length);

    // Nothing changed: nothing is sent again, and the note says how to force it.
    const again = await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-products', { shopId: shop.shopId })).json() as SyncRun,
    );
    expect(again.result).toMatchObject({ synced: 0, failed: 1 });
    expect(again.result?.note).toContain('tick Force all');

    // Force all sends every product again, and still lists none twice.
    refusedTitle = '';
    const forced = await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-products', { shopId: shop.shopId, forceAll: true })).json() as SyncRun,
    );
    expect(forced.result).toMatchObject({ synced: active.length, failed: 0 });
    expect(standIn.products().filter((p) => p.shopId === shop.shopId)).toHaveLength(active.length);

    const latest = (await browser.get(`/api/tiktok-shop/syncs?shopId=${shop.shopId}`)).json();
    expect(latest.products.syncId).toBe(forced.syncId);
    expect(latest.inventory).toBeNull();
  });

  test('Sync Inventory pushes the stock of every listed SKU', async () => {
    const { browser, shop } = await connectedShop();
    await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-products', { shopId: shop.shopId, forceAll: true })).json() as SyncRun,
    );
    const [listing] = await db.select().from(socialShopListings).limit(1);
    if (!listing) throw new Error('nothing was listed');
    await db.update(products).set({ stock: 3 }).where(eq(products.id, listing.productId));
    await db.update(skuVariants).set({ stock: 3 }).where(eq(skuVariants.productId, listing.productId));

    const run = await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-inventory', { shopId: shop.shopId })).json() as SyncRun,
    );
    expect(run).toMatchObject({ status: 'finished', kind: 'inventory' });
    expect(run.result?.failed).toBe(0);
    expect(run.result?.results).toContainEqual(
      expect.objectContaining({ productId: listing.productId, tiktokProductId: listing.externalProductId }),
    );
    const onChannel = standIn.products().find((p) => p.id === listing.externalProductId);
    expect(onChannel?.skus.map((sku) => sku.quantity)).toEqual(onChannel?.skus.map(() => 3));
  });

  test('a shop of a market that lists in another currency is refused as a whole, with the reason', async () => {
    const { browser } = await connectedShop();
    const gb = SANDBOX_SELLER.shops[1];
    const run = await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-products', { shopId: gb.id })).json() as SyncRun,
    );
    expect(run).toMatchObject({
      status: 'failed',
      result: null,
      error: `${gb.name} (GB) lists in GBP, and the shop's prices are in USD: choose a shop that sells in USD`,
    });
    expect(standIn.products().filter((p) => p.shopId === gb.id)).toEqual([]);
  });

  test('a sync needs a selected, ready shop, and says so otherwise', async () => {
    const browser = await ownerBrowser();
    const unknown = await browser.post('/api/tiktok-shop/sync-products', { shopId: '123', forceAll: false });
    expect(unknown.statusCode).toBe(404);
    const missing = await browser.post('/api/tiktok-shop/sync-products', {});
    expect(missing.statusCode).toBe(400);
    const bad = await browser.post('/api/tiktok-shop/sync-inventory', { shopId: 'a b\u0000' });
    expect(bad.statusCode).toBe(400);
    await connect(browser);
    const pending = ((await browser.get('/api/tiktok-shop/shops')).json().shops as SocialShop[]).find(
      (s) => s.status === 'pending',
    );
    const early = await browser.post('/api/tiktok-shop/sync-products', { shopId: pending?.shopId });
    expect(early.statusCode).toBe(409);
    expect(early.json().error).toBe('This shop is still pending: run Resolve Shops first');
  });

  test('category mapping: the recommendation is stored, the owner can change it, and only to a leaf', async () => {
    const { browser, shop } = await connectedShop();
    await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-products', { shopId: shop.shopId, forceAll: true })).json() as SyncRun,
    );
    const mapped = (await browser.get(`/api/tiktok-shop/category-mappings?shopId=${shop.shopId}`)).json();
    expect(mapped.channelCategories.length).toBeGreaterThan(3);
    const recommended = mapped.mappings.find((m: { source: string | null }) => m.source === 'recommended');
    expect(recommended).toBeDefined();
    const other = mapped.channelCategories.find((c: { id: string }) => c.id !== recommended.channelCategoryId);
    const saved = await browser.put('/api/tiktok-shop/category-mappings', {
      shopId: shop.shopId,
      categoryId: recommended.categoryId,
      channelCategoryId: other.id,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      channelCategoryId: other.id,
      channelCategoryName: other.name,
      source: 'owner',
    });
    const notLeaf = await browser.put('/api/tiktok-shop/category-mappings', {
      shopId: shop.shopId,
      categoryId: recommended.categoryId,
      channelCategoryId: '999999',
    });
    expect(notLeaf.statusCode).toBe(400);
    // The products of that category go again with the next sync.
    const next = await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-products', { shopId: shop.shopId })).json() as SyncRun,
    );
    expect(next.result?.synced).toBeGreaterThan(0);
  });
});

describe('channel orders in', () => {
  test('an order delivered by webhook 3 times and found again by the search is one order and one stock decrement', async () => {
    const { browser, shop } = await connectedShop();
    await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-products', { shopId: shop.shopId, forceAll: true })).json() as SyncRun,
    );
    const [listing] = await db
      .select()
      .from(socialShopListings)
      .where(sql`jsonb_array_length(${socialShopListings.skus}) = 1`)
      .limit(1);
    const sku = listing?.skus[0];
    if (!listing || !sku) throw new Error('no single-SKU listing');
    const [before] = await db
      .select({ stock: products.stock })
      .from(products)
      .where(eq(products.id, listing.productId));

    const placed = standIn.placeOrder({ shopId: shop.shopId, lines: [{ sellerSku: sku.sellerSku, quantity: 2 }] });
    for (let delivery = 0; delivery < 3; delivery++) {
      const signed = await app.inject({
        method: 'POST',
        url: SOCIAL_SHOP_WEBHOOK_PATH,
        headers: placed.webhookHeaders,
        payload: placed.webhookBody,
      });
      expect(signed.statusCode).toBe(200);
      expect(signed.json()).toEqual({ received: true, duplicate: delivery > 0 });
    }
    await jobsDone();
    // The periodic search finds it again.
    await runScheduled('social-shop.poll');

    const rows = await db
      .select()
      .from(orders)
      .where(and(eq(orders.channel, 'tiktok-shop'), eq(orders.externalId, placed.orderId)));
    expect(rows).toHaveLength(1);
    const [order] = rows;
    expect(order).toMatchObject({ status: 'processing', paymentMethod: 'TikTok Shop', currency: 'USD' });
    const items = await db
      .select()
      .from(orderItems)
      .where(eq(orderItems.orderId, order?.id ?? ''));
    expect(items).toEqual([expect.objectContaining({ productId: listing.productId, quantity: 2 })]);
    const [after] = await db.select({ stock: products.stock }).from(products).where(eq(products.id, listing.productId));
    expect(after?.stock).toBe(Math.max(0, (before?.stock ?? 0) - 2));

    // The stock it took is pushed back to the channel shortly after (debounced).
    await vi.waitFor(
      () => {
        const onChannel = standIn.products().find((p) => p.id === listing.externalProductId);
        expect(onChannel?.skus[0]?.quantity).toBe(after?.stock);
      },
      { timeout: 10_000, interval: 200 },
    );
  });

  test('a webhook without the right signature is refused and changes nothing', async () => {
    const placed = standIn.placeOrder({
      shopId: usShop.id,
      lines: [{ sellerSku: standIn.products()[0]?.skus[0]?.sellerSku ?? '', quantity: 1 }],
    });
    const signature = placed.webhookHeaders.authorization;
    const oneDigitOff = `${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`;
    for (const authorization of [undefined, 'a'.repeat(64), oneDigitOff, `${signature}00`]) {
      const response = await app.inject({
        method: 'POST',
        url: SOCIAL_SHOP_WEBHOOK_PATH,
        headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
        payload: placed.webhookBody,
      });
      expect(response.statusCode).toBe(401);
    }
    const tampered = await app.inject({
      method: 'POST',
      url: SOCIAL_SHOP_WEBHOOK_PATH,
      headers: placed.webhookHeaders,
      payload: placed.webhookBody.replace('"type":1', '"type":2'),
    });
    expect(tampered.statusCode).toBe(401);
    await jobsDone();
    const rows = await db.select().from(orders).where(eq(orders.externalId, placed.orderId));
    expect(rows).toEqual([]);
  });
});

describe('the sandbox seller centre', () => {
  const page = '/sandbox/tiktok-shop/open/seller-centre';

  test('only an admin who may manage products sees it; others are sent to sign in', async () => {
    const visitor = await testClient(app).get(page);
    expect(visitor.statusCode).toBe(303);
    expect(visitor.headers.location).toBe(`/login?redirect=${encodeURIComponent(page)}`);
    const { browser: shopper } = await signedInAs(app, db, 'user');
    expect((await shopper.get(page)).statusCode).toBe(303);
    const { browser: reviewer } = await signedInAs(app, db, 'admin', { manageNewsletters: true });
    expect((await reviewer.get(page)).statusCode).toBe(303);
  });

  test('a test order placed there reaches the shop by the webhook and becomes one order', async () => {
    const { browser, shop } = await connectedShop();
    await finished(
      browser,
      (await browser.post('/api/tiktok-shop/sync-products', { shopId: shop.shopId, forceAll: true })).json() as SyncRun,
    );
    const listed = await browser.get(page);
    expect(listed.statusCode).toBe(200);
    expect(listed.headers['content-type']).toContain('text/html');
    expect(listed.body).toContain('Place a test order');
    const sellerSku = /name="seller_sku" value="([^"]+)"/.exec(listed.body)?.[1] ?? '';
    expect(sellerSku).not.toBe('');

    const form = new URLSearchParams({ shop_id: shop.shopId, seller_sku: sellerSku, quantity: '1' }).toString();
    const cookie = `sw_session=${browser.cookie('sw_session')}`;
    const foreign = await app.inject({
      method: 'POST',
      url: `${page}/orders`,
      headers: { cookie, origin: 'https://elsewhere.example', 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    expect(foreign.statusCode).toBe(403);
    const crossSite = await app.inject({
      method: 'POST',
      url: `${page}/orders`,
      headers: { cookie, 'sec-fetch-site': 'same-site', 'content-type': 'application/x-www-form-urlencoded' },
      payload: form,
    });
    expect(crossSite.statusCode).toBe(403);

    // As a browser sends it under Referrer-Policy no-referrer: Origin null, Sec-Fetch-Site same-origin.
    const placed = await app.inject({
      method: 'POST',
      url: `${page}/orders`,
      headers: {
        cookie,
        origin: 'null',
        'sec-fetch-site': 'same-origin',
        'content-type': 'application/x-www-form-urlencoded',
      },
      payload: form,
    });
    expect(placed.statusCode).toBe(303);
    // Back to the seller centre, saying which order was placed.
    const back = new URL(String(placed.headers.location), `http://localhost:3000${page}/orders`);
    expect(back.pathname).toBe(page);
    const orderId = back.searchParams.get('placed');
    expect((await browser.get(`${back.pathname}${back.search}`)).body).toContain(`Test order ${orderId} was placed`);
    expect(orderId).toMatch(/^\d+$/);
    await jobsDone();
    const rows = await db
      .select()
      .from(orders)
      .where(eq(orders.externalId, orderId ?? ''));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.channel).toBe('tiktok-shop');

    const bad = await app.inject({
      method: 'POST',
      url: `${page}/orders`,
      headers: { cookie, origin: 'http://localhost:3000', 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ shop_id: shop.shopId, seller_sku: sellerSku, quantity: '0' }).toString(),
    });
    expect(bad.statusCode).toBe(303);
    expect(bad.headers.location).toContain('failed=');
  });
});
