import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner } from './admin.ts';

const BAMBOO = 'Bamboo Tabletop Fountain';

/** The summary once the server has priced the cart as it is. */
async function expectPriced(page: Page, total: string) {
  const summary = page.getByTestId('cart-summary');
  await expect(summary).toHaveAttribute('data-priced', 'true');
  await expect(summary.getByTestId('summary-total')).toHaveText(total);
}

test('sales tab: create a sale with a code, activate it, use the code in the cart, then edit and delete it', async ({
  page,
}) => {
  // A dozen axe runs, a cart and two visits to the back office: room on a busy machine.
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36).toUpperCase();
  const name = `Bamboo Days ${suffix}`;
  const code = `BAMBOO${suffix}`;

  await openAdmin(page, owner, 'sales');
  await expect(page.getByRole('heading', { name: 'Sales', level: 2 })).toBeVisible();
  const table = page.getByRole('table', { name: /^Sales/ });
  await expect(table.getByRole('row', { name: /Welcome Offer/ })).toContainText('WELCOME10');
  await expectAccessible(page);

  // The create-sale modal: its required fields are checked before anything is sent.
  await page.getByRole('button', { name: 'Create Sale' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Sale' });
  // (The dialog's own element has no box of its own: its panel is fixed, so check what it holds.)
  await expect(dialog.getByLabel('Sale name (required)')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create Sale' }).click();
  await expect(dialog.getByText('Sale name is required')).toBeVisible();
  await expect(dialog.getByText('Discount value is required')).toBeVisible();
  await expect(dialog.getByLabel('Sale name (required)')).toHaveAttribute('aria-invalid', 'true');
  // The first field to correct takes the focus.
  await expect(dialog.getByLabel('Sale name (required)')).toBeFocused();
  await expectAccessible(page);

  await dialog.getByLabel('Sale name (required)').fill(name);
  await dialog.getByLabel('Sale type (required)').selectOption('product');
  await dialog.getByLabel('Find a product').fill('bamboo');
  const target = dialog.getByLabel('Product (required)');
  await expect(target.getByRole('option', { name: BAMBOO })).toBeAttached();
  await target.selectOption({ label: BAMBOO });
  await dialog.getByLabel('Discount value in % (required)').fill('25');
  await dialog.getByLabel('Coupon code').fill(code.toLowerCase());
  await expect(dialog.getByLabel('Coupon code')).toHaveValue(code);
  await dialog.getByLabel('Usage limit').fill('3');
  await expectAccessible(page);
  // Submitted from the keyboard.
  await dialog.getByLabel('Usage limit').press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Sale created' })).toBeVisible();
  const row = table.getByRole('row', { name: new RegExp(name) });
  await expect(row).toContainText(BAMBOO);
  await expect(row).toContainText('25% off');
  await expect(row).toContainText(code);
  await expect(row).toContainText('0 / 3');
  await expect(row).toContainText('Inactive');

  await row.getByRole('button', { name: `Activate the sale ${name}` }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sale activated' })).toBeVisible();
  await expect(row).toContainText('Active');
  await expect(row.getByRole('button', { name: `Deactivate the sale ${name}` })).toBeVisible();
  await expectAccessible(page);

  // The code in the cart: 25% off the fountain ($89.99 → $67.49).
  await page.goto('/product/bamboo-tabletop-fountain');
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await page.getByRole('link', { name: 'Cart, 1 item' }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expectPriced(page, '$89.99');
  await page.getByRole('textbox', { name: 'Discount code' }).fill(code.toLowerCase());
  await page.getByRole('button', { name: 'Apply' }).click();
  await expect(page.getByRole('list', { name: 'Applied discount codes' }).getByRole('listitem')).toHaveText([
    new RegExp(`^${code}`),
  ]);
  await expectPriced(page, '$67.49');
  const line = page.getByRole('table', { name: 'Items in your cart' }).getByRole('row', { name: new RegExp(BAMBOO) });
  await expect(line).toContainText(`${code} applied`);
  await expectAccessible(page);

  // Back in the tab (still signed in): edit the sale, then delete it after the confirm.
  await page.goto('/admin?tab=sales');
  await row.getByRole('button', { name: `Edit the sale ${name}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Sale' });
  await expect(edit.getByLabel('Product (required)')).toHaveValue(/[0-9a-f]{16}/);
  await edit.getByLabel('Discount value in % (required)').fill('101');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit.getByText('A percentage is at most 100')).toBeVisible();
  await edit.getByLabel('Discount value in % (required)').fill('30');
  await expectAccessible(page);
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await expect(edit).toHaveCount(0);
  await expect(page.getByRole('status').filter({ hasText: 'Sale updated' })).toBeVisible();
  await expect(row).toContainText('30% off');

  await row.getByRole('button', { name: `Delete the sale ${name}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete sale' });
  await expect(confirm).toContainText(name);
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Delete sale' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Sale deleted' })).toBeVisible();
  await expect(row).toHaveCount(0);
});
