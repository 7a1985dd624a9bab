import { afterAll, describe, expect, test } from 'vitest';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';

/** Maintenance mode with the real pages (server-rendered, as in production). Needs `npm run build`. */
const { app, database } = await buildTestApp({ web: 'production' });
const { db } = database;
let counter = 0;
const address = () => `10.75.${Math.floor(++counter / 200)}.${counter % 200}`;
const visitor = () => testClient(app, { remoteAddress: address(), headers: { 'user-agent': 'curl/8.5.0' } });

const owner = await signedInAs(app, db, 'owner');
const admin = await signedInAs(app, db, 'admin');
afterAll(() => owner.browser.post('/api/admin/settings', { maintenanceMode: false }));

describe('maintenance mode, pages', () => {
  test('visitors get the maintenance page; the sign-in pages render in full; admins see the shop', async () => {
    expect((await owner.browser.post('/api/admin/settings', { maintenanceMode: true })).statusCode).toBe(200);

    const home = await visitor().get('/');
    expect(home.statusCode).toBe(503);
    expect(home.body).toContain('<h1>We’ll be back soon</h1>');
    expect(home.body).not.toContain('Bring the sound of water to your desk');

    // The sign-in page is rendered with the shop's frame: its own API calls (made in-process while
    // rendering) are not closed either.
    for (const path of ['/login', '/login?redirect=%2Fadmin', '/request-password-reset', '/reset-password?token=x']) {
      const page = await visitor().get(path);
      expect(page.statusCode, path).toBe(200);
      expect(page.body, path).not.toContain('We’ll be back soon');
    }
    // Browsers ask for /favicon.ico whatever icon the page names: a real icon, not a 404.
    expect((await visitor().get('/favicon.svg')).statusCode).toBe(200);
    const ico = await visitor().get('/favicon.ico');
    expect(ico.statusCode).toBe(200);
    expect(ico.headers['content-type']).toMatch(/icon/);
    // The back office's page sends a visitor to sign in first.
    const backOffice = await visitor().get('/admin');
    expect(backOffice.statusCode).toBe(302);
    expect(backOffice.headers.location).toBe('/login?redirect=%2Fadmin');

    for (const signedIn of [owner.browser, admin.browser]) {
      const page = await signedIn.get('/');
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('Bring the sound of water to your desk');
      expect((await signedIn.get('/product/desktop-fountain')).statusCode).toBe(200);
    }

    expect((await owner.browser.post('/api/admin/settings', { maintenanceMode: false })).statusCode).toBe(200);
    const reopened = await visitor().get('/');
    expect(reopened.statusCode).toBe(200);
    expect(reopened.body).toContain('Bring the sound of water to your desk');
  });
});
