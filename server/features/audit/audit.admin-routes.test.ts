import { describe, expect, test } from 'vitest';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';

const { app, database } = await buildTestApp();
const { db } = database;

describe('GET /api/admin/audit-log', () => {
  test('the owner’s alone: 401 for visitors, 403 with the owner sentence for admins', async () => {
    expect((await testClient(app, { remoteAddress: '10.74.0.1' }).get('/api/admin/audit-log')).statusCode).toBe(401);
    const { browser } = await signedInAs(app, db, 'admin', { manageUsers: true, uploadProducts: true });
    const response = await browser.get('/api/admin/audit-log');
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('Only the owner can access admin management features.');
  });

  test('the owner reads the admin writes, newest first, with who did them and the change', async () => {
    const { browser: owner, id: ownerId, account } = await signedInAs(app, db, 'owner');
    const { id } = await signedInAs(app, db, 'user');
    await owner.post('/api/admin-setup/create-admin', { userId: id, permissions: { manageNewsletters: true } });
    await owner.post('/api/admin/settings', { siteDescription: 'Calm things for home and desk, from the audit test' });

    const page = (await owner.get('/api/admin/audit-log?limit=2')).json();
    expect(page.pagination).toMatchObject({ page: 1, limit: 2 });
    expect(page.pagination.total).toBeGreaterThanOrEqual(2);
    const [settings, promotion] = page.entries;
    expect(settings).toMatchObject({
      actor: { id: ownerId, username: account.username },
      action: 'settings.updated',
      entityType: 'settings',
      details: { after: { siteDescription: 'Calm things for home and desk, from the audit test' } },
    });
    expect(promotion).toMatchObject({
      action: 'user.promoted',
      entityType: 'user',
      entityId: id,
      details: { after: { role: 'admin', adminPermissions: { manageNewsletters: true } } },
    });
    expect(promotion.ip).toMatch(/^10\.73\./);
    expect(Date.parse(settings.createdAt)).toBeGreaterThanOrEqual(Date.parse(promotion.createdAt));
  });

  test.each(['page=0', 'limit=101', 'limit=ten'])('bad input (%s) is refused with 400', async (query) => {
    const { browser: owner } = await signedInAs(app, db, 'owner');
    const response = await owner.get(`/api/admin/audit-log?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input' });
  });

  test('an admin’s sign-in is recorded, a shopper’s is not', async () => {
    const { browser: owner } = await signedInAs(app, db, 'owner');
    const { account: adminAccount, id: adminId } = await signedInAs(app, db, 'admin');
    const { account: shopperAccount, id: shopperId } = await signedInAs(app, db, 'user');
    for (const account of [adminAccount, shopperAccount]) {
      const signIn = await testClient(app, { remoteAddress: '10.74.0.9' }).post('/api/auth/login', {
        email: account.email,
        password: account.password,
      });
      expect(signIn.statusCode).toBe(200);
    }
    const { entries } = (await owner.get('/api/admin/audit-log?limit=100')).json();
    const signIns = entries.filter((entry: { action: string }) => entry.action === 'admin.signed_in');
    expect(signIns.map((entry: { entityId: string }) => entry.entityId)).toContain(adminId);
    expect(signIns.map((entry: { entityId: string }) => entry.entityId)).not.toContain(shopperId);
    expect(signIns.find((entry: { entityId: string }) => entry.entityId === adminId)).toMatchObject({
      actor: { id: adminId, username: adminAccount.username },
      ip: '10.74.0.9',
    });
  });
});
