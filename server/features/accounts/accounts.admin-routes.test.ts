import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import type { AdminUser } from '#common/contracts/admin/users.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { storedEventsAbout } from '#server/features/events/stored-events.testing.ts';
import { settings } from '#server/features/settings/settings.tables.ts';
import { mailedToken } from '#server/testing/mail.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { users } from './accounts.tables.ts';

const { app, database, mailbox } = await buildTestApp();
const { db } = database;
let counter = 0;
const address = () => `10.70.${Math.floor(++counter / 200)}.${counter % 200}`;
const unique = () => `${Date.now().toString(36)}${(++counter).toString(36)}`;

const signedIn = (role?: UserRole, permissions?: AdminPermissions, name?: string) =>
  signedInAs(app, db, role, permissions, name);

describe('GET /api/admin/users', () => {
  test('visitors get 401; users and admins without manageUsers get 403 with the sentence; manageUsers and the owner get the list', async () => {
    const visitor = testClient(app, { remoteAddress: address() });
    expect((await visitor.get('/api/admin/users')).statusCode).toBe(401);
    const denied = "You don't have permission to manage users.";
    for (const [role, permissions] of [
      ['user', { manageUsers: true }],
      ['admin', {}],
      ['admin', { uploadProducts: true, downloadXlsx: true, manageNewsletters: true, manageUsers: false }],
    ] as const) {
      const { browser } = await signedIn(role, permissions);
      const response = await browser.get('/api/admin/users');
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: denied, code: 'forbidden' });
    }
    for (const [role, permissions] of [
      ['admin', { manageUsers: true }],
      ['owner', {}],
    ] as const) {
      const { browser } = await signedIn(role, permissions);
      expect((await browser.get('/api/admin/users')).statusCode).toBe(200);
    }
  });

  test('a demoted admin loses the access at once, in the same session', async () => {
    const { browser, id } = await signedIn('admin', { manageUsers: true });
    expect((await browser.get('/api/admin/users')).statusCode).toBe(200);
    await db.update(users).set({ adminPermissions: {} }).where(eq(users.id, id));
    expect((await browser.get('/api/admin/users')).statusCode).toBe(403);
    await db
      .update(users)
      .set({ role: 'user', adminPermissions: { manageUsers: true } })
      .where(eq(users.id, id));
    expect((await browser.get('/api/admin/users')).statusCode).toBe(403);
  });

  test('ten a page by default, newest first, with the pagination', async () => {
    const { browser } = await signedIn('owner');
    const response = await browser.get('/api/admin/users');
    const body = response.json();
    expect(body.users).toHaveLength(10);
    const total = await db.$count(users);
    expect(body.pagination).toEqual({ page: 1, pages: Math.ceil(total / 10), total, limit: 10 });
    const times = body.users.map((user: { createdAt: string }) => user.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(body.users[0]).not.toHaveProperty('passwordHash');
  });

  test('search finds a name or an email, ignoring case, with % and _ taken literally', async () => {
    const tag = unique();
    const { browser } = await signedIn('owner');
    const { account } = await signedIn('user', {}, `Findme_${tag}`);
    await signedIn('user', {}, `findmeX${tag}`);
    const byName = (await browser.get(`/api/admin/users?search=FINDME_${tag}`)).json();
    expect(byName.users.map((user: { email: string }) => user.email)).toEqual([account.email]);
    const byEmail = (await browser.get(`/api/admin/users?search=${encodeURIComponent(account.email)}`)).json();
    expect(byEmail.pagination.total).toBe(1);
    expect((await browser.get('/api/admin/users?search=%25')).json().pagination.total).toBe(0);
  });

  test('sorts by username, email or creation time, either way; each page follows the last', async () => {
    const { browser } = await signedIn('owner');
    const names = async (query: string) =>
      (await browser.get(`/api/admin/users?${query}`)).json().users.map((user: { username: string }) => user.username);
    const ascending = await names('sortBy=username&sortOrder=asc&limit=100');
    // By code point, case aside: the same on every database.
    const byCodePoint = (a: string, b: string) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1);
    expect(ascending).toEqual([...ascending].sort(byCodePoint));
    const descending = await names('sortBy=username&sortOrder=desc&limit=100');
    expect(descending).toEqual([...descending].sort(byCodePoint).reverse());
    const oldest = (await browser.get('/api/admin/users?sortBy=createdAt&sortOrder=asc&limit=100')).json().users;
    const times = oldest.map((user: { createdAt: string }) => user.createdAt);
    expect(times).toEqual([...times].sort());
    const first = await names('sortBy=email&sortOrder=asc&page=1&limit=3');
    const second = await names('sortBy=email&sortOrder=asc&page=2&limit=3');
    expect(await names('sortBy=email&sortOrder=asc&page=1&limit=6')).toEqual([...first, ...second]);
  });

  test.each([
    ['page=0', 'page'],
    ['page=abc', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['sortBy=passwordHash', 'sortBy'],
    ['sortOrder=sideways', 'sortOrder'],
    [`search=${'a'.repeat(101)}`, 'search'],
    ['search=a%00b', 'search'],
  ])('bad input (%s) is refused with 400 naming %s', async (query, field) => {
    const { browser } = await signedIn('owner');
    const response = await browser.get(`/api/admin/users?${query}`);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field });
  });

  test('an unknown admin path is 401 for visitors and 404 for admins', async () => {
    expect((await testClient(app, { remoteAddress: address() }).get('/api/admin/nothing-here')).statusCode).toBe(401);
    const { browser } = await signedIn('admin');
    expect((await browser.get('/api/admin/nothing-here')).statusCode).toBe(404);
  });
});

test('the admin API is counted by the admin limit, not the general one', async () => {
  const limited = await createTestDatabase();
  await limited.db.insert(settings).values([
    { key: 'adminRateLimit', value: 3 },
    { key: 'generalRateLimit', value: 1000 },
  ]);
  const { app: strict } = await buildTestApp({ database: limited });
  const browser = testClient(strict, { remoteAddress: '10.71.0.1' });
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await browser.get('/api/admin/users')).statusCode);
  expect(statuses).toEqual([401, 401, 401, 429]);
  // Other calls of the same client go on under the general limit.
  expect((await browser.get('/api/categories')).statusCode).toBe(200);
});

describe('admin management (owner only)', () => {
  const routes = [
    ['/api/admin-setup/create-admin', { permissions: { manageUsers: true } }],
    ['/api/admin-setup/remove-admin', {}],
    ['/api/admin-setup/update-permissions', { permissions: {} }],
  ] as const;

  test('visitors get 401; users and admins, even with every permission, get 403 with the owner sentence', async () => {
    const { id: target } = await signedIn('user');
    for (const [path, body] of routes) {
      const visitor = testClient(app, { remoteAddress: address() });
      expect((await visitor.post(path, { userId: target, ...body })).statusCode).toBe(401);
      for (const [role, permissions] of [
        ['user', {}],
        ['admin', { uploadProducts: true, downloadXlsx: true, manageUsers: true, manageNewsletters: true }],
      ] as const) {
        const { browser } = await signedIn(role, permissions);
        const response = await browser.post(path, { userId: target, ...body });
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toBe('Only the owner can access admin management features.');
      }
    }
    const [row] = await db.select().from(users).where(eq(users.id, target));
    expect(row?.role).toBe('user');
  });

  test('the owner promotes, edits and removes an admin; each change is audited with before and after, and takes effect at once', async () => {
    const { browser: owner, id: ownerId } = await signedIn('owner');
    const { browser: member, id } = await signedIn('user');
    expect((await member.get('/api/admin/users')).statusCode).toBe(403);

    const promoted = await owner.post('/api/admin-setup/create-admin', {
      userId: id,
      permissions: { manageUsers: true },
    });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({
      message: 'User promoted to admin successfully',
      user: { id, role: 'admin', isAdmin: true, adminPermissions: { manageUsers: true } },
    });
    expect((await member.get('/api/admin/users')).statusCode).toBe(200);

    const updated = await owner.post('/api/admin-setup/update-permissions', {
      userId: id,
      permissions: { manageUsers: false, downloadXlsx: true },
    });
    expect(updated.json()).toMatchObject({ message: 'Permissions updated successfully' });
    expect((await member.get('/api/admin/users')).statusCode).toBe(403);

    const removed = await owner.post('/api/admin-setup/remove-admin', { userId: id });
    expect(removed.json()).toMatchObject({
      message: 'Admin privileges removed successfully',
      user: { role: 'user', isAdmin: false, adminPermissions: {} },
    });

    const audited = await db.select().from(auditLog).where(eq(auditLog.entityId, id)).orderBy(auditLog.id);
    expect(audited.map((row) => [row.action, row.actorUserId, row.entityType])).toEqual([
      ['user.promoted', ownerId, 'user'],
      ['user.permissions_updated', ownerId, 'user'],
      ['user.demoted', ownerId, 'user'],
    ]);
    expect(audited[0]?.details).toEqual({
      before: { role: 'user', adminPermissions: {} },
      after: { role: 'admin', adminPermissions: { manageUsers: true } },
    });
    expect(audited[0]?.ip).toMatch(/^10\.73\./);
    // Each change is a user_updated live event (the registration before them a user_registered).
    const heard = await storedEventsAbout<{ user: AdminUser }>(db, id, 4);
    expect(heard.map((event) => [event.type, event.data.user.role, event.data.user.adminPermissions])).toEqual([
      ['user_registered', 'user', {}],
      ['user_updated', 'admin', { manageUsers: true }],
      ['user_updated', 'admin', { manageUsers: false, downloadXlsx: true }],
      ['user_updated', 'user', {}],
    ]);
  });

  test('the owner cannot be modified, owner is no grantable permission, and a plain user has no permissions to update', async () => {
    const { browser: owner } = await signedIn('owner');
    const { id: otherOwner } = await signedIn('owner');
    for (const [path, body] of routes) {
      const response = await owner.post(path, { userId: otherOwner, ...body });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ error: 'Cannot modify owner permissions', code: 'owner_protected' });
    }
    const { id } = await signedIn('user');
    const reserved = await owner.post('/api/admin-setup/create-admin', { userId: id, permissions: { owner: true } });
    expect(reserved.statusCode).toBe(400);
    expect(reserved.json()).toMatchObject({ code: 'invalid_input', field: 'permissions' });
    expect((await owner.post('/api/admin-setup/update-permissions', { userId: id, permissions: {} })).statusCode).toBe(
      409,
    );
    const [row] = await db.select().from(users).where(eq(users.id, id));
    expect(row?.role).toBe('user');
    expect(await db.select().from(auditLog).where(eq(auditLog.entityId, id))).toEqual([]);
  });

  test.each([
    [{}, 'userId'],
    [{ userId: '' }, 'userId'],
    [{ userId: 'x'.repeat(65) }, 'userId'],
    [{ userId: 'someone', permissions: { manageUsers: 'yes' } }, 'permissions'],
    [{ userId: 'someone', permissions: [] }, 'permissions'],
  ])('bad input %j is refused with 400 naming %s', async (body, field) => {
    const { browser: owner } = await signedIn('owner');
    const response = await owner.post('/api/admin-setup/create-admin', body);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field: expect.stringContaining(field) });
  });

  test('an unknown user is 404 and changes nothing', async () => {
    const { browser: owner } = await signedIn('owner');
    const response = await owner.post('/api/admin-setup/remove-admin', { userId: 'no-such-user' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'User not found', code: 'not_found' });
  });
});

describe('POST /api/admin/users/:id/reset-password', () => {
  test("mails the user a working reset link, audited; limited like the shopper's own requests", async () => {
    const { browser, id: adminId } = await signedIn('admin', { manageUsers: true });
    const {
      id,
      account: { email },
    } = await signedIn('user');
    const response = await browser.post(`/api/admin/users/${id}/reset-password`);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ message: `A password reset email was sent to ${email}` });
    const token = mailedToken(mailbox, email, 'password-reset');
    const visitor = testClient(app, { remoteAddress: address() });
    expect((await visitor.get(`/api/password-reset/verify/${token}`)).json()).toEqual({ email });
    const [entry] = await db.select().from(auditLog).where(eq(auditLog.entityId, id));
    expect(entry).toMatchObject({ actorUserId: adminId, action: 'user.password_reset_sent', entityType: 'user' });
    expect(JSON.stringify(entry)).not.toContain(token);
    // Three a hour per account, as for the shopper's own requests.
    expect((await browser.post(`/api/admin/users/${id}/reset-password`)).statusCode).toBe(200);
    expect((await browser.post(`/api/admin/users/${id}/reset-password`)).statusCode).toBe(200);
    const limited = await browser.post(`/api/admin/users/${id}/reset-password`);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('too_many_attempts');
  });

  test('an unknown user is 404 and nothing is mailed; a visitor 401; an admin without manageUsers 403', async () => {
    const { browser } = await signedIn('owner');
    const before = mailbox.length;
    const unknown = await browser.post('/api/admin/users/0123456789abcdef/reset-password');
    expect(unknown.statusCode).toBe(404);
    expect(mailbox.length).toBe(before);
    const visitor = testClient(app, { remoteAddress: address() });
    expect((await visitor.post('/api/admin/users/0123456789abcdef/reset-password')).statusCode).toBe(401);
    const { browser: other } = await signedIn('admin', { uploadProducts: true });
    const denied = await other.post('/api/admin/users/0123456789abcdef/reset-password');
    expect(denied.statusCode).toBe(403);
    expect(denied.json().error).toBe("You don't have permission to manage users.");
  });
});
