import { describe, expect, test } from 'vitest';
import { seedCategories } from '#seed/categories.ts';
import { buildTestApp } from '#server/testing/test-app.ts';

/** Pages as plain HTTP clients get them: the first HTML already holds the content. Needs `npm run build`. */
const { app } = await buildTestApp({ web: 'production' });

async function page(url: string, headers: Record<string, string> = {}) {
  const response = await app.inject({ method: 'GET', url, headers: { 'user-agent': 'curl/8.5.0', ...headers } });
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
    const asset = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1] as string;
    const response = await app.inject({ method: 'GET', url: asset });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await app.inject({ method: 'GET', url: '/assets/missing-abc123.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ error: 'Not found', code: 'not_found' });
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
