import { expect, type Page, test } from '@playwright/test';
import { seedCategories } from '../seed/categories.ts';

/** Fails the test on any error the page logs or throws (hydration mismatches included). */
function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return errors;
}

test('the home page shows the shop inside its layout', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await expect(page).toHaveTitle('Stillwater · Calming home and desk goods');
  await expect(page.getByRole('heading', { name: 'Bring the sound of water to your desk' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Natural materials' })).toBeVisible();
  await expect(page.getByText('Free US shipping on orders over $50')).toBeVisible();
  const nav = page.getByRole('navigation', { name: 'Categories' });
  await expect(nav.getByRole('link')).toHaveText(['Home', 'All Products', ...seedCategories.map((c) => c.name)]);
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('contentinfo')).toContainText('© 2025 Stillwater');
  expect(errors).toEqual([]);
});

test('the production build silences the browser console', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (message) => messages.push(message.text()));
  await page.goto('/');
  // The client entry replaces the console's functions before hydrating.
  await page.waitForFunction(() => !console.log.toString().includes('[native code]'));
  await page.evaluate(() => {
    console.log('visible?');
    console.error('visible?');
  });
  expect(messages).not.toContain('visible?');
});

test('the category navigation opens each category', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Categories' });
  await nav.getByRole('link', { name: 'Fountains' }).click();
  await expect(page).toHaveURL(/\/products\?category=fountains$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Fountains' })).toBeVisible();
  await expect(
    page.getByRole('link', { name: 'Desktop Waterfall Fountain with LED Lighting', exact: true }),
  ).toBeVisible();
  await expect(nav.getByRole('link', { name: 'Fountains' })).toHaveAttribute('aria-current', 'page');

  await nav.getByRole('link', { name: 'Lighting' }).click();
  await expect(page).toHaveURL(/category=lighting$/);
  await expect(page.getByRole('link', { name: '3D Moon Lamp with Touch Dimmer', exact: true })).toBeVisible();
  await expect(
    page.getByRole('link', { name: 'Desktop Waterfall Fountain with LED Lighting', exact: true }),
  ).toHaveCount(0);

  await nav.getByRole('link', { name: 'All Products' }).click();
  await expect(page).toHaveURL(/\/products$/);
  await expect(page.getByTestId('result-count')).toHaveText(/^26 product\(s\) found/);
  expect(errors).toEqual([]);
});

test('the search box finds products despite a typo, and ignores an empty term', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/returns');
  const search = page.getByRole('searchbox', { name: 'Search products' });
  await search.fill('   ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/returns$/);

  await search.fill('  led fountan ');
  await search.press('Enter');
  await expect(page).toHaveURL(/\/products\?search=led%20fountan$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Results for “led fountan”');
  await expect(
    page.getByRole('link', { name: 'Desktop Waterfall Fountain with LED Lighting', exact: true }),
  ).toBeVisible();
  await expect(page.getByTestId('result-count')).toContainText('for led fountan');

  await search.fill('xylophone');
  await search.press('Enter');
  await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('the returns page, reached from the footer, states the policy', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Returns & Exchanges' }).click();
  await expect(page).toHaveURL(/\/returns$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Returns and Exchanges' })).toBeVisible();
  const body = page.locator('article');
  await expect(body).toContainText('30 days from delivery');
  await expect(body).toContainText('within 14 days of receiving the label');
  await expect(body).toContainText('refund within 5 business days of inspection');
  await expect(body).toContainText('Gift cards and downloads are non-returnable.');
  await expect(body).toContainText('Shipping is refunded if the return is due to an error or defect');
  // The page scrolls to the top on a path change.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  expect(errors).toEqual([]);
});

test('the static pages and the not-found page', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  for (const path of ['/conditions', '/terms-and-conditions']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1, name: 'Terms and Conditions' })).toBeVisible();
  }
  await page.goto('/logout');
  await expect(page.getByRole('heading', { name: "You've been logged out" })).toBeVisible();
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
});
