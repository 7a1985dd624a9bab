import { expect, type Locator, type Page } from '@playwright/test';

/** $24.99, one variant: under the free-shipping threshold, so shipping has a figure once the address is in. */
export const PRODUCT = { slug: 'essential-oil-collection', title: 'Essential Oil Collection (6 × 10 ml)' };
export const SUCCESS_CARD = '4242 4242 4242 4242';

export async function addToCart(page: Page) {
  await page.goto(`/product/${PRODUCT.slug}`);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Added to Cart' })).toBeVisible();
}

export const checkoutButton = (page: Page) => page.getByRole('button', { name: 'Checkout', exact: true });

/** Opens the checkout modal from the cart page. */
export async function openCheckout(page: Page): Promise<Locator> {
  await checkoutButton(page).click();
  const dialog = page.getByRole('dialog', { name: 'Checkout' });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** A figure of the price breakdown, by its label. */
export const summary = (dialog: Locator, label: string) =>
  dialog
    .getByTestId('price-breakdown')
    .locator('div')
    .filter({ has: dialog.page().getByText(label, { exact: true }) });

export async function fillAddress(dialog: Locator, name = 'Ada Calm') {
  const shipping = dialog.getByRole('group', { name: 'Shipping address' });
  await shipping.getByLabel('Full name').fill(name);
  await shipping.getByLabel('Street address').fill('1 Quiet Lane');
  await shipping.getByLabel('City').fill('Portland');
  await shipping.getByLabel('State', { exact: true }).fill('OR');
  await shipping.getByLabel('ZIP code').fill('97201');
}

export async function fillCard(dialog: Locator, number = SUCCESS_CARD) {
  await dialog.getByLabel('Card number').fill(number);
  await dialog.getByLabel('Expiry (MM / YY)').fill('1234');
  await dialog.getByLabel('CVC').fill('123');
  await dialog.getByLabel('Name on card').fill('Ada Calm');
}

/** From the cart page: the checkout with a guest's email, the address and the test card, paid; on /success. */
export async function payAsGuest(page: Page, email: string): Promise<{ reference: string }> {
  const dialog = await openCheckout(page);
  await dialog.getByLabel('Email', { exact: true }).fill(email);
  await fillAddress(dialog);
  await fillCard(dialog);
  const payNow = dialog.getByRole('button', { name: 'Pay Now' });
  await expect(payNow).toBeEnabled();
  await payNow.click();
  await expect(page).toHaveURL(/\/success\?session_id=[\w-]+$/);
  return { reference: new URL(page.url()).searchParams.get('session_id') ?? '' };
}
