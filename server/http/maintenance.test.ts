import { afterAll, describe, expect, test } from 'vitest';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { MAINTENANCE_MESSAGE, MAINTENANCE_RETRY_AFTER_SECONDS, maintenancePage } from './maintenance.ts';

// The shop's own database: closing it here changes no other file's shop.
const { app, database } = await buildTestApp();
const { db } = database;
let counter = 0;
const address = () => `10.74.${Math.floor(++counter / 200)}.${counter % 200}`;
const visitor = () => testClient(app, { remoteAddress: address() });

// Accounts made while the shop is open (registration is closed with it).
const owner = await signedInAs(app, db, 'owner');
const admin = await signedInAs(app, db, 'admin');
const shopper = await signedInAs(app, db, 'user');

async function setMaintenance(on: boolean) {
  const response = await owner.browser.post('/api/admin/settings', { maintenanceMode: on });
  expect(response.statusCode).toBe(200);
  expect(response.json().maintenanceMode).toBe(on);
}
afterAll(() => setMaintenance(false));

function expectClosedApi(response: Awaited<ReturnType<ReturnType<typeof visitor>['get']>>) {
  expect(response.statusCode).toBe(503);
  expect(response.json()).toEqual({ error: MAINTENANCE_MESSAGE, code: 'maintenance' });
  expect(response.headers['retry-after']).toBe(String(MAINTENANCE_RETRY_AFTER_SECONDS));
  expect(response.headers['cache-control']).toBe('no-store');
}

describe('maintenance mode', () => {
  test('closes the pages and the API to visitors and shoppers, with Retry-After; admins see everything', async () => {
    await setMaintenance(true);

    const page = await visitor().get('/');
    expect(page.statusCode).toBe(503);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['retry-after']).toBe(String(MAINTENANCE_RETRY_AFTER_SECONDS));
    expect(page.headers['content-security-policy']).toContain("script-src 'self' 'nonce-");
    expect(page.body).toContain('<html lang="en">');
    expect(page.body).toContain('<title>Closed for maintenance · Stillwater</title>');
    expect(page.body).toContain('<h1>We’ll be back soon</h1>');
    expect(page.body).toContain('href="/login?redirect=%2Fadmin"');
    expect(page.body).not.toContain('<script');
    for (const path of ['/products', '/product/desktop-fountain', '/cart', '/register', '/account', '/sitemap.xml']) {
      expect((await visitor().get(path)).statusCode, path).toBe(503);
    }

    expectClosedApi(await visitor().get('/api/products'));
    expectClosedApi(await visitor().get('/api/products/desktop-fountain?x=1'));
    expectClosedApi(await visitor().post('/api/auth/register', { username: 'closed', email: 'c@example.com' }));
    expectClosedApi(await visitor().get('/api/nothing-here'));
    expectClosedApi(await shopper.browser.get('/api/products'));
    expectClosedApi(await shopper.browser.get('/api/orders'));
    expect((await shopper.browser.get('/')).statusCode).toBe(503);
    // A made-up session cookie is no way in.
    const forged = visitor();
    forged.setCookie('sw_session', 'made-up-token');
    expectClosedApi(await forged.get('/api/products'));
    // An open path in front of a closed one: the page renderer would resolve it to /products.
    for (const path of ['/login/../products', '/login/%2e%2e/products', '/assets/../products']) {
      expect((await visitor().get(path)).statusCode, path).toBe(503);
    }

    for (const signedIn of [owner.browser, admin.browser]) {
      expect((await signedIn.get('/api/products')).statusCode).toBe(200);
      expect((await signedIn.get('/api/admin/settings')).statusCode).toBe(signedIn === owner.browser ? 200 : 403);
      // API-only app: no pages, so the page is a plain 404 rather than the maintenance page.
      expect((await signedIn.get('/')).statusCode).toBe(404);
    }
  });

  test('signing in and out, the CSRF token, me, the public settings, password reset, webhooks, health and media keep working', async () => {
    await setMaintenance(true);
    const browser = visitor();
    expect((await browser.get('/healthz')).statusCode).toBe(200);
    expect((await browser.get('/readyz')).statusCode).toBe(200);
    expect((await browser.get('/api/auth/csrf-token')).statusCode).toBe(200);
    expect((await browser.get('/api/auth/me')).json()).toEqual({ authenticated: false });
    const publicSettings = await browser.get('/api/settings/public');
    expect(publicSettings.statusCode).toBe(200);
    expect(publicSettings.json().siteName).toBe('Stillwater');
    expect((await browser.post('/api/password-reset/request', { email: shopper.account.email })).statusCode).toBe(200);
    expect((await browser.get('/api/password-reset/verify/not-a-real-token')).statusCode).not.toBe(503);
    // Leaving the newsletter: a mail client's one-click, and the page the mail links to.
    const oneClick = await app.inject({
      method: 'POST',
      url: '/api/newsletter/unsubscribe?token=not-a-real-token-0123',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
      remoteAddress: address(),
    });
    expect(oneClick.statusCode).toBe(404);
    expect(oneClick.json().code).toBe('invalid_token');
    expect((await browser.get('/newsletter/unsubscribe?token=not-a-real-token-0123')).statusCode).not.toBe(503);
    // The built-in processor takes no webhooks (400), but the route answers, not the maintenance.
    expect((await browser.post('/api/webhooks/stripe', {}, { csrf: false })).statusCode).not.toBe(503);
    expect((await browser.get('/media/products/none.webp')).statusCode).toBe(404);
    expect((await browser.get('/assets/none.js')).statusCode).toBe(404);

    // An admin signs in from a new browser, sees the shop, signs out.
    const staff = visitor();
    const login = await staff.post('/api/auth/login', { email: admin.account.email, password: admin.account.password });
    expect(login.statusCode).toBe(200);
    expect((await staff.get('/api/auth/me')).json()).toMatchObject({ authenticated: true });
    expect((await staff.get('/api/products')).statusCode).toBe(200);
    expect((await staff.post('/api/auth/logout')).statusCode).toBe(200);
    expectClosedApi(await staff.get('/api/products'));

    // A shopper may sign in, but the shop stays closed to them.
    const customer = visitor();
    const shopperLogin = await customer.post('/api/auth/login', {
      email: shopper.account.email,
      password: shopper.account.password,
    });
    expect(shopperLogin.statusCode).toBe(200);
    expectClosedApi(await customer.get('/api/products'));
  });

  test('turned off, the shop is open again at once', async () => {
    await setMaintenance(true);
    expectClosedApi(await visitor().get('/api/products'));
    await setMaintenance(false);
    const reopened = await visitor().get('/api/products');
    expect(reopened.statusCode).toBe(200);
    expect(reopened.headers['retry-after']).toBeUndefined();
    expect((await visitor().get('/')).statusCode).toBe(404);
  });

  test('the page escapes the shop’s name', () => {
    const html = maintenancePage('Calm <script>alert("x")</script> & Co');
    expect(html).toContain('Calm &lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(html).not.toContain('<script>');
  });
});
