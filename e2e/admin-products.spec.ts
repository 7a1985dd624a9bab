import { crc32, deflateSync } from 'node:zlib';
import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner } from './admin.ts';

/** Demo-marketplace products the seeded shop does not list (server/adapters/marketplace/demo-marketplace.ts). */
const HOURGLASS_ID = '1005008124503961';
const PLANTER_ID = '1005008124503962';

/** A small PNG made here: a soft gradient, 96 × 64 pixels. */
function pngFixture(): Buffer {
  const width = 96;
  const height = 64;
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = 120 + Math.round((x / width) * 100);
      row[2 + x * 3] = 160;
      row[3 + x * 3] = 140 + Math.round((y / height) * 80);
    }
    rows.push(row);
  }
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

test('products tab: import a marketplace product with Fetch Product Info, Fetch SKUs and AI Autofill, edit a SKU, upload, reorder and rename images, and see it in the shop', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const suffix = Date.now().toString(36);
  const title = `Desk Hourglass ${suffix}`;
  const slug = `desk-hourglass-${suffix}`;

  await openAdmin(page, owner, 'products');
  await expect(page.getByRole('heading', { name: 'Products', level: 2 })).toBeVisible();
  const table = page.getByRole('table', { name: 'Products' });
  await expect(table.getByRole('row').nth(1)).toBeVisible();
  await expectAccessible(page);

  // The Add Product modal refuses an empty form with the spec's messages; AI Autofill needs the info first.
  await page.getByRole('button', { name: 'Add Product' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add Product' });
  const idField = dialog.getByLabel('AliExpress Product ID or URL (required)');
  await dialog.getByRole('button', { name: 'Create Product' }).click();
  await expect(dialog.getByText('AliExpress Product ID is required', { exact: true })).toBeVisible();
  await expect(dialog.getByText('Product title is required')).toBeVisible();
  await expect(dialog.getByText('Valid price is required')).toBeVisible();
  await expect(idField).toBeFocused();
  await dialog.getByRole('button', { name: 'AI Autofill' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Fetch product info first');
  await expectAccessible(page);

  // Fetch Product Info from a product page address: the id is read out of it.
  await idField.fill(`https://www.aliexpress.com/item/${HOURGLASS_ID}.html?spm=a2g0o`);
  await dialog.getByRole('button', { name: 'Fetch Product Info' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'Product info fetched: 3 SKUs' })).toBeVisible();
  await expect(idField).toHaveValue(HOURGLASS_ID);
  await expect(dialog.getByLabel('Title (required)')).toHaveValue('Brass and Glass Desk Hourglass');
  await expect(dialog.getByLabel('Marketplace price')).toHaveValue('$9.40');
  await expect(dialog.getByLabel('Variant label')).toHaveValue('Duration');
  // Fetch SKUs again (now Refresh SKUs), then the AI writes the copy.
  await dialog.getByRole('button', { name: 'Refresh SKUs' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: '3 SKUs fetched.' })).toBeVisible();
  await dialog.getByRole('button', { name: 'AI Autofill' }).click();
  await expect(dialog.getByRole('status').filter({ hasText: 'AI content applied' })).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Feature 1', exact: true })).not.toHaveValue('');
  await expect(dialog.getByRole('textbox', { name: 'Tag 1', exact: true })).not.toHaveValue('');
  await dialog.getByLabel('Title (required)').fill(title);
  await dialog.getByLabel('URL slug').fill(slug);
  await dialog.getByLabel('Price in USD (required)').fill('32.50');

  // Two SKUs added from the list, the first one's price changed in the editor.
  await dialog.getByLabel('Search available SKUs').fill('15');
  await dialog.getByRole('button', { name: 'Add 15 minutes' }).click();
  const editor = page.getByRole('dialog', { name: 'Add Variant' });
  await expect(editor.getByLabel('Name (required)')).toHaveValue('15 minutes');
  await editor.getByLabel('Price in USD (required)').fill('31.50');
  await editor.getByRole('button', { name: 'Add Variant' }).click();
  await expect(editor).toHaveCount(0);
  // The focus lands on the new SKU's card (its Add button is gone).
  await expect(dialog.getByRole('button', { name: /^Edit SKU 15 minutes/ })).toBeFocused();
  await dialog.getByLabel('Search available SKUs').fill('');
  await dialog.getByRole('button', { name: 'Add 30 minutes' }).click();
  await editor.getByRole('button', { name: 'Add Variant' }).click();
  await expect(editor).toHaveCount(0);

  // Editing a SKU: the editor's rules, then its stock and the marketplace's picture of it.
  await dialog.getByRole('button', { name: /^Edit SKU 15 minutes/ }).click();
  const skuEditor = page.getByRole('dialog', { name: 'Edit SKU' });
  await skuEditor.getByLabel('Stock').fill('-1');
  await skuEditor.getByRole('button', { name: 'Save Changes' }).click();
  await expect(skuEditor.getByRole('alert')).toHaveText('Stock must be ≥ 0.');
  await skuEditor.getByLabel('Stock').fill('50');
  await skuEditor.getByRole('button', { name: 'Use Ali Image' }).click();
  await expect(skuEditor.getByRole('group', { name: 'Variant images (1/8)' })).toBeVisible();
  await expectAccessible(page);
  await skuEditor.getByRole('button', { name: 'Save Changes' }).click();
  await expect(skuEditor).toHaveCount(0);
  const card = dialog.getByRole('button', { name: /^Edit SKU 15 minutes/ });
  await expect(card).toContainText('$31.50');
  await expect(card).toContainText('50 in stock');

  // Categories: one picked, one new (Enter adds it; a duplicate cannot be added).
  await dialog.getByLabel('Add an existing category').selectOption('Decor');
  await dialog.getByRole('button', { name: 'Add Category' }).click();
  await dialog.getByLabel('New category').fill('Desk Time');
  await dialog.getByLabel('New category').press('Enter');
  await expect(dialog.getByRole('list', { name: 'Chosen categories' }).getByRole('listitem')).toHaveText([
    /Decor/,
    /Desk Time/,
  ]);
  await dialog.getByLabel('New category').fill('decor');
  await expect(dialog.getByRole('button', { name: 'Add New' })).toBeDisabled();

  // Images: a marketplace picture, then a file uploaded, moved first and renamed.
  const images = dialog.getByRole('list', { name: 'Current Images' });
  await dialog.getByRole('button', { name: 'Add marketplace image 1' }).click();
  await expect(images.getByRole('img')).toHaveCount(1);
  const chooser = page.waitForEvent('filechooser');
  await dialog.getByRole('button', { name: 'Upload Images' }).click();
  await (await chooser).setFiles({ name: 'calm-gradient.png', mimeType: 'image/png', buffer: pngFixture() });
  await expect(images.getByRole('img')).toHaveCount(2);
  await dialog.getByRole('button', { name: /^Move Image 2 \(.*\) earlier$/ }).click();
  await dialog.getByRole('button', { name: /^Rename Image 1 \(/ }).click();
  await dialog.getByLabel('New name').fill('hourglass-on-desk.png');
  await dialog.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(dialog.getByRole('button', { name: 'Rename Image 1 (hourglass-on-desk)' })).toBeVisible();
  await expectAccessible(page);

  await dialog.getByRole('button', { name: 'Create Product' }).click();
  await expect(dialog).toHaveCount(0);
  const row = table.getByRole('row', { name: new RegExp(title) });
  await expect(row).toContainText('$32.50');
  await expect(row).toContainText('Decor');
  await expect(row.locator('img')).toHaveAttribute('src', /hourglass-on-desk/);

  // A new price with several SKUs: the confirm warns that every SKU's price is overwritten.
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await edit.getByLabel('Price in USD (required)').fill('36');
  await edit.getByRole('button', { name: 'Update Product' }).click();
  const overwrite = page.getByRole('dialog', { name: 'Overwrite SKU prices?' });
  await expect(overwrite).toContainText('changing the price overwrites the price of every SKU');
  await overwrite.getByRole('button', { name: 'Overwrite SKU prices' }).click();
  await expect(edit).toHaveCount(0);
  await expect(row).toContainText('$36.00');

  // In the shop, with the uploaded picture first.
  await page.goto(`/product/${slug}`);
  await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
  await expect(page.locator('main img[src*="hourglass-on-desk"]').first()).toBeVisible();
  await expectAccessible(page);
});

test('products tab: one SKU is used for every purchase; edit the product, then delete it after the confirm', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const suffix = Date.now().toString(36);
  const title = `Concrete Planter ${suffix}`;

  await openAdmin(page, owner, 'products');
  const table = page.getByRole('table', { name: 'Products' });
  // The category filter and the sort: a column clicked again flips its order.
  await page.getByLabel('Category', { exact: true }).selectOption('Fountains');
  await expect(table.getByRole('row', { name: /Desktop Waterfall Fountain/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /Lavender Pillow Sleep Mist/ })).toHaveCount(0);
  const priceHeader = table.getByRole('columnheader', { name: 'Price' });
  await priceHeader.getByRole('button').click();
  await expect(priceHeader).toHaveAttribute('aria-sort', 'ascending');
  await priceHeader.getByRole('button').click();
  await expect(priceHeader).toHaveAttribute('aria-sort', 'descending');
  await page.getByLabel('Category', { exact: true }).selectOption('');

  await page.getByRole('button', { name: 'Add Product' }).click();
  const add = page.getByRole('dialog', { name: 'Add Product' });
  await add.getByLabel('AliExpress Product ID or URL (required)').fill(PLANTER_ID);
  await add.getByRole('button', { name: 'Fetch Product Info' }).click();
  await expect(add.getByText('1 valid SKU found — Standard automatically selected for all purchases')).toBeVisible();
  await expect(add.getByLabel('Variant label')).toHaveCount(0);
  await expect(add.getByLabel('Price in USD (required)')).toHaveValue('19.99');
  await add.getByLabel('Title (required)').fill(title);
  // Tags: a second row takes the focus; Remove is offered only with more than one row.
  await add.getByRole('button', { name: 'Add tag' }).click();
  await expect(add.getByRole('textbox', { name: 'Tag 2', exact: true })).toBeFocused();
  await add.getByRole('textbox', { name: 'Tag 2', exact: true }).fill('desk');
  await add.getByRole('button', { name: 'Remove tag 1' }).click();
  await expect(add.getByRole('textbox', { name: 'Tag 1', exact: true })).toHaveValue('desk');
  await expect(add.getByRole('button', { name: 'Remove tag 1' })).toHaveCount(0);
  await add.getByLabel('Status').selectOption('draft');
  await add.getByRole('button', { name: 'Create Product' }).click();
  await expect(add).toHaveCount(0);

  await page.getByLabel('Search products by title or AliExpress ID').fill(suffix);
  await expect(table.getByRole('row')).toHaveCount(2);
  const row = table.getByRole('row').nth(1);
  await expect(row).toContainText(title);
  await expect(row).toContainText('Draft');

  // Edit: the same form, read afresh; an empty slug keeps the current one.
  await row.getByRole('button', { name: `Edit ${title}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Product' });
  await expect(edit.getByLabel('Title (required)')).toHaveValue(title);
  await expect(edit.getByLabel('Product ID', { exact: true })).toHaveValue(/^[0-9a-f]{16}$/);
  await expect(edit.getByLabel('Marketplace stock')).toHaveValue('260');
  await edit.getByLabel('URL slug').fill('');
  await edit.getByLabel('Price in USD (required)').fill('24');
  await edit.getByLabel('Status').selectOption('active');
  await expectAccessible(page);
  await edit.getByRole('button', { name: 'Update Product' }).click();
  await expect(edit).toHaveCount(0);
  await expect(row).toContainText('$24.00');
  await expect(row).toContainText('Active');

  // Delete: the confirm says it cannot be undone; the product has no orders, so it is gone.
  await row.getByRole('button', { name: `Delete ${title}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete product' });
  await expect(confirm).toContainText('This cannot be undone.');
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Delete product' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(table).toContainText('No products found.');
});
