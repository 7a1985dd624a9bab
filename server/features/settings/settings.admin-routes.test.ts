import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import { defaultAdminSettings, defaultSettings } from '#common/contracts/settings.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';

// Each test file has its own database: these saves change no other file's shop.
const { app, database } = await buildTestApp();
const { db } = database;
let counter = 0;
const address = () => `10.72.${Math.floor(++counter / 200)}.${counter % 200}`;

const signedIn = (role: UserRole, permissions: AdminPermissions = {}) => signedInAs(app, db, role, permissions);

describe('GET and POST /api/admin/settings', () => {
  test('the owner’s alone: 401 for visitors, 403 with the owner sentence for users and admins', async () => {
    const visitor = testClient(app, { remoteAddress: address() });
    expect((await visitor.get('/api/admin/settings')).statusCode).toBe(401);
    expect((await visitor.post('/api/admin/settings', { siteName: 'Mine' })).statusCode).toBe(401);
    for (const [role, permissions] of [
      ['user', {}],
      ['admin', { uploadProducts: true, downloadXlsx: true, manageUsers: true, manageNewsletters: true }],
    ] as const) {
      const { browser } = await signedIn(role, permissions);
      for (const response of [
        await browser.get('/api/admin/settings'),
        await browser.post('/api/admin/settings', { siteName: 'Mine' }),
      ]) {
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toBe('Only the owner can access admin management features.');
      }
    }
  });

  test('every setting with its default; a save answers the saved settings, takes effect at once and is audited', async () => {
    const { browser, id } = await signedIn('owner');
    const read = await browser.get('/api/admin/settings');
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(defaultAdminSettings);
    expect(read.headers['cache-control']).toBe('no-store');

    const saved = await browser.post('/api/admin/settings', {
      siteName: 'Stillwater Calm',
      generalRateLimit: 1000,
      adminRateLimit: 500,
      allowRegistration: false,
      maxOrdersPerUser: defaultSettings.maxOrdersPerUser,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      ...defaultAdminSettings,
      siteName: 'Stillwater Calm',
      generalRateLimit: 1000,
      adminRateLimit: 500,
      allowRegistration: false,
    });
    const register = await testClient(app, { remoteAddress: address() }).post('/api/auth/register', {
      username: `calm_closed${counter}`,
      email: `closed.${counter}@example.com`,
      password: 'Quiet-Water-42',
    });
    expect(register.statusCode).toBe(403);

    // Only what changed is recorded, before and after, with who and from where.
    const [record] = await db.select().from(auditLog).where(eq(auditLog.actorUserId, id));
    expect(record).toMatchObject({
      action: 'settings.updated',
      entityType: 'settings',
      details: {
        before: {
          siteName: defaultSettings.siteName,
          generalRateLimit: 100,
          adminRateLimit: 50,
          allowRegistration: true,
        },
        after: { siteName: 'Stillwater Calm', generalRateLimit: 1000, adminRateLimit: 500, allowRegistration: false },
      },
    });
    expect(record?.ip).toMatch(/^10\.73\./);

    // Back to the defaults, for the tests after this one.
    const restored = await browser.post('/api/admin/settings', defaultSettings);
    expect(restored.json()).toEqual(defaultAdminSettings);
  });

  test.each([
    [{ generalRateLimit: 0 }, 'generalRateLimit'],
    [{ generalRateLimit: 1001 }, 'generalRateLimit'],
    [{ adminRateLimit: 501 }, 'adminRateLimit'],
    [{ strictRateLimit: 101 }, 'strictRateLimit'],
    [{ strictRateLimit: 2.5 }, 'strictRateLimit'],
    [{ maxOrdersPerUser: '10' }, 'maxOrdersPerUser'],
    [{ contactEmail: 'not an email' }, 'contactEmail'],
    [{ siteName: '   ' }, 'siteName'],
    [{ socialUrl: 'http://example.com' }, 'socialUrl'],
    [{ maintenanceMode: 'yes' }, 'maintenanceMode'],
    [{ ownerEmail: 'x@example.com' }, ''],
    [{ stripeSecretKey: 'pk_test_51NotASecretKeyAtAll' }, 'stripeSecretKey'],
    [{ stripeSecretKey: 'sk_test_short' }, 'stripeSecretKey'],
    [{ stripeSecretKey: 12345 }, 'stripeSecretKey'],
    [{ stripePublishableKey: 'sk_test_51ThisIsTheSecretOne' }, 'stripePublishableKey'],
    [{ aiApiKey: 'has spaces in the middle of it' }, 'aiApiKey'],
    [{ aiApiKey: 'tooshort' }, 'aiApiKey'],
    [{ aiApiKey: 'x'.repeat(301) }, 'aiApiKey'],
    [{ aliexpressApiKey: '12345' }, 'aliexpressApiKey'],
    [{ aliexpressApiKey: 'ключ-с-буквами' }, 'aliexpressApiKey'],
    [{ stripeSecretKey: 'sk_test_51OnlyTheSecretKeyNoPublicOne' }, 'stripePublishableKey'],
  ])('a bad value (%j) is refused with 400 and nothing is saved', async (body, field) => {
    const { browser } = await signedIn('owner');
    const before = (await browser.get('/api/admin/settings')).json();
    const response = await browser.post('/api/admin/settings', { siteName: 'Changed Along', ...body });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input' });
    if (field) expect(response.json().field).toBe(field);
    expect((await browser.get('/api/admin/settings')).json()).toEqual(before);
  });
});

describe('the secret fields', () => {
  const keys = {
    stripeSecretKey: 'sk_test_51RoutesTestSecretKey0123abcd',
    stripePublishableKey: 'pk_test_51RoutesTestPublishableKey',
    aliexpressApiKey: 'ae-app-key-routes-test-wxyz',
    aiApiKey: 'sk-proj-routes-test-ai-key-9876',
  };
  const secrets = [keys.stripeSecretKey, keys.aliexpressApiKey, keys.aiApiKey];

  test('saved, never answered in full (masked to the last 4), the mask sent back keeps them, the audit masks them', async () => {
    const { browser, id } = await signedIn('owner');
    const saved = await browser.post('/api/admin/settings', keys);
    expect(saved.statusCode).toBe(200);
    const masked = {
      ...defaultAdminSettings,
      stripePublishableKey: keys.stripePublishableKey,
      stripeSecretKey: '••••abcd',
      aliexpressApiKey: '••••wxyz',
      aiApiKey: '••••9876',
    };
    expect(saved.json()).toEqual(masked);
    const read = await browser.get('/api/admin/settings');
    expect(read.json()).toEqual(masked);
    for (const response of [saved, read]) {
      for (const secret of secrets) expect(response.body).not.toContain(secret);
    }

    // The whole form sent back as it was read changes nothing and records nothing.
    const records = async () => db.select().from(auditLog).where(eq(auditLog.actorUserId, id));
    expect(await records()).toHaveLength(1);
    const unchanged = await browser.post('/api/admin/settings', read.json());
    expect(unchanged.json()).toEqual(masked);
    expect(await records()).toHaveLength(1);
    const [record] = await records();
    for (const secret of secrets) expect(JSON.stringify(record)).not.toContain(secret);
    expect(record?.details).toMatchObject({ after: { stripeSecretKey: '••••abcd', aiApiKey: '••••9876' } });

    // The storefront's settings hold no key, not even the public one (the checkout gets that itself).
    const publicSettings = await testClient(app, { remoteAddress: address() }).get('/api/settings/public');
    for (const value of [...secrets, keys.stripePublishableKey, '••••'])
      expect(publicSettings.body).not.toContain(value);
    expect(Object.keys(publicSettings.json())).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/key|secret/i)]),
    );

    const cleared = await browser.post('/api/admin/settings', {
      stripeSecretKey: null,
      stripePublishableKey: null,
      aliexpressApiKey: '',
      aiApiKey: '',
    });
    expect(cleared.json()).toEqual(defaultAdminSettings);
  });
});
