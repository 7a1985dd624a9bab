import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import { defaultSettings } from '#common/contracts/settings.ts';
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
    expect(read.json()).toEqual(defaultSettings);

    const saved = await browser.post('/api/admin/settings', {
      siteName: 'Stillwater Calm',
      generalRateLimit: 1000,
      adminRateLimit: 500,
      allowRegistration: false,
      maxOrdersPerUser: defaultSettings.maxOrdersPerUser,
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      ...defaultSettings,
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
    expect(restored.json()).toEqual(defaultSettings);
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
