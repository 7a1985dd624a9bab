import { expect, test } from 'vitest';
import { afterLogin } from './after-login.ts';
import { loginUrl } from './guards.ts';

test('after sign-in a safe target is honoured; anything else goes to the account', () => {
  expect(afterLogin('/products?category=fountains')).toBe('/products?category=fountains');
  expect(afterLogin('/account')).toBe('/account');
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
