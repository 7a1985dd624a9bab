import { type APIRequestContext, expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { owner } from './admin.ts';
import { csrfToken } from './reviews.ts';

/** A product no other browser test prices: the sale touches it alone, and is deleted afterwards. */
const SLUG = 'river-stone-bookends';
const TITLE = 'River Stone Bookends';

async function signInOwner(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: owner,
    headers: { 'x-csrf-token': await csrfToken(request) },
  });
  expect(login.status(), await login.text()).toBe(200);
}

test('an automatic sale shows its price and badge on the listing and the product page, and the cart charges it', async ({
  page,
  request,
}) => {
  const product = (await (await request.get(`/api/products/${SLUG}`)).json()) as {
    id: string;
    price: number;
    salePrice: number | null;
  };
  expect(product).toMatchObject({ price: 3800, salePrice: null });
  await page.goto(`/product/${SLUG}`);
  await expect(page.getByTestId('price')).toHaveText('$38.00');

  await signInOwner(request);
  const created = await request.post('/api/sales', {
    data: {
      name: `Bookend Week ${Date.now().toString(36)}`,
      type: 'product',
      targetId: product.id,
      discountType: 'percentage',
      discountValue: 20,
      startDate: new Date(Date.now() - 60 * 60 * 1000).toISOString(),
      endDate: new Date(Date.now() + 24 * 60 * 60 * 1000).toISOString(),
      active: true,
    },
    headers: { 'x-csrf-token': await csrfToken(request) },
  });
  expect(created.status(), await created.text()).toBe(201);
  const { sale } = (await created.json()) as { sale: { id: string } };

  try {
    // The listing's card: the sale price and the sale badge (20% off $38.00 is $30.40).
    await page.goto(`/products?search=${encodeURIComponent(TITLE)}`);
    const card = page.getByRole('article').filter({ has: page.getByRole('heading', { name: TITLE }) });
    await expect(card).toContainText('-20%');
    await expect(card).toContainText('$30.40');
    await expectAccessible(page);

    await page.goto(`/product/${SLUG}`);
    await expect(page.getByTestId('price')).toHaveText('$30.40');
    await expect(page.getByText('Save $7.60')).toBeVisible();
    await expectAccessible(page);

    // The cart charges what the page showed.
    await page.getByRole('button', { name: 'Add to Cart' }).click();
    await expect(page.getByTestId('cart-count')).toHaveText('1');
    await page.goto('/cart');
    const summary = page.getByTestId('cart-summary');
    await expect(summary).toHaveAttribute('data-priced', 'true');
    await expect(page.getByTestId('unit-price').first()).toContainText('$30.40');
    await expect(summary.getByTestId('summary-subtotal')).toHaveText('$30.40');
    await expect(summary.getByTestId('summary-total')).toHaveText('$30.40');
    await expectAccessible(page);
  } finally {
    const removed = await request.delete(`/api/sales/${sale.id}`, {
      headers: { 'x-csrf-token': await csrfToken(request) },
    });
    expect(removed.status(), await removed.text()).toBe(200);
  }

  // Once the sale is gone, the page shows the regular price again.
  await page.goto(`/product/${SLUG}`);
  await expect(page.getByTestId('price')).toHaveText('$38.00');
  await expectAccessible(page);
});
