import { RouterContextProvider } from 'react-router';
import { describe, expect, test } from 'vitest';
import type { SessionUser } from '#common/contracts/accounts.ts';
import { createApiClient } from '#web/common/api-client.ts';
import { apiContext } from '#web/context.ts';
import { afterLogin } from './after-login.ts';
import { loginUrl, requireAdmin, requireSignedIn, signedOutOnly } from './guards.ts';

const shopper: SessionUser = {
  id: 'u1',
  username: 'mara',
  email: 'm@example.com',
  isAdmin: false,
  role: 'user',
  adminPermissions: {},
};
const admin: SessionUser = { ...shopper, id: 'a1', isAdmin: true, role: 'admin' };

/** A loader context whose API answers /api/auth/me for the given user (or a visitor). */
function contextFor(user: SessionUser | null) {
  const context = new RouterContextProvider();
  const api = createApiClient(async () => ({
    status: 200,
    statusText: 'OK',
    body: user ? { authenticated: true, user } : { authenticated: false },
  }));
  context.set(apiContext, api);
  return context;
}

/** The Location of the redirect a loader throws, or null when it lets the page render. */
async function redirectOf(run: () => Promise<unknown>): Promise<string | null> {
  try {
    await run();
    return null;
  } catch (thrown) {
    if (thrown instanceof Response) return thrown.headers.get('location');
    throw thrown;
  }
}

const page = (path: string) => new Request(`http://shop.example${path}`);

describe('guards', () => {
  test('signed-out-only pages send a signed-in user to the safe redirect target or the account', async () => {
    expect(await redirectOf(() => signedOutOnly(page('/login'), contextFor(null)))).toBeNull();
    expect(await redirectOf(() => signedOutOnly(page('/login'), contextFor(shopper)))).toBe('/account');
    expect(await redirectOf(() => signedOutOnly(page('/login?redirect=%2Fcart'), contextFor(shopper)))).toBe('/cart');
    expect(
      await redirectOf(() => signedOutOnly(page('/login?redirect=https%3A%2F%2Fevil.example'), contextFor(shopper))),
    ).toBe('/account');
  });

  test('protected pages send a visitor to sign in, remembering path and query', async () => {
    expect(await redirectOf(() => requireSignedIn(page('/account?tab=orders'), contextFor(null)))).toBe(
      '/login?redirect=%2Faccount%3Ftab%3Dorders',
    );
    expect(await requireSignedIn(page('/account'), contextFor(shopper))).toEqual(shopper);
  });

  test('the back office sends a visitor to sign in and a non-admin to the account', async () => {
    expect(await redirectOf(() => requireAdmin(page('/admin?tab=orders'), contextFor(null)))).toBe(
      '/login?redirect=%2Fadmin%3Ftab%3Dorders',
    );
    expect(await redirectOf(() => requireAdmin(page('/admin'), contextFor(shopper)))).toBe('/account');
    expect(await requireAdmin(page('/admin'), contextFor(admin))).toEqual(admin);
  });
});

test('after sign-in a safe target is honoured; anything else goes to the account', () => {
  expect(afterLogin('/products?category=fountains')).toBe('/products?category=fountains');
  expect(afterLogin(null)).toBe('/account');
  for (const unsafe of [
    'https://evil.example',
    '//evil.example',
    '/%2F%2Fevil.example',
    'javascript:alert(1)',
    '/login',
  ]) {
    expect(afterLogin(unsafe)).toBe('/account');
  }
});

test('the login URL remembers the path and query', () => {
  expect(loginUrl(new URL('http://shop/account?tab=orders'))).toBe('/login?redirect=%2Faccount%3Ftab%3Dorders');
});
