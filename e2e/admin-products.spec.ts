import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner } from './admin.ts';

/** A demo-marketplace product the seeded shop does not list (server/adapters/marketplace/demo-marketplace.ts). */
const HOURGLASS_ID = '1005008124503961';

test('products tab: import a marketplace product with its SKUs, edit a SKU, see it in the shop, then delete it', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const suffix = Date.now().toString(36);
  const title = `Desk Hourglass ${suffix}`;
  const slug = `desk-hourglass-${suffix}`;

  await openAdmin(page, owner, 'products');
  await expect(page.getByRole('heading', { name: 'Products', level: 2 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Products' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expectAccessible(page);

  // The Add Product modal refuses an empty form with the spec's messages.
  await page.getByRole('button', { name: 'Add Product' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Product' });
  const idField = dialog.getByLabel('AliExpress Product ID or URL (required)');
  await expect(idField).toBeVisible();
  await dialog.getByRole('button', { name: 'Create Product' }).click();
  await expect(dialog.getByText('AliExpress Product ID is required', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Product title is required')).toBeVisible();
  await expect(dialog.getByText('Valid price is required')).toBeVisible();
  await expect(idField).toBeFocused();
  await expectAccessible(page);

  // Fetch Product Info from a product page address: the id is read out of it.
  await idField.fill(`https://www.aliexpress.com/item/${HOURGLASS_ID}.html?spm=a2g0o`);
  await dialog.getByRole('button', { name: 'Fetch Product Info' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Product info fetched: 3 SKUs' })).toBeVisible();
  await expect(idField).toHaveValue(HOURGLASS_ID);
  await expect(dialog.getByLabel('Title (required)')).toHaveValue('Brass and Glass Desk Hourglass');
  await expect(dialog.getByLabel('Marketplace price')).toHaveValue('$9.40');
  await expect(dialog.getByLabel('Variant label')).toHaveValue('Duration');

  // Fetch SKUs again (now Refresh SKUs): three to choose from, none added yet.
  await dialog.getByRole('button', { name: 'Refresh SKUs' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: '3 SKUs fetched.' })).toBeVisible();
  await dialog.getByLabel('Title (required)').fill(title);
  await dialog.getByLabel('URL slug').fill(slug);
  await dialog.getByLabel('Price in USD (required)').fill('32.50');

  // Two SKUs added from the list, the first one's price changed in the editor.
  await dialog.getByLabel('Search available SKUs').fill('15');
  await dialog.getByRole('button', { name: 'Add 15 minutes' }).click();
  const editor = page.getByRole('dialog', { name: 'Add Variant' });
  await expect(editor.getByLabel('Name (required)')).toHaveValue('15 minutes');
  await editor.getByLabel('Price in USD (required)').fill('31.50');
  await expectAccessible(page);
  await editor.getByRole('button', { name: 'Add Variant' }).click();
  await expect(editor).toHaveCount(0);
  await dialog.getByLabel('Search available SKUs').fill('');
  await dialog.getByRole('button', { name: 'Add 30 minutes' }).click();
  await page.getByRole('dialog', { name: 'Add Variant' }).getByRole('button', { name: 'Add Variant' }).click();

  // Editing a SKU: the editor's rules, then its stock and a product image... saved.
  await dialog.getByRole('button', { name: /^Edit SKU 15 minutes/ }).click();
  const skuEditor = page.getByRole('dialog', { name: 'Edit SKU' });
  await skuEditor.getByLabel('Stock').fill('-1');
  await skuEditor.getByRole('button', { name: 'Save Changes' }).click();
  await expect(skuEditor.getByRole('alert')).toHaveText('Stock must be ≥ 0.');
  await skuEditor.getByLabel('Stock').fill('50');
  await skuEditor.getByRole('button', { name: 'Use Ali Image' }).click();
  await expect(skuEditor.getByRole('group', { name: 'Variant images (1/8)' })).toBeVisible();
  await skuEditor.getByRole('button', { name: 'Save Changes' }).click();
  await expect(skuEditor).toHaveCount(0);
  await expect(dialog.getByRole('button', { name: /^Edit SKU 15 minutes/ })).toContainText('$31.50');
  await expect(dialog.getByRole('button', { name: /^Edit SKU 15 minutes/ })).toContainText('50 in stock');

  // Categories: one picked, one new (Enter adds it); a tag and a feature.
  await dialog.getByLabel('Add an existing category').selectOption('Decor');
  await dialog.getByLabel('New category').fill('Desk Time');
  await dialog.getByLabel('New category').press('Enter');
  await expect(dialog.getByRole('list', { name: 'Chosen categories' }).getByRole('listitem')).toHaveText([
    /Decor/,
    /Desk Time/,
  ]);
  await dialog.getByLabel('New category').fill('decor');
  await expect(dialog.getByRole('button', { name: 'Add New' })).toBeDisabled();
  await dialog.getByLabel('Tag 1').fill('focus');
  await dialog.getByLabel('Feature 1').fill('Runs for a steady count');
  await expectAccessible(page);

  await dialog.getByRole('button', { name: 'Create Product' }).click();
  await expect(dialog).toHaveCount(0);
  const row = table.getByRole('row', { name: new RegExp(title) });
  await expect(row).toContainText('$32.50');
  await expect(row).toContainText('Decor');
  await expectAccessible(page);

  // In the shop, with its two durations.
  await page.goto(`/product/${slug}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expectAccessible(page);

  // Deleted after the confirm (it has no orders, so it is gone rather than archived).
  await page.goto('/admin?tab=products');
  await expect(table.getByRole('row', { name: new RegExp(title) })).toBeVisible();
  await page.getByLabel('Search products by title or AliExpress ID').fill(suffix);
  await expect(table.getByRole('row')).toHaveCount(2);
  await expect(table.getByRole('row').nth(1)).toContainText(title);
  await table.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete product' });
  await expect(confirm).toContainText('This cannot be undone.');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Delete product' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(table).toContainText('No products found.');
});
