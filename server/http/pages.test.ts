import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { SEARCH_TERM_MAX } from '#common/constants.ts';
import { searchProducts } from '#common/contracts/catalog.ts';
import { seedProducts } from '#seed/catalog.ts';
import { seedCategories } from '#seed/categories.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { buildUrl } from '#web/common/api-client.ts';

/** Pages as plain HTTP clients get them: the first HTML already holds the content. Needs `npm run build`. */
const { app, database } = await buildTestApp({ web: 'production' });

let pageRequests = 0;
async function page(url: string, headers: Record<string, string> = {}) {
  // Each from an address of its own: the general rate limit counts per address.
  pageRequests += 1;
  const response = await app.inject({
    method: 'GET',
    url,
    headers: { 'user-agent': 'curl/8.5.0', ...headers },
    remoteAddress: `10.88.${Math.floor(pageRequests / 200) % 250}.${pageRequests % 200}`,
  });
  return { status: response.statusCode, html: response.body, headers: response.headers };
}

describe('server-rendered pages', () => {
  test('the home page shows the layout and its content', async () => {
    const { status, html } = await page('/');
    expect(status).toBe(200);
    expect(html).toContain('<title>Stillwater · Calming home and desk goods</title>');
    expect(html).toContain('Bring the sound of water to your desk');
    expect(html).toContain('Natural materials');
    expect(html).toContain('Waterfall flow');
    expect(html).toContain('LED lighting');
    // Header: search box, sign-in icon, cart, and the category navigation in the spec's order.
    expect(html).toContain('role="search"');
    expect(html).toContain('aria-label="Sign in"');
    const nav = html.slice(html.indexOf('aria-label="Categories"'));
    const order = ['Home', 'All Products', ...seedCategories.map((c) => c.name)];
    const positions = order.map((label) => nav.indexOf(`>${label}</a>`));
    expect(positions.every((p) => p > 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    // Footer: support mail, social link, legal links, copyright 2025.
    expect(html).toContain('href="mailto:support@stillwater.shop"');
    expect(html).toContain('href="https://www.tiktok.com/@stillwater.shop"');
    expect(html).toContain('href="/privacy"');
    expect(html).toContain('href="/returns"');
    expect(html).toContain('href="/terms-and-conditions"');
    expect(html).toMatch(/© <!-- -->2025<!-- --> <!-- -->Stillwater/);
  });

  test('the returns page holds the whole returns policy', async () => {
    const { status, html } = await page('/returns');
    expect(status).toBe(200);
    for (const text of [
      '30 days from delivery',
      'full refund',
      'within 14 days of receiving the label',
      'refund within 5 business days of inspection',
      'Gift cards and downloads are non-returnable.',
      'Shipping is refunded if the return is due to an error or defect',
    ]) {
      expect(html).toContain(text);
    }
  });

  test('privacy, both terms addresses and the logout page render their text', async () => {
    expect((await page('/privacy')).html).toContain(
      '<h1 class="font-serif text-4xl text-sage-900">Privacy Policy</h1>',
    );
    const conditions = await page('/conditions');
    const terms = await page('/terms-and-conditions');
    expect(conditions.status).toBe(200);
    expect(conditions.html).toContain('Terms and Conditions</h1>');
    expect(terms.html).toContain('Terms and Conditions</h1>');
    const logout = await page('/logout');
    expect(logout.html).toContain('You&#x27;ve been logged out');
    expect(logout.html).toContain('href="/browse"');
  });

  test('the listing filters by category and searches', async () => {
    const fountains = await page('/products?category=fountains');
    expect(fountains.html).toContain('Desktop Waterfall Fountain with LED Lighting');
    expect(fountains.html).not.toContain('Zen Stone Wireless Charger');
    const search = await page('/products?search=fontain');
    expect(search.html).toContain('Desktop Waterfall Fountain with LED Lighting');
    const none = await page('/products?search=xylophone');
    expect(none.html).toContain('No products found');
  });

  test('an unknown page is a 404 with the not-found page', async () => {
    const { status, html } = await page('/no/such/page');
    expect(status).toBe(404);
    expect(html).toContain('Page not found');
    expect(html).toContain('Return to Home');
  });

  test('pages carry the full set of security headers', async () => {
    const { headers } = await page('/returns');
    expect(headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(headers['x-content-type-options']).toBe('nosniff');
    expect(headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(headers['content-security-policy']).toContain("object-src 'none'");
  });

  test('HTML is compressed and its inline scripts carry the CSP nonce', async () => {
    const { headers } = await page('/', { 'accept-encoding': 'gzip' });
    expect(headers['content-encoding']).toBe('gzip');
    const plain = await page('/');
    const nonce = /'nonce-([^']+)'/.exec(String(plain.headers['content-security-policy']))?.[1];
    expect(nonce).toBeTruthy();
    const scripts = [...plain.html.matchAll(/<script([^>]*)>/g)].map((m) => m[1] ?? '');
    expect(scripts.length).toBeGreaterThan(0);
    for (const attributes of scripts) expect(attributes).toContain(`nonce="${nonce}"`);
  });

  test('hashed assets are cached for a year; a missing one is a plain 404', async () => {
    const { html } = await page('/');
    const script = /src="(\/assets\/entry\.client-[^"]+\.js)"|href="(\/assets\/entry\.client-[^"]+\.js)"/.exec(html);
    const scriptPath = (script?.[1] ?? script?.[2]) as string;
    const plainScript = await app.inject({ method: 'GET', url: scriptPath });
    expect(plainScript.statusCode).toBe(200);
    expect(plainScript.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    // Sent as the build compressed it, Brotli or gzip as the browser accepts, the same bytes inside.
    for (const [accept, decode] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const compressed = await app.inject({ method: 'GET', url: scriptPath, headers: { 'accept-encoding': accept } });
      expect(compressed.headers['content-encoding'], accept).toBe(accept);
      expect(String(compressed.headers.vary).toLowerCase(), accept).toContain('accept-encoding');
      expect(decode(compressed.rawPayload).toString(), accept).toBe(plainScript.body);
    }
    const head = await app.inject({ method: 'HEAD', url: scriptPath });
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(plainScript.body)));
    // A missing file under /assets/ is not a page.
    for (const url of ['/assets/missing-abc123.js', '/assets/nested/missing.js', '/assets/..%2F..%2Fpackage.json']) {
      const missing = await app.inject({ method: 'GET', url });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json(), url).toEqual({ error: 'Not found', code: 'not_found' });
    }
    // The folder itself and a path leaving it (normalised to /package.json) are the not-found page.
    for (const url of ['/assets/', '/assets/%2e%2e/%2e%2e/package.json']) {
      const outside = await app.inject({ method: 'GET', url });
      expect(outside.statusCode, url).toBe(404);
      expect(String(outside.headers['content-type']), url).toContain('text/html');
    }
  });

  test('the files outside the hashed assets are served for an hour, and only those files', async () => {
    for (const [url, type] of [
      ['/favicon.svg', 'image/svg+xml'],
      ['/favicon.ico', 'image/'],
      ['/images/placeholder.svg', 'image/svg+xml'],
    ]) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(String(response.headers['content-type']), url).toContain(type);
      expect(response.headers['cache-control'], url).toBe('public, max-age=3600');
    }
    // Another path under /images/ is the not-found page, as any unknown address is.
    const unknown = await app.inject({ method: 'GET', url: '/images/none.svg' });
    expect(unknown.statusCode).toBe(404);
    expect(String(unknown.headers['content-type'])).toContain('text/html');
  });

  test("a storefront page's stylesheet is in its head: no stylesheet request before first paint", async () => {
    for (const path of ['/', '/products', '/product/desktop-fountain', '/cart']) {
      const { html } = await page(path);
      const head = html.slice(0, html.indexOf('</head>'));
      expect(head, path).not.toMatch(/<link[^>]+rel="stylesheet"/);
      const style = /<style>([\s\S]*?)<\/style>/.exec(head)?.[1] ?? '';
      // The storefront's own rules, not the back office's.
      expect(style, path).toContain('.prose-page');
      expect(style, path).toContain('--color-sage-700');
      expect(style.length, path).toBeLessThan(60_000);
    }
  });

  test('the back office brings its own stylesheet, as a file cached for a year', async () => {
    const { readdir } = await import('node:fs/promises');
    const { clientBuildDir } = await import('./web.ts');
    const sheet = (await readdir(`${clientBuildDir}/assets`)).find((name) => /^admin-layout-.+\.css$/.test(name));
    expect(sheet).toBeTruthy();
    const response = await app.inject({ method: 'GET', url: `/assets/${sheet}` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toContain('--color-sage-700');
  });

  test('the browser build renders with Preact: no react-dom in any bundle', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { clientBuildDir } = await import('./web.ts');
    const files = (await readdir(`${clientBuildDir}/assets`)).filter((name) => name.endsWith('.js'));
    for (const name of files) {
      // A string only react-dom's client carries (its error decoder's address).
      expect(await readFile(`${clientBuildDir}/assets/${name}`, 'utf8'), name).not.toContain('react.dev/errors/');
    }
  });

  test('no browser bundle carries zod (contracts reach the browser as types only)', async () => {
    const { readdir, readFile } = await import('node:fs/promises');
    const { clientBuildDir } = await import('./web.ts');
    const files = (await readdir(`${clientBuildDir}/assets`)).filter((name) => name.endsWith('.js'));
    expect(files.length).toBeGreaterThan(5);
    for (const name of files) {
      expect(await readFile(`${clientBuildDir}/assets/${name}`, 'utf8'), name).not.toMatch(/ZodMini|\$ZodType/);
    }
  });

  test('product images are served from storage with long caching', async () => {
    const product = (await app.inject({ method: 'GET', url: '/api/products/desktop-fountain' })).json();
    const image = await app.inject({ method: 'GET', url: product.images[0] });
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/webp');
    expect(image.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const rendition = await app.inject({ method: 'GET', url: product.images[0].replace('.webp', '-400w.webp') });
    expect(rendition.statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/media/../etc/passwd' })).statusCode).toBe(404);
  });
});

let visitors = 0;
/** A new account, signed in: its session cookie as a Cookie header, and its email. */
async function signedIn() {
  const id = `${Date.now().toString(36)}${(++visitors).toString(36)}`;
  const browser = testClient(app, { remoteAddress: `10.9.${Math.floor(visitors / 200)}.${visitors % 200}` });
  const account = { username: `calm_${id}`, email: `calm.${id}@example.com`, password: 'Quiet-Water-42' };
  expect((await browser.post('/api/auth/register', account)).statusCode).toBe(201);
  const session = browser.cookie('sw_session');
  expect(session).toBeTruthy();
  return { cookie: `sw_session=${session}`, email: account.email };
}

async function me(cookie: string) {
  return (await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } })).json();
}

describe('page loaders turn a refused API call into the page state, not a 500', () => {
  test('a search longer than the API takes shows the empty state (a 400); the search box has that limit', async () => {
    const term = (length: number) => 'a'.repeat(length);
    expect((await app.inject({ method: 'GET', url: `/api/products/search/${term(SEARCH_TERM_MAX)}` })).statusCode).toBe(
      200,
    );
    const refused = await app.inject({ method: 'GET', url: `/api/products/search/${term(SEARCH_TERM_MAX + 1)}` });
    expect(refused.statusCode).toBe(400);

    const { status, html } = await page(`/products?search=${term(SEARCH_TERM_MAX + 1)}`);
    expect(status).toBe(400);
    expect(html).toContain('No products found');
    expect(html).toContain('0 product(s) found');
    expect(html).not.toContain('Failed to fetch products');
    expect(html).toContain('name="robots" content="noindex, follow"');
    expect(html).toMatch(new RegExp(`<input[^>]*id="site-search"[^>]*maxLength="${SEARCH_TERM_MAX}"`));
  });

  test('a category the API refuses shows the empty state (a 400)', async () => {
    for (const category of ['%00', 'x'.repeat(101)]) {
      const { status, html } = await page(`/products?category=${category}`);
      expect(status, category).toBe(400);
      expect(html).toContain('No products found');
      expect(html).not.toContain('Failed to fetch products');
    }
  });

  test('`.` and `..` are searched as themselves, not normalised into another API route', async () => {
    // URL parsing drops a `.` or `..` segment (`%2E` too); the client sends them with a space the contract trims.
    expect(buildUrl(searchProducts, { params: { term: '.' } })).toBe('/api/products/search/%20.');
    expect(buildUrl(searchProducts, { params: { term: '..' } })).toBe('/api/products/search/%20..');
    expect(buildUrl(searchProducts, { params: { term: '...' } })).toBe('/api/products/search/...');
    const sent = await app.inject({ method: 'GET', url: buildUrl(searchProducts, { params: { term: '..' } }) });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().pagination.total).toBe(0);
    for (const term of ['.', '..', '%2E', '%2E%2E']) {
      const { status, html } = await page(`/products?search=${term}`);
      expect(status, term).toBe(200);
      expect(html).toContain('No products found');
      expect(html).toContain('0<!-- --> product(s) found');
      // `..` used to reach GET /api/products and list every product.
      expect(html).not.toContain('Desktop Waterfall Fountain with LED Lighting');
    }
  });

  test('a product slug the API refuses is the not-found page (404), not a 503', async () => {
    for (const slug of ['%20', '%00', 'x'.repeat(201)]) {
      const { status, html } = await page(`/product/${slug}`);
      expect(status, slug).toBe(404);
      expect(html).toContain('Product Not Found');
    }
    const { status } = await page('/product/no-such-product');
    expect(status).toBe(404);
  });
});

describe('the sign-in page with a redirect target', () => {
  test('a signed-in visitor goes on to a non-ASCII target, percent-encoded in the Location header', async () => {
    const { cookie } = await signedIn();
    for (const url of ['/login?redirect=/account/日本', `/login?redirect=${encodeURIComponent('/account/日本')}`]) {
      const response = await page(url, { cookie });
      expect(response.status).toBe(302);
      expect(response.headers.location).toBe('/account/%E6%97%A5%E6%9C%AC');
    }
    const search = await page(`/login?redirect=${encodeURIComponent('/products?search=café lamp')}`, { cookie });
    expect(search.headers.location).toBe('/products?search=caf%C3%A9%20lamp');
    // A client-side navigation asks for the same page's data.
    const data = await page(`/login.data?redirect=${encodeURIComponent('/account/日本')}`, { cookie });
    expect(data.status).toBeLessThan(500);
    expect(data.html).toContain('/account/%E6%97%A5%E6%9C%AC');
  });
});

describe('methods and paths of pages', () => {
  test.each(['TRACE', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const)(
    '%s is a 405 in the API error format, with Allow, naming no route',
    async (method) => {
      for (const url of ['/', '/products', '/product/desktop-fountain', '/logout', '/no/such/page', '/products.data']) {
        const response = await app.inject({ method, url, headers: { 'user-agent': 'curl/8.5.0' } });
        expect(response.statusCode, `${method} ${url}`).toBe(405);
        expect(response.headers.allow).toBe('GET, HEAD');
        expect(response.json()).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
      }
    },
  );

  test('a form post with a body is a 405 too, its body unread', async () => {
    const json = await app.inject({ method: 'POST', url: '/products', payload: { search: 'lamp' } });
    expect(json.statusCode).toBe(405);
    expect(json.body).not.toContain('routes/');
    const form = await app.inject({
      method: 'POST',
      url: '/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a%40b.c&password=x',
    });
    expect(form.statusCode).toBe(405);
  });

  test('GET and HEAD still answer, and so do React Router’s data requests', async () => {
    const head = await app.inject({ method: 'HEAD', url: '/products' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const data = await page('/products.data?category=fountains');
    expect(data.status).toBe(200);
    expect(data.html).toContain('Desktop Waterfall Fountain with LED Lighting');
    expect((await page('/no/such/page.data')).status).toBe(404);
  });

  test('a path starting with // is a path of this site, not a protocol-relative URL', async () => {
    const root = await page('//');
    expect(root.status).toBe(200);
    expect(root.html).toContain('<title>Stillwater · Calming home and desk goods</title>');
    for (const url of ['//evil.example/account', '///products', '//evil.example']) {
      const { status, html } = await page(url);
      expect(status, url).toBe(404);
      expect(html).toContain('Page not found');
    }
  });
});

describe('the signed-out page', () => {
  test('GET /logout ends the session and clears its cookie before the page renders', async () => {
    const { cookie } = await signedIn();
    expect((await me(cookie)).authenticated).toBe(true);
    const response = await app.inject({
      method: 'GET',
      url: '/logout',
      headers: { cookie, 'user-agent': 'curl/8.5.0' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toContain('You&#x27;ve been logged out');
    // The header already shows a visitor.
    expect(response.body).toContain('aria-label="Sign in"');
    const cleared = response.cookies.find((c) => c.name === 'sw_session');
    expect(cleared?.value).toBe('');
    expect(cleared?.path).toBe('/');
    expect((await me(cookie)).authenticated).toBe(false);
  });

  test('the client-side navigation to /logout (its .data request) ends the session too', async () => {
    const { cookie } = await signedIn();
    const response = await page('/logout.data', { cookie });
    expect(response.status).toBe(200);
    expect((await me(cookie)).authenticated).toBe(false);
  });

  test('a link from another site to /logout also signs out (logout CSRF only costs a sign-in)', async () => {
    const { cookie } = await signedIn();
    const response = await page('/logout', { cookie, 'sec-fetch-site': 'cross-site', 'sec-fetch-mode': 'navigate' });
    expect(response.status).toBe(200);
    expect((await me(cookie)).authenticated).toBe(false);
  });

  test('a HEAD only looks: it answers like the page and leaves the session alone', async () => {
    const { cookie } = await signedIn();
    for (const url of ['/logout', '/logout.data']) {
      const response = await app.inject({ method: 'HEAD', url, headers: { cookie } });
      expect(response.statusCode, url).toBe(200);
      expect(response.body).toBe('');
    }
    expect((await me(cookie)).authenticated).toBe(true);
    expect((await app.inject({ method: 'HEAD', url: '/logout' })).statusCode).toBe(200);
  });

  test('a visitor without a session gets the page as before', async () => {
    const { status, html } = await page('/logout');
    expect(status).toBe(200);
    expect(html).toContain('You&#x27;ve been logged out');
  });
});

describe('caching of pages', () => {
  test('every page for a signed-in visitor is private, no-store; visitors’ pages are unchanged', async () => {
    const { cookie, email } = await signedIn();
    const account = await page('/account', { cookie });
    expect(account.html).toContain(email);
    expect(account.headers['cache-control']).toBe('private, no-store');
    for (const url of ['/', '/products?category=fountains', '/product/desktop-fountain', '/products.data', '/nope']) {
      expect((await page(url, { cookie })).headers['cache-control'], url).toBe('private, no-store');
    }
    // A session cookie that no longer works is still kept out of caches.
    expect((await page('/', { cookie: 'sw_session=expired' })).headers['cache-control']).toBe('private, no-store');
    // Nor does a signed-in visitor get a signed-out copy's validator.
    expect((await page('/product/desktop-fountain', { cookie })).headers.etag).toBeUndefined();
  });

  test('the shop’s shared pages may be cached for signed-out visitors, and an unchanged one is a 304', async () => {
    for (const url of [
      '/',
      '/products',
      '/products?category=fountains&sort=price-asc',
      '/product/desktop-fountain',
      '/product/desktop-fountain/reviews',
    ]) {
      const first = await page(url);
      expect(first.status, url).toBe(200);
      expect(first.headers['cache-control'], url).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=30');
      expect(first.headers.vary, url).toContain('Cookie');
      // Compressed, it varies by the encoding too.
      const compressed = await page(url, { 'accept-encoding': 'br' });
      expect(compressed.headers['content-encoding'], url).toBe('br');
      expect(String(compressed.headers.vary).toLowerCase(), url).toMatch(
        /cookie.*accept-encoding|accept-encoding.*cookie/,
      );
      expect(compressed.headers.etag, url).toBe(first.headers.etag);
      const etag = String(first.headers.etag);
      expect(etag, url).toMatch(/^W\/"[\w-]{27}"$/);
      // The same page again (a new nonce in it) has the same validator…
      const again = await page(url);
      expect(again.headers.etag, url).toBe(etag);
      expect(again.headers['content-security-policy']).not.toBe(first.headers['content-security-policy']);
      // …so the visitor's copy is confirmed with a 304, which leaves the copy's policy (and its nonce) in place.
      const confirmed = await page(url, { 'if-none-match': etag });
      expect(confirmed.status, url).toBe(304);
      expect(confirmed.html).toBe('');
      expect(confirmed.headers.etag).toBe(etag);
      expect(confirmed.headers['content-security-policy']).toBeUndefined();
      expect((await page(url, { 'if-none-match': 'W/"something-else"' })).status, url).toBe(200);
    }
  });

  test('the flash sale’s ticking digits are left to the browser, so the page is the same from second to second', async () => {
    const { html } = await page('/product/desktop-fountain');
    expect(html).toMatch(/data-testid="flash-countdown"[^>]*>(\d+d )?--:--:--</);
  });

  test('a change to the product is a new validator: the old copy gets the new page', async () => {
    const product = seedProducts[5];
    if (!product) throw new Error('the seed has too few products');
    const url = `/product/${product.slug}`;
    const first = await page(url);
    const [row] = await database.db.select({ id: products.id }).from(products).where(eq(products.slug, product.slug));
    const { browser: owner } = await signedInAs(app, database.db, 'owner');
    const edit = await owner.patch(`/api/admin/products/${row?.id}`, {
      description: 'A renewed description, written for the page cache test.',
    });
    expect(edit.statusCode).toBe(200);
    const after = await page(url, { 'if-none-match': String(first.headers.etag) });
    expect(after.status).toBe(200);
    expect(after.html).toContain('A renewed description, written for the page cache test.');
    expect(after.headers.etag).not.toBe(first.headers.etag);
  });

  test('other pages, HEAD requests and error pages are not marked for shared caches', async () => {
    for (const url of ['/cart', '/login', '/account', '/privacy', '/nope', '/products.data']) {
      expect(String((await page(url)).headers['cache-control']), url).not.toContain('public');
    }
    expect((await page('/product/no-such-product')).headers.etag).toBeUndefined();
  });
});
