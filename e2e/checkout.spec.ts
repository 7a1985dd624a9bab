import { expect, type Locator, type Page, test } from '@playwright/test';
import { paymentErrorMessage, testCards } from '../common/payment-errors.ts';
import { expectAccessible } from './a11y.ts';
import {
  addToCart,
  checkoutButton,
  fillAddress,
  fillCard,
  openCheckout,
  PRODUCT,
  SUCCESS_CARD,
  summary,
} from './checkout-steps.ts';
import { newAccount, register } from './shopper.ts';

test('a signed-in shopper pays with the test card and finds the order in the Order History', async ({ page }) => {
  const account = await register(page);
  await addToCart(page);
  await page.goto('/cart');
  const dialog = await openCheckout(page);
  const payNow = dialog.getByRole('button', { name: 'Pay Now' });
  await expect(dialog.getByText(`Test mode: use ${SUCCESS_CARD}`)).toBeVisible();
  await expect(summary(dialog, 'Subtotal')).toContainText('$24.99');
  await expect(summary(dialog, 'Shipping')).toContainText('N/A');
  await expect(payNow).toBeDisabled();
  await expectAccessible(page);

  await dialog.getByLabel('Email', { exact: true }).fill(account.email);
  await fillAddress(dialog);
  // The server prices shipping once the address is complete.
  await expect(summary(dialog, 'Shipping')).toContainText('$4.99');
  await expect(summary(dialog, 'Total')).toContainText('$');
  await expect(payNow).toBeDisabled();
  await fillCard(dialog);
  await expect(payNow).toBeEnabled();
  await payNow.click();

  await expect(page).toHaveURL(/\/success\?session_id=[\w-]+$/);
  const reference = new URL(page.url()).searchParams.get('session_id') ?? '';
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Thank you for your order!');
  await expect(page.getByTestId('order-reference')).toHaveText(reference);
  await expect(page.getByRole('heading', { name: "What's Next" })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Processing' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Tracking' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Continue Shopping' })).toHaveAttribute('href', '/');
  await expect(page.getByRole('link', { name: 'Contact Support' })).toHaveAttribute('href', /^mailto:support@/);
  await expectAccessible(page);
  // The cart and its payment are gone.
  expect(await page.evaluate(() => localStorage.getItem('stillwater.paymentIntentId'))).toBeNull();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('stillwater.cart') ?? '[]'))).toEqual([]);

  await page.goto('/account?tab=orders');
  const order = page.getByRole('tabpanel').getByRole('listitem').first();
  await expect(order).toContainText(`1 × ${PRODUCT.title}`);
  await expect(order).toContainText('processing');
  await expectAccessible(page);
});

test('each decline card shows its message and the shopper can try again', async ({ page }) => {
  await addToCart(page);
  await page.goto('/cart');
  const dialog = await openCheckout(page);
  await dialog.getByLabel('Email', { exact: true }).fill(newAccount().email);
  await fillAddress(dialog);
  await fillCard(dialog);
  const payNow = dialog.getByRole('button', { name: 'Pay Now' });
  const declines = testCards.filter((card) => card.outcome === 'declined');
  expect(declines.map((card) => card.number)).toEqual([
    '4000 0000 0000 0002',
    '4000 0000 0000 1018',
    '4000 0000 0000 1026',
    '4000 0000 0000 1034',
    '4000 0000 0000 1042',
    '4000 0027 6000 3184',
  ]);
  for (const [index, card] of declines.entries()) {
    await dialog.getByLabel('Card number').fill(card.number);
    await payNow.click();
    await expect(dialog.getByRole('alert')).toHaveText(paymentErrorMessage(card.declineCode ?? card.code));
    await expect(payNow).toBeEnabled();
    if (index === 0) await expectAccessible(page);
  }
  // Still the same modal and cart: the shopper can pay with another card.
  await expect(page).toHaveURL(/\/cart$/);
  await dialog.getByLabel('Card number').fill(SUCCESS_CARD);
  await payNow.click();
  await expect(page).toHaveURL(/\/success\?session_id=/);
});

test('Pay Now stays disabled until the email, the shipping address and the card are complete', async ({ page }) => {
  await addToCart(page);
  await page.goto('/cart');
  const dialog = await openCheckout(page);
  const payNow = dialog.getByRole('button', { name: 'Pay Now' });
  await expect(payNow).toBeDisabled();
  await fillCard(dialog);
  await expect(payNow).toBeDisabled();
  await fillAddress(dialog);
  await expect(payNow).toBeDisabled();
  await dialog.getByLabel('Email', { exact: true }).fill('calm.shopper@example.com');
  await expect(payNow).toBeEnabled();
  // Any one of them missing again disables it.
  await dialog.getByLabel('Email', { exact: true }).fill('  ');
  await expect(payNow).toBeDisabled();
  await dialog.getByLabel('Email', { exact: true }).fill('calm.shopper@example.com');
  await dialog.getByRole('group', { name: 'Shipping address' }).getByLabel('City').fill('');
  await expect(payNow).toBeDisabled();
  await expect(summary(dialog, 'Shipping')).toContainText('N/A');
  await dialog.getByRole('group', { name: 'Shipping address' }).getByLabel('City').fill('Portland');
  await expect(payNow).toBeEnabled();
  await dialog.getByLabel('CVC').fill('1');
  await expect(payNow).toBeDisabled();
  await dialog.getByLabel('CVC').fill('123');
  // A different billing address must be complete too.
  await dialog.getByLabel('Billing address is the same as the shipping address').uncheck();
  await expect(payNow).toBeDisabled();
  const billing = dialog.getByRole('group', { name: 'Billing address' });
  await billing.getByLabel('Full name').fill('Bo Calm');
  await billing.getByLabel('Street address').fill('2 Still Road');
  await billing.getByLabel('City').fill('Salem');
  await billing.getByLabel('State', { exact: true }).fill('OR');
  await billing.getByLabel('ZIP code').fill('97301');
  await expect(payNow).toBeEnabled();
  await expectAccessible(page);
});

test('each change syncs the same payment intent with its own reason', async ({ page }) => {
  await addToCart(page);
  await page.goto('/cart');
  const dialog = await openCheckout(page);
  const ids = new Set<string>();
  /** Makes a change and waits for the sync it triggers (the one carrying all of it, when `done` says). */
  const syncs = async (
    reason: string,
    change: () => Promise<void>,
    done: (body: { shipping?: { zipCode?: string } }) => boolean = () => true,
  ) => {
    const request = page.waitForRequest(
      (r) =>
        r.url().endsWith('/api/create-or-update-payment-intent') &&
        r.postDataJSON().reason === reason &&
        done(r.postDataJSON()),
    );
    await change();
    const body = (await request).postDataJSON();
    ids.add(body.paymentIntentId);
    return body;
  };
  await syncs('email_update', () => dialog.getByLabel('Email', { exact: true }).fill('calm.sync@example.com'));
  const shipped = await syncs(
    'shipping_update',
    () => fillAddress(dialog),
    (body) => body.shipping?.zipCode === '97201',
  );
  expect(shipped).toMatchObject({ email: 'calm.sync@example.com', shipping: { city: 'Portland', state: 'OR' } });
  await expect(summary(dialog, 'Shipping')).toContainText('$4.99');
  await syncs('billing_update', () =>
    dialog.getByLabel('Billing address is the same as the shipping address').uncheck(),
  );
  const billed = await syncs('billing_update', () =>
    dialog.getByRole('group', { name: 'Billing address' }).getByLabel('Full name').fill('Bo Calm'),
  );
  expect(billed).toMatchObject({ shipping: { name: 'Ada Calm' }, billing: { name: 'Bo Calm' } });
  const subscribed = await syncs('subtotal_or_codes', () =>
    dialog.getByLabel('Email me about new arrivals and offers (unsubscribe at any time)').check(),
  );
  expect(subscribed).toMatchObject({ newsletter: true, metaVersion: 2 });
  // One payment throughout.
  expect([...ids]).toHaveLength(1);
  expect([...ids][0]).toMatch(/\S/);
});

test('the modal closes on Escape, the backdrop, the close button and Tab out of the form, focus back on Checkout', async ({
  page,
  context,
}) => {
  await addToCart(page);
  await page.goto('/cart');
  const closed = async (dialog: Locator) => {
    await expect(dialog).toBeHidden();
    await expect(checkoutButton(page)).toBeFocused();
  };

  let dialog = await openCheckout(page);
  await expect(dialog.getByLabel('Email', { exact: true })).toBeFocused();
  await dialog.getByLabel('Email', { exact: true }).fill('kept@example.com');
  await page.keyboard.press('Escape');
  await closed(dialog);

  dialog = await openCheckout(page);
  // What the shopper typed stays while the page does.
  await expect(dialog.getByLabel('Email', { exact: true })).toHaveValue('kept@example.com');
  await page.mouse.click(5, 5);
  await closed(dialog);

  dialog = await openCheckout(page);
  // A click inside the dialog is not a backdrop click.
  await dialog.getByRole('heading', { name: 'Checkout' }).click();
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Close checkout' }).click();
  await closed(dialog);

  dialog = await openCheckout(page);
  // Pay Now is disabled, so the last control is the last policy link.
  await dialog.getByRole('link', { name: /Returns & Exchanges/ }).focus();
  await page.keyboard.press('Tab');
  await closed(dialog);

  dialog = await openCheckout(page);
  await expect(dialog.getByLabel('Email', { exact: true })).toBeFocused();
  await page.keyboard.press('Shift+Tab');
  await expect(dialog.getByRole('button', { name: 'Close checkout' })).toBeFocused();
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Shift+Tab');
  await closed(dialog);

  // Emptying the cart (here from another tab) closes the modal.
  dialog = await openCheckout(page);
  const other = await context.newPage();
  await other.goto('/returns');
  await other.evaluate(() => localStorage.setItem('stillwater.cart', '[]'));
  await expect(dialog).toBeHidden();
});

test('a payment that came back failed from a redirect keeps the cart', async ({ page }) => {
  await addToCart(page);
  await page.goto('/success?payment_intent=pi_x&redirect_status=failed');
  await expect(page.getByRole('heading', { name: 'Payment failed' })).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Back to the cart' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole('link', { name: PRODUCT.title }).first()).toBeVisible();
});

/** Takes the cushion's scarce colour into the cart, as many as the product page says are left. */
async function addLastCushions(page: Page, count: 'all' | 1) {
  await page.goto('/product/meditation-cushion');
  await page.locator('label').filter({ hasText: 'Terracotta' }).click();
  await expect(page.getByRole('radio', { name: /Terracotta/ })).toBeChecked();
  const status = page.getByTestId('stock-status');
  await expect(status).toHaveText(/^Only \d+ left in stock$/);
  const left = Number(/Only (\d+) left/.exec((await status.textContent()) ?? '')?.[1]);
  expect(left).toBeGreaterThan(1);
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Added to Cart' })).toBeVisible();
  await page.goto('/cart');
  const name = 'Buckwheat Meditation Cushion (Terracotta)';
  const quantity = page.getByRole('spinbutton', { name: `Quantity of ${name}` });
  if (count === 'all') {
    for (let n = 2; n <= left; n++) {
      await page.getByRole('button', { name: `Increase quantity of ${name}` }).click();
      await expect(quantity).toHaveValue(String(n));
    }
  }
  return left;
}

test('two shoppers race for the last of a colour: the later one is told it sold out, is not charged, gets no order', async ({
  page,
  browser,
}) => {
  const account = await register(page);
  await addLastCushions(page, 'all');
  const dialog = await openCheckout(page);
  await dialog.getByLabel('Email', { exact: true }).fill(account.email);
  await fillAddress(dialog);
  await fillCard(dialog);
  const payNow = dialog.getByRole('button', { name: 'Pay Now' });
  await expect(payNow).toBeEnabled();

  // Meanwhile another shopper buys one of them.
  const rivalContext = await browser.newContext();
  const rival = await rivalContext.newPage();
  await addLastCushions(rival, 1);
  const rivalDialog = await openCheckout(rival);
  await rivalDialog.getByLabel('Email', { exact: true }).fill(newAccount().email);
  await fillAddress(rivalDialog, 'Grace Still');
  await fillCard(rivalDialog);
  await rivalDialog.getByRole('button', { name: 'Pay Now' }).click();
  await expect(rival).toHaveURL(/\/success\?session_id=/);
  await rivalContext.close();

  await payNow.click();
  await expect(dialog.getByRole('alert')).toHaveText(
    'Buckwheat Meditation Cushion just sold out. Nothing was charged.',
  );
  await expect(page).toHaveURL(/\/cart$/);
  await expectAccessible(page);
  await page.goto('/account?tab=orders');
  await expect(page.getByRole('tabpanel')).toContainText('No orders yet.');
});
