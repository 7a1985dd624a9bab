import { type BrowserContext, expect, type Page, type Request, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { addToCart, PRODUCT, payAsGuest } from './checkout-steps.ts';
import { newAccount } from './shopper.ts';

/**
 * The cookie banner, first-party page views and the consent-gated ad pixel. These browsers start
 * with nothing stored (the other suites' browsers have answered the banner already). The test
 * server has a pixel (e2e/serve.ts); its script is served here by a fake that records the calls.
 */
test.use({ storageState: { cookies: [], origins: [] } });

const CONSENT_KEY = 'stillwater.cookieConsent';

/** What the fake pixel script does: replays the queued commands, then records every call in `window.pixelCalls`. */
const FAKE_PIXEL = `
  (function () {
    var queued = window.ttq || [];
    var calls = (window.pixelCalls = []);
    var pixel = {};
    ['page', 'track', 'identify', 'load', 'grantConsent', 'revokeConsent', 'holdConsent'].forEach(function (name) {
      pixel[name] = function () { calls.push([name].concat(Array.prototype.slice.call(arguments))); };
    });
    for (var i = 0; i < queued.length; i++) pixel[queued[i][0]] && pixel[queued[i][0]].apply(null, queued[i].slice(1));
    window.ttq = pixel;
  })();
`;

type Watch = {
  requests: Request[];
  /** Our server's answers to the conversions, read as they come (a page that leaves loses its bodies). */
  conversionAnswers: Map<Request, Promise<unknown>>;
  adService: () => Request[];
  pageViews: () => Promise<Record<string, unknown>[]>;
};

/** Serves the fake pixel and keeps every request the pages of `context` make. */
async function watch(context: BrowserContext): Promise<Watch> {
  const requests: Request[] = [];
  const conversionAnswers = new Map<Request, Promise<unknown>>();
  context.on('request', (request) => requests.push(request));
  context.on('response', (response) => {
    if (new URL(response.url()).pathname === '/api/analytics/conversion') {
      conversionAnswers.set(
        response.request(),
        response.json().catch(() => null),
      );
    }
  });
  await context.route('https://analytics.tiktok.com/**', (route) =>
    route.fulfill({ contentType: 'text/javascript', body: FAKE_PIXEL }),
  );
  return {
    requests,
    conversionAnswers,
    // The ad service, from the browser (its host) or through our server (the tracker's paths).
    adService: () =>
      requests.filter((r) =>
        /analytics\.tiktok\.com|tiktok/.test(new URL(r.url()).hostname + new URL(r.url()).pathname),
      ),
    pageViews: async () =>
      requests
        .filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/analytics/pageview')
        .map((r) => r.postDataJSON() as Record<string, unknown>),
  };
}

const banner = (page: Page) => page.getByRole('region', { name: 'Cookies', exact: true });
const storedConsent = (page: Page) => page.evaluate((key) => localStorage.getItem(key), CONSENT_KEY);
const pixelCalls = (page: Page) => page.evaluate(() => (window as { pixelCalls?: unknown[][] }).pixelCalls ?? []);

/** The ad events our server was sent, by name. */
function serverAdEvents(seen: Watch, name?: string) {
  return seen.requests
    .filter((r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/tiktok/event')
    .map((r) => ({ body: r.postDataJSON() as Record<string, unknown>, headers: r.headers() }))
    .filter(({ body }) => !name || body.event === name);
}

test('a banner whose HTML has only partly arrived is not painted until its end arrives', async ({ page }) => {
  // A slow connection hands the browser a page in pieces, and it paints what it has: the banner's
  // text without its buttons, then grown by them (a layout shift seen on a loaded machine). The
  // pieces here are the home page's own HTML, cut inside the banner and then just after it; these
  // cut documents are not pages of the shop, so axe is run on the whole page in the next test.
  const html = await (await page.request.get('/')).text();
  const inside = html.indexOf('Privacy Policy</a>') + 'Privacy Policy</a>'.length;
  const end = html.indexOf('</section>', html.indexOf('data-consent-banner-end')) + '</section>'.length;
  expect(inside).toBeGreaterThan(20);
  expect(end).toBeGreaterThan(inside);
  const server = page.locator('section[data-consent-pending]');

  for (const [cut, shown] of [
    [inside, false],
    [end, true],
  ] as const) {
    await page.route('/', (route) => route.fulfill({ contentType: 'text/html', body: html.slice(0, cut) }), {
      times: 1,
    });
    await page.goto('/');
    await expect(server).toBeAttached();
    await expect(server.getByText('Privacy Policy')).toBeAttached();
    if (shown) await expect(banner(page)).toBeVisible();
    else await expect(server).toBeHidden();
  }
});

test('a first visit shows the banner without moving the page; Deny is stored and nothing reaches the ad service', async ({
  page,
  context,
}) => {
  const seen = await watch(context);
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  await expect(banner(page).getByRole('button', { name: 'Deny' })).toBeVisible();
  await expect(banner(page).getByRole('button', { name: 'Accept All' })).toBeVisible();
  await expect(banner(page).getByRole('button', { name: 'Close cookie banner' })).toBeVisible();
  await expectAccessible(page);
  // The banner is fixed over the window: nothing on the page moved when it appeared. A banner
  // pushing the page would score about 0.1; a loaded machine has been seen to log a sub-pixel
  // shift of 0.00001 elsewhere, so the bound is 0.001 (the sources name what moved).
  const shifts = await page.evaluate(
    () =>
      new Promise<{ score: number; moved: string[] }>((resolve) => {
        const done = (entries: PerformanceEntry[]) => {
          const shiftEntries = entries as unknown as { value: number; sources?: { node?: Node | null }[] }[];
          resolve({
            score: shiftEntries.reduce((sum, entry) => sum + entry.value, 0),
            moved: shiftEntries.flatMap((entry) =>
              (entry.sources ?? []).map((source) => (source.node as Element | null)?.outerHTML.slice(0, 80) ?? '?'),
            ),
          });
        };
        new PerformanceObserver((list) => done(list.getEntries())).observe({ type: 'layout-shift', buffered: true });
        setTimeout(() => done([]), 500);
      }),
  );
  expect(shifts.score, `moved: ${shifts.moved.join(' | ')}`).toBeLessThan(0.001);

  await banner(page).getByRole('button', { name: 'Deny' }).click();
  await expect(banner(page)).toBeHidden();
  expect(JSON.parse((await storedConsent(page)) ?? 'null')).toEqual({ accepted: false });

  await page.goto('/products');
  await expect(banner(page)).toBeHidden();
  await page.getByRole('link', { name: PRODUCT.title }).first().click();
  await expect(page).toHaveURL(new RegExp(`/product/${PRODUCT.slug}$`));
  // The address changes before the product page replaces the listing (and its Add to Cart buttons).
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRODUCT.title);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Added to Cart' })).toBeVisible();
  await page.goto('/cart');
  await page.getByRole('button', { name: 'Checkout', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Checkout' })).toBeVisible();
  await expect(banner(page)).toBeHidden();

  // Page views were counted without consent; nothing went to the ad service, from the browser or the server.
  const views = await seen.pageViews();
  expect(views.length).toBeGreaterThanOrEqual(3);
  for (const view of views) {
    expect(view.cookiesAccepted).toBe(false);
    expect(view).not.toHaveProperty('userId');
  }
  expect(seen.adService().map((r) => r.url())).toEqual([]);
  expect(await page.evaluate(() => 'ttq' in window)).toBe(false);
});

test('the close button acts as Deny, and the choice holds in a new tab', async ({ page, context }) => {
  const seen = await watch(context);
  await page.goto('/products');
  await banner(page).getByRole('button', { name: 'Close cookie banner' }).click();
  await expect(banner(page)).toBeHidden();
  expect(JSON.parse((await storedConsent(page)) ?? 'null')).toEqual({ accepted: false });
  const tab = await context.newPage();
  await tab.goto('/');
  await expect(tab.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner(tab)).toBeHidden();
  await expectAccessible(tab);
  expect(seen.adService()).toEqual([]);
});

test('Accept All loads the pixel and sends a page view at once; events reach the pixel and our server with one id', async ({
  page,
  context,
}) => {
  const seen = await watch(context);
  await page.goto('/');
  await expect(banner(page)).toBeVisible();
  expect(seen.adService()).toEqual([]);
  // The banner is in the HTML: the landing's own page view comes once the app has started.
  await expect.poll(async () => (await seen.pageViews()).length).toBe(1);

  await banner(page).getByRole('button', { name: 'Accept All' }).click();
  await expect(banner(page)).toBeHidden();
  expect(JSON.parse((await storedConsent(page)) ?? 'null')).toEqual({ accepted: true });
  // Accept triggers a page view (spec 4), now with consent, and the pixel's page view.
  await expect.poll(async () => (await seen.pageViews()).length).toBe(2);
  expect((await seen.pageViews()).at(-1)).toMatchObject({ page: '/', cookiesAccepted: true });
  await expect.poll(() => pixelCalls(page)).toContainEqual(['page']);
  expect(
    seen.requests.some((r) =>
      r.url().startsWith('https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=C0E2ETESTPIXEL00'),
    ),
  ).toBe(true);
  await expect.poll(() => serverAdEvents(seen, 'Pageview').length).toBe(1);
  const [pageview] = serverAdEvents(seen, 'Pageview');
  expect(pageview?.headers['x-tracking-consent']).toBe('granted');
  expect(pageview?.body).toMatchObject({ test_event_code: 'TEST74302', page: { url: expect.stringMatching(/\/$/) } });

  // ViewContent on the product page: the pixel and our server get the same random event id.
  await page.goto(`/product/${PRODUCT.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRODUCT.title);
  await expectAccessible(page);
  await expect.poll(() => serverAdEvents(seen, 'ViewContent').length).toBe(1);
  const viewContent = serverAdEvents(seen, 'ViewContent')[0]?.body;
  expect(viewContent).toMatchObject({
    properties: {
      currency: 'USD',
      value: 24.99,
      contents: [{ content_type: 'product', content_name: PRODUCT.title, price: 24.99 }],
    },
  });
  expect(viewContent?.event_id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  await expect
    .poll(() => pixelCalls(page))
    .toContainEqual([
      'track',
      'ViewContent',
      expect.objectContaining({ value: 24.99 }),
      { event_id: viewContent?.event_id },
    ]);

  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect.poll(() => serverAdEvents(seen, 'AddToCart').length).toBe(1);
  const addToCart = serverAdEvents(seen, 'AddToCart')[0]?.body;
  expect(pixelCalls(page)).resolves.toContainEqual([
    'track',
    'AddToCart',
    expect.anything(),
    { event_id: addToCart?.event_id },
  ]);

  await page.goto('/cart');
  await page.getByRole('button', { name: 'Checkout', exact: true }).click();
  await expect(page.getByRole('dialog', { name: 'Checkout' })).toBeVisible();
  await expect.poll(() => serverAdEvents(seen, 'InitiateCheckout').length).toBe(1);
  expect(serverAdEvents(seen, 'InitiateCheckout')[0]?.body).toMatchObject({
    properties: { num_items: 1, value: 24.99, currency: 'USD' },
  });
  await expect
    .poll(() => pixelCalls(page))
    .toContainEqual(['track', 'InitiateCheckout', expect.anything(), expect.anything()]);
  await expectAccessible(page);
});

test('the ad page view goes once per path change; the first-party page view on every navigation', async ({
  page,
  context,
}) => {
  await page.addInitScript((key) => localStorage.setItem(key, '{"accepted":true}'), CONSENT_KEY);
  const seen = await watch(context);
  await page.goto('/');
  await expect(banner(page)).toBeHidden();
  await page.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: 'All Products' }).click();
  await expect(page).toHaveURL(/\/products$/);
  // A new query on the same path: a navigation (a page view), not a path change (no ad page view).
  await page.getByRole('searchbox').first().fill('cushion');
  await page.getByRole('searchbox').first().press('Enter');
  await expect(page).toHaveURL(/\/products\?search=cushion$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/products$/);
  await expect.poll(async () => (await seen.pageViews()).length).toBe(4);
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await expect
    .poll(async () => (await seen.pageViews()).map((view) => view.page))
    .toEqual(['/', '/products', '/products', '/products', '/']);
  const views = await seen.pageViews();
  expect(new Set(views.map((view) => view.sessionId)).size).toBe(1);
  expect(views.every((view) => view.cookiesAccepted === true)).toBe(true);
  await expect
    .poll(() =>
      serverAdEvents(seen, 'Pageview').map(({ body }) => new URL(String((body.page as { url: string }).url)).pathname),
    )
    .toEqual(['/', '/products', '/']);
  expect((await pixelCalls(page)).filter(([name]) => name === 'page')).toHaveLength(3);
  await expectAccessible(page);
});

test('with no tracker present, add-to-cart tracking is skipped silently and the cart still works', async ({
  page,
  context,
}) => {
  await page.addInitScript((key) => {
    localStorage.setItem(key, '{"accepted":true}');
    // As when a blocker stops the pixel: `ttq` can never be set.
    Object.defineProperty(window, 'ttq', { get: () => undefined, set: () => {}, configurable: false });
  }, CONSENT_KEY);
  const seen = await watch(context);
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`/product/${PRODUCT.slug}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Added to Cart' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Cart, 1 item' })).toBeVisible();
  await expect.poll(() => serverAdEvents(seen, 'ViewContent').length).toBe(1);
  expect(serverAdEvents(seen, 'AddToCart')).toEqual([]);
  expect(errors).toEqual([]);
  await expectAccessible(page);
});

test('Escape puts the banner off for this session without a choice; a new session asks again', async ({
  page,
  browser,
}) => {
  await page.goto('/');
  // The banner comes first in the tab order, after the skip link.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(banner(page).getByRole('link', { name: 'Privacy Policy' })).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(banner(page).getByRole('button', { name: 'Deny' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(banner(page)).toBeHidden();
  expect(await storedConsent(page)).toBeNull();
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(banner(page)).toBeHidden();

  const later = await browser.newContext({ storageState: { cookies: [], origins: [] } });
  const next = await later.newPage();
  await next.goto('/');
  await expect(banner(next)).toBeVisible();
  // Keyboard only: Accept All with Enter.
  await banner(next).getByRole('button', { name: 'Accept All' }).focus();
  await next.keyboard.press('Enter');
  await expect(banner(next)).toBeHidden();
  expect(JSON.parse((await storedConsent(next)) ?? 'null')).toEqual({ accepted: true });
  await later.close();
});

test('Cookie settings in the footer reopens the banner, takes the focus and gives it back', async ({
  page,
  context,
}) => {
  const seen = await watch(context);
  await page.addInitScript((key) => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem(key, '{"accepted":false}');
      sessionStorage.setItem('seeded', '1');
    }
  }, CONSENT_KEY);
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { name: 'Cookies and the consent banner' })).toBeVisible();
  await expect(page.locator('#cookies')).toContainText('Cookie settings link at the bottom of every page');
  await expect(banner(page)).toBeHidden();
  const settings = page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' });
  await settings.focus();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toBeVisible();
  await expect(banner(page)).toBeFocused();
  await expectAccessible(page);
  // Keyboard only: past the policy link and Deny to Accept All.
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Tab');
  await expect(banner(page).getByRole('button', { name: 'Accept All' })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(banner(page)).toBeHidden();
  await expect(settings).toBeFocused();
  expect(JSON.parse((await storedConsent(page)) ?? 'null')).toEqual({ accepted: true });
  await expect.poll(() => pixelCalls(page)).toContainEqual(['page']);

  // Changing back to Deny reloads the page, so the pixel it had loaded is gone; nothing is sent after.
  await settings.click();
  await banner(page).getByRole('button', { name: 'Deny' }).click();
  await expect(page).toHaveURL(/\/privacy$/);
  await expect.poll(() => page.evaluate(() => 'ttq' in window)).toBe(false);
  expect(JSON.parse((await storedConsent(page)) ?? 'null')).toEqual({ accepted: false });
  const before = seen.adService().length;
  await page.getByRole('navigation', { name: 'Quick links' }).getByRole('link', { name: 'All Products' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect.poll(async () => (await seen.pageViews()).at(-1)?.page).toBe('/products');
  expect((await seen.pageViews()).at(-1)?.cookiesAccepted).toBe(false);
  expect(seen.adService().length).toBe(before);
});

test('Global Privacy Control counts as Deny without asking', async ({ browser }) => {
  const context = await browser.newContext({
    storageState: { cookies: [], origins: [] },
    extraHTTPHeaders: { 'Sec-GPC': '1' },
  });
  await context.addInitScript(() =>
    Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true }),
  );
  const seen = await watch(context);
  const page = await context.newPage();
  await page.goto(`/product/${PRODUCT.slug}`);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(PRODUCT.title);
  await expect(banner(page)).toBeHidden();
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Added to Cart' })).toBeVisible();
  await expect.poll(async () => (await seen.pageViews()).length).toBeGreaterThanOrEqual(1);
  expect((await seen.pageViews()).every((view) => view.cookiesAccepted === false)).toBe(true);

  // Cookie settings says why nothing is asked; there is nothing to accept.
  await page.getByRole('contentinfo').getByRole('button', { name: 'Cookie settings' }).click();
  await expect(banner(page)).toContainText('Global Privacy Control');
  await expect(banner(page).getByRole('button', { name: 'Accept All' })).toHaveCount(0);
  await expectAccessible(page);
  await banner(page).getByRole('button', { name: 'OK', exact: true }).click();
  await expect(banner(page)).toBeHidden();
  expect(seen.adService()).toEqual([]);
  await context.close();
});

/** The conversions the page reported, with what our server answered. */
async function conversions(seen: Watch) {
  const sent = seen.requests.filter(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname === '/api/analytics/conversion',
  );
  return Promise.all(
    sent.map(async (r) => ({
      body: r.postDataJSON() as Record<string, unknown>,
      answer: await seen.conversionAnswers.get(r),
    })),
  );
}

test('paid with consent: the conversion, and CompletePayment to the pixel and our server with one id, once', async ({
  page,
  context,
}) => {
  await page.addInitScript((key) => localStorage.setItem(key, '{"accepted":true}'), CONSENT_KEY);
  const seen = await watch(context);
  await addToCart(page);
  await page.goto('/cart');
  const { reference } = await payAsGuest(page, newAccount().email);
  await expect(page.getByTestId('order-reference')).toHaveText(reference);
  await expectAccessible(page);

  await expect.poll(() => serverAdEvents(seen, 'CompletePayment').length).toBe(1);
  const complete = serverAdEvents(seen, 'CompletePayment')[0]?.body ?? {};
  const properties = complete.properties as { value: number; order_id: string };
  expect(properties).toMatchObject({ order_id: reference, currency: 'USD', num_items: 1 });
  // The order's total: the product, its shipping and tax.
  expect(properties.value).toBeGreaterThan(24.99 + 4.99);
  await expect
    .poll(() => pixelCalls(page))
    .toContainEqual([
      'track',
      'CompletePayment',
      expect.objectContaining({ order_id: reference }),
      { event_id: complete.event_id },
    ]);

  await expect.poll(async () => (await conversions(seen)).map(({ answer }) => answer)).toEqual([{ recorded: true }]);
  const [conversion] = await conversions(seen);
  expect(conversion?.body).toMatchObject({ reference, orderValue: Math.round(properties.value * 100) });

  // A reload of /success reports the order again (counted once by the server), not CompletePayment.
  await page.reload();
  await expect(page.getByTestId('order-reference')).toHaveText(reference);
  await expect
    .poll(async () => (await conversions(seen)).map(({ answer }) => answer))
    .toEqual([{ recorded: true }, { recorded: false }]);
  expect(serverAdEvents(seen, 'CompletePayment')).toHaveLength(1);
});

test('paid after Deny: the conversion is counted and nothing reaches the ad service', async ({ page, context }) => {
  await page.addInitScript((key) => localStorage.setItem(key, '{"accepted":false}'), CONSENT_KEY);
  const seen = await watch(context);
  await addToCart(page);
  await page.goto('/cart');
  const { reference } = await payAsGuest(page, newAccount().email);
  await expect(page.getByTestId('order-reference')).toHaveText(reference);
  await expect.poll(async () => (await conversions(seen)).map(({ answer }) => answer)).toEqual([{ recorded: true }]);
  const [conversion] = await conversions(seen);
  expect(conversion?.body).toMatchObject({ reference });
  expect(conversion?.body).not.toHaveProperty('userId');
  expect(seen.adService()).toEqual([]);
  expect(await page.evaluate(() => 'ttq' in window)).toBe(false);
});

test('the banner comes with the page: shown before the app starts on a first visit, never for a browser that answered', async ({
  browser,
}) => {
  for (const [stored, shown] of [
    [null, true],
    ['{"accepted":false}', false],
    ['{"accepted":true}', false],
  ] as const) {
    const context = await browser.newContext({ storageState: { cookies: [], origins: [] } });
    // The app's scripts never arrive: what shows is the server's HTML and the head's consent script.
    await context.route('**/assets/*.js', (route) => route.abort());
    const page = await context.newPage();
    if (stored) {
      await page.addInitScript((value) => localStorage.setItem('stillwater.cookieConsent', value), stored);
    }
    await page.goto('/products');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    if (shown) await expect(banner(page)).toBeVisible();
    else await expect(banner(page)).toBeHidden();
    await context.close();
  }
});
