import { expect, type Page, test } from '@playwright/test';
import { SEARCH_TERM_MAX } from '../common/constants.ts';
import { expectAccessible } from './a11y.ts';
import { register, signIn } from './shopper.ts';

/**
 * Every error the page throws or logs (hydration mismatches included). A document this test
 * expects to answer 4xx logs its status as a failed load: pass those statuses as `expected`.
 */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return {
    expectNone(expected: number[] = []) {
      const unexpected = errors.filter(
        (text) => !expected.some((status) => text.includes(`the server responded with a status of ${status}`)),
      );
      expect(unexpected).toEqual([]);
    },
  };
}

async function search(page: Page, term: string) {
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await box.fill(term);
  await box.press('Enter');
}

test('the search box stops at the API’s limit', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await expectAccessible(page);
  const box = page.getByRole('searchbox', { name: 'Search products' });
  await expect(box).toHaveAttribute('maxlength', String(SEARCH_TERM_MAX));
  await box.click();
  await page.keyboard.insertText('a'.repeat(SEARCH_TERM_MAX + 20));
  await expect(box).toHaveValue('a'.repeat(SEARCH_TERM_MAX));
  await box.press('Enter');
  await expect(page).toHaveURL(new RegExp(`/products\\?search=a{${SEARCH_TERM_MAX}}$`));
  await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
  await expectAccessible(page);
  errors.expectNone();
});

test('`.` and `..` are searched like any term, not dropped from the API’s address', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/products');
  await expectAccessible(page);
  for (const term of ['.', '..']) {
    await search(page, term);
    await expect(page).toHaveURL(new RegExp(`/products\\?search=${term.replaceAll('.', '\\.')}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Results for “${term}”`);
    await expect(page.getByTestId('result-count')).toHaveText(`0 product(s) found for ${term}`);
    await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
    await expect(page.locator('article')).toHaveCount(0);
    await expectAccessible(page);
  }
  // A real search still finds, through the same client-side navigation.
  await search(page, 'fountain');
  await expect(
    page.getByRole('link', { name: 'Desktop Waterfall Fountain with LED Lighting', exact: true }),
  ).toBeVisible();
  await expectAccessible(page);
  errors.expectNone();
});

test('addresses the API refuses show the empty or not-found state, and the shop goes on from there', async ({
  page,
}) => {
  const errors = watchErrors(page);
  const tooLong = await page.goto(`/products?search=${'a'.repeat(SEARCH_TERM_MAX + 1)}`);
  expect(tooLong?.status()).toBe(400);
  await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Failed to fetch products' })).toHaveCount(0);
  await expectAccessible(page);
  // The page is live: its link leads on by a client-side navigation (a .data request).
  await page.getByRole('main').getByRole('link', { name: 'All Products' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(page.locator('article')).toHaveCount(26);
  await expectAccessible(page);

  const badCategory = await page.goto('/products?category=%00');
  expect(badCategory?.status()).toBe(400);
  await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
  await expectAccessible(page);

  const blankSlug = await page.goto('/product/%20');
  expect(blankSlug?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Product Not Found' })).toBeVisible();
  await expectAccessible(page);
  errors.expectNone([400, 404]);
});

test('a non-ASCII redirect target after sign-in is followed, percent-encoded', async ({ page }) => {
  const errors = watchErrors(page);
  const account = await register(page);
  await expectAccessible(page);
  const target = `/login?redirect=${encodeURIComponent('/products?search=日本')}`;
  // Signed in: the server sends the visitor on.
  const response = await page.goto(target);
  expect(response?.status()).toBe(200);
  await expect(page).toHaveURL(/\/products\?search=%E6%97%A5%E6%9C%AC$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “日本”');
  await expectAccessible(page);

  // Signed out: the sign-in form sends the visitor on.
  await page.goto('/logout');
  await expectAccessible(page);
  await page.goto(target);
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  await expectAccessible(page);
  await signIn(page, account);
  await expect(page).toHaveURL(/\/products\?search=%E6%97%A5%E6%9C%AC$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “日本”');
  await expectAccessible(page);
  errors.expectNone();
});

test('visiting /logout ends the session', async ({ page }) => {
  const errors = watchErrors(page);
  await register(page);
  await expect(page.getByRole('heading', { name: 'My account' })).toBeVisible();
  await expectAccessible(page);
  await page.goto('/logout');
  await expect(page.getByRole('heading', { name: "You've been logged out" })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
  await expectAccessible(page);
  const cookies = await page.context().cookies();
  expect(cookies.find((cookie) => cookie.name === 'sw_session')).toBeUndefined();
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login\?redirect=%2Faccount$/);
  await expectAccessible(page);
  errors.expectNone();
});

test('pages of a signed-in visitor are not cached, client-side navigations included', async ({ page }) => {
  const errors = watchErrors(page);
  // Signed out, the listing is the same for everyone: any cache may keep it, keyed by the cookies.
  const visitor = await page.goto('/products');
  expect(visitor?.headers()['cache-control']).toBe('public, max-age=0, s-maxage=60, stale-while-revalidate=30');
  expect(visitor?.headers().vary).toContain('Cookie');
  await expectAccessible(page);
  await register(page);
  const account = await page.goto('/account');
  expect(account?.headers()['cache-control']).toBe('private, no-store');
  // Signed in, the same listing is the visitor's own: not the signed-out copy, and kept by no cache.
  const listing = await page.goto('/products');
  expect(listing?.status()).toBe(200);
  expect(listing?.headers()['cache-control']).toBe('private, no-store');
  await page.goto('/account');
  await expectAccessible(page);
  const data = page.waitForResponse((response) => new URL(response.url()).pathname === '/products.data');
  await page.getByRole('navigation', { name: 'Categories' }).getByRole('link', { name: 'All Products' }).click();
  expect((await data).headers()['cache-control']).toBe('private, no-store');
  await expect(page.locator('article')).toHaveCount(26);
  await expectAccessible(page);
  errors.expectNone();
});

test("the API docs' page and its files, as the bundled server serves them", async ({ request }) => {
  // Swagger UI is bundled with the server, its files read from its folder in node_modules.
  const docs = await request.get('/api/docs/');
  expect(docs.status()).toBe(200);
  expect(docs.headers()['content-security-policy']).toContain("script-src 'self'");
  const html = await docs.text();
  expect(html).toContain('./static/swagger-ui-bundle.js');
  const script = await request.get('/api/docs/static/swagger-ui-bundle.js');
  expect(script.status()).toBe(200);
  expect(script.headers()['content-type']).toContain('javascript');
  expect((await script.body()).length).toBeGreaterThan(100_000);
  const logo = await request.get('/api/docs/static/logo.svg');
  expect(logo.status()).toBe(200);
  expect(await logo.text()).toContain('<svg');
  const spec = await request.get('/api/docs/json');
  expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\./);
  expect((await request.get('/api/docs/static/no-such-file.js')).status()).toBe(404);
});
