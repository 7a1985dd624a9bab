import { describe, expect, test } from 'vitest';
import type { AdminPermissions, UserRole } from '#common/contracts/accounts.ts';
import { adminPermissionNames } from '#common/contracts/accounts.ts';
import { type AdminAccess, deniedMessages, hasAccess } from '#common/permissions.ts';
import { REVIEW_ADMIN_ALIAS_PREFIX } from '#server/features/reviews/reviews.admin-routes.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { ADMIN_API_PREFIXES, PUBLIC_PATHS_UNDER_ADMIN_PREFIXES } from './admin-access.ts';

/**
 * The permission matrix (issue 11): every admin route, called by a visitor, a shopper, an admin
 * with no permission, an admin with each single permission and the owner, answers exactly as the
 * permission table says: 401, 403 with the table's sentence, or past the guard.
 */
const { app, database } = await buildTestApp();

/** Every admin route and the access the table gives it; the first test checks the list is whole. */
const adminRoutes: {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  access: AdminAccess;
  /** What to call when the route itself would not answer at once (the live stream stays open). */
  call?: string;
  /** The route's own denied sentence, when it has one (spec 6). */
  denied?: string;
  /** A route whose body is not JSON (the image upload): sent with this content type. */
  contentType?: string;
}[] = [
  { method: 'GET', url: '/api/admin/users', access: 'manageUsers' },
  { method: 'POST', url: '/api/admin/users/:id/reset-password', access: 'manageUsers' },
  { method: 'GET', url: '/api/admin/settings', access: 'owner' },
  { method: 'POST', url: '/api/admin/settings', access: 'owner' },
  { method: 'GET', url: '/api/admin/audit-log', access: 'owner' },
  { method: 'GET', url: '/api/admin/dashboard', access: 'admin' },
  { method: 'GET', url: '/api/admin/orders', access: 'downloadXlsx' },
  // Past the guard, a bad filter is refused at once instead of streaming the whole export.
  {
    method: 'GET',
    url: '/api/admin/orders/export',
    access: 'downloadXlsx',
    call: '/api/admin/orders/export?statusFilter=not-a-status',
  },
  // The newsletter tab (spec 6: manageNewsletters); past the guard, a bad filter is refused before any export.
  { method: 'GET', url: '/api/admin/newsletter', access: 'manageNewsletters' },
  {
    method: 'GET',
    url: '/api/admin/newsletter/export',
    access: 'manageNewsletters',
    call: '/api/admin/newsletter/export?statusFilter=not-a-status',
  },
  { method: 'PATCH', url: '/api/admin/newsletter/:id', access: 'manageNewsletters' },
  { method: 'DELETE', url: '/api/admin/newsletter/:id', access: 'manageNewsletters' },
  { method: 'POST', url: '/api/admin/newsletter/send', access: 'manageNewsletters' },
  { method: 'POST', url: '/api/admin/newsletter/preview', access: 'manageNewsletters' },
  { method: 'POST', url: '/api/admin/newsletter/test', access: 'manageNewsletters' },
  { method: 'GET', url: '/api/admin/newsletter/sends', access: 'manageNewsletters' },
  { method: 'GET', url: '/api/admin/newsletter/sends/:id', access: 'manageNewsletters' },
  // The reviews tab: every admin; its writes also at the spec's paths without /api.
  { method: 'GET', url: '/api/admin/reviews', access: 'admin' },
  { method: 'PATCH', url: '/api/admin/reviews/:id/approve', access: 'admin' },
  { method: 'PATCH', url: '/api/admin/reviews/:id/flag', access: 'admin' },
  { method: 'PATCH', url: '/api/admin/reviews/status', access: 'admin' },
  { method: 'DELETE', url: '/api/admin/reviews/:id', access: 'admin' },
  { method: 'PATCH', url: '/admin/reviews/:id/approve', access: 'admin' },
  { method: 'PATCH', url: '/admin/reviews/:id/flag', access: 'admin' },
  { method: 'PATCH', url: '/admin/reviews/status', access: 'admin' },
  { method: 'DELETE', url: '/admin/reviews/:id', access: 'admin' },
  // The products tab (spec 6: uploadProducts; delete has its own sentence).
  { method: 'GET', url: '/api/admin/products', access: 'uploadProducts' },
  { method: 'GET', url: '/api/admin/products/:id', access: 'uploadProducts' },
  { method: 'GET', url: '/api/admin/categories', access: 'uploadProducts' },
  { method: 'POST', url: '/api/admin/products', access: 'uploadProducts' },
  { method: 'PATCH', url: '/api/admin/products/:id', access: 'uploadProducts' },
  {
    method: 'DELETE',
    url: '/api/admin/products/:id',
    access: 'uploadProducts',
    denied: "You don't have permission to delete products.",
  },
  // The marketplace calls of the product modals (spec 7; uploadProducts). GET /api/aliexpress/refresh is public.
  { method: 'GET', url: '/api/aliexpress/product-info/:id', access: 'uploadProducts' },
  { method: 'GET', url: '/api/aliexpress/product-skus/:id', access: 'uploadProducts' },
  { method: 'POST', url: '/api/admin/fetch-aliexpress-images', access: 'uploadProducts' },
  { method: 'POST', url: '/api/admin/upload-aliexpress-image', access: 'uploadProducts' },
  // The AI Content Generator (spec 7; uploadProducts).
  { method: 'POST', url: '/api/aliexpress/ai-extract/:productId', access: 'uploadProducts' },
  { method: 'POST', url: '/api/aliexpress/ai-extract-by-ali/:aliId', access: 'uploadProducts' },
  // The image manager's upload (the file as the body) and rename.
  { method: 'POST', url: '/api/admin/product-images', access: 'uploadProducts', contentType: 'image/png' },
  { method: 'POST', url: '/api/admin/product-images/rename', access: 'uploadProducts' },
  // The sales tab (spec 6: sales → uploadProducts), at the spec's /api/sales.
  { method: 'GET', url: '/api/sales', access: 'uploadProducts' },
  { method: 'GET', url: '/api/sales/targets', access: 'uploadProducts' },
  { method: 'POST', url: '/api/sales', access: 'uploadProducts' },
  { method: 'PATCH', url: '/api/sales/:id', access: 'uploadProducts' },
  { method: 'PATCH', url: '/api/sales/:id/activate', access: 'uploadProducts' },
  { method: 'PATCH', url: '/api/sales/:id/deactivate', access: 'uploadProducts' },
  { method: 'DELETE', url: '/api/sales/:id', access: 'uploadProducts' },
  // The social shop tab (spec 6: tiktok-shop → uploadProducts). The OAuth callback and the webhook are public.
  { method: 'GET', url: '/api/tiktok-shop/auth-url', access: 'uploadProducts' },
  { method: 'GET', url: '/api/tiktok-shop/shops', access: 'uploadProducts' },
  { method: 'POST', url: '/api/tiktok-shop/resolve-shops', access: 'uploadProducts' },
  { method: 'POST', url: '/api/tiktok-shop/sync-products', access: 'uploadProducts' },
  { method: 'POST', url: '/api/tiktok-shop/sync-inventory', access: 'uploadProducts' },
  { method: 'GET', url: '/api/tiktok-shop/syncs', access: 'uploadProducts' },
  { method: 'GET', url: '/api/tiktok-shop/syncs/:syncId', access: 'uploadProducts' },
  { method: 'GET', url: '/api/tiktok-shop/category-mappings', access: 'uploadProducts' },
  { method: 'PUT', url: '/api/tiktok-shop/category-mappings', access: 'uploadProducts' },
  { method: 'POST', url: '/api/admin-setup/create-admin', access: 'owner' },
  { method: 'POST', url: '/api/admin-setup/remove-admin', access: 'owner' },
  { method: 'POST', url: '/api/admin-setup/update-permissions', access: 'owner' },
  // Past the guard, a bad resume id is refused at once instead of opening the stream.
  { method: 'GET', url: '/api/atlas/events', access: 'admin', call: '/api/atlas/events?lastEventId=not-an-id' },
];

type Browser = ReturnType<typeof testClient>;
let patches = 0;
/** A route's call with an empty body; testClient has no PATCH, so that one is made by hand like it. */
async function send(
  browser: Browser,
  method: (typeof adminRoutes)[number]['method'],
  url: string,
  contentType?: string,
) {
  if (method === 'GET') return browser.get(url);
  if (method === 'POST' && !contentType) return browser.post(url, {});
  if (method === 'DELETE') return browser.delete(url);
  const token = (await browser.get('/api/auth/csrf-token')).json().token as string;
  const cookie = ['sw_session', 'sw_csrf']
    .flatMap((name) => (browser.cookie(name) ? [`${name}=${browser.cookie(name)}`] : []))
    .join('; ');
  patches += 1;
  return app.inject({
    method,
    url,
    payload: contentType ? Buffer.from('not really an image') : {},
    // Each from its own address: the admin limit counts per address.
    remoteAddress: `10.77.${Math.floor(patches / 200) % 250}.${patches % 200}`,
    headers: { cookie, 'x-csrf-token': token, ...(contentType ? { 'content-type': contentType } : {}) },
  });
}

const callers: { name: string; role: UserRole; permissions: AdminPermissions }[] = [
  { name: 'a shopper', role: 'user', permissions: {} },
  { name: 'an admin without permissions', role: 'admin', permissions: {} },
  ...adminPermissionNames.map((permission) => ({
    name: `an admin with ${permission}`,
    role: 'admin' as const,
    permissions: { [permission]: true },
  })),
  { name: 'the owner', role: 'owner', permissions: {} },
];

describe('the permission matrix', () => {
  test('the list above holds every admin route the app serves', () => {
    const adminPrefixes = [...ADMIN_API_PREFIXES, REVIEW_ADMIN_ALIAS_PREFIX];
    // printRoutes draws a tree: a route nested under another shows only its own part of the path.
    const stack: string[] = [];
    const served = app
      .printRoutes({ commonPrefix: false })
      .split('\n')
      .flatMap((line) => {
        const match = line.match(/^([\s│├└─]*)(\S+)(?: \(([^)]+)\))?/);
        if (!match?.[2]) return [];
        const depth = Math.floor((match[1]?.length ?? 0) / 4);
        stack.length = depth;
        const url = `${stack.join('')}${match[2]}`;
        stack.push(match[2]);
        if (!match[3] || !adminPrefixes.some((prefix) => url.startsWith(prefix)) || url.endsWith('*')) return [];
        if (PUBLIC_PATHS_UNDER_ADMIN_PREFIXES.includes(url)) return [];
        return match[3]
          .split(', ')
          .filter((method) => method !== 'HEAD')
          .map((method) => `${method} ${url}`);
      });
    expect(served.sort()).toEqual(adminRoutes.map(({ method, url }) => `${method} ${url}`).sort());
  });

  test.each(adminRoutes)('$method $url: visitors get 401', async ({ method, url, call = url, contentType }) => {
    const visitor = testClient(app, { remoteAddress: '10.75.0.1' });
    const response = await send(visitor, method, call, contentType);
    expect(response.statusCode).toBe(401);
  });

  test.each(callers)('$name gets past the guard exactly where the table lets them', async ({ role, permissions }) => {
    const { browser } = await signedInAs(app, database.db, role, permissions);
    for (const { method, url, access, call = url, denied = deniedMessages[access], contentType } of adminRoutes) {
      const response = await send(browser, method, call, contentType);
      if (hasAccess({ role, isAdmin: role !== 'user', adminPermissions: permissions }, access)) {
        // Past the guard: the route's own answer (an empty body is refused by its schema).
        expect([401, 403], `${method} ${url}`).not.toContain(response.statusCode);
      } else {
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().error, `${method} ${url}`).toBe(denied);
      }
    }
  });
});
