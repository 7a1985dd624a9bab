import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner } from './admin.ts';
import { atShopOrigin, flash, openAuthorisation } from './tiktok-shop.ts';

/*
 * The TikTok Shop tab against the sandbox stand-in the server uses when TikTok Shop is not
 * configured (issue 14): its authorise page is ours, so the popup stays on this origin. The
 * shops are the shop's own (one connection for the whole shop): the tests look for the state
 * they made, whatever else is listed.
 */

// The authorisation comes back to the shop's public address (PUBLIC_URL, by default
// http://localhost:{port}, which the test server keeps), and the OAuth state is bound to the
// session, whose cookie belongs to the host signed in on: these tests use the shop at that address.
test.use(atShopOrigin);

test('tiktok shop tab: connect in the popup, resolve the shop, sync products and stock', async ({ page }) => {
  // A sync of the demo catalogue and a dozen axe runs: room on a busy machine.
  test.setTimeout(180_000);
  await openAdmin(page, owner, 'tiktok-shop');
  await expect(page.getByRole('heading', { name: 'TikTok Shop', level: 2 })).toBeVisible();
  const shops = page.getByRole('table', { name: 'Connected TikTok shops' });
  await expect(shops).toBeVisible();
  await expect(page.getByRole('button', { name: 'Connect', exact: true })).toBeEnabled();
  const pendingBefore = await shops.getByRole('row').filter({ hasText: 'Pending' }).count();
  await expectAccessible(page);

  // Authorize in the popup: it hands the result back to this tab and closes.
  const popup = await openAuthorisation(page);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Authorize' }).click();
  await closed;
  await expect(flash(page, 'TikTok Shop connected successfully')).toBeVisible();
  // The shops are read again 5 s after authorising: the new connection's shop is pending.
  await expect(shops.getByRole('row').filter({ hasText: 'Pending' })).toHaveCount(pendingBefore + 1, {
    timeout: 15_000,
  });
  await expect(page.getByText(/^Connected to TikTok Shop: /)).toBeVisible();
  await expectAccessible(page);

  // Resolve Shops: pending to ready.
  await page.getByRole('button', { name: 'Resolve Shops' }).click();
  await expect(flash(page, 'resolved')).toBeVisible();
  await expect(shops.getByRole('row').filter({ hasText: 'Pending' })).toHaveCount(0);
  // The stand-in's seller has a US and a GB shop; our prices are dollars, so the US one.
  const readyRow = shops
    .getByRole('row')
    .filter({ hasText: 'Ready' })
    .filter({ has: page.getByRole('cell', { name: 'US', exact: true }) })
    .first();
  await expect(readyRow).toBeVisible();
  await expectAccessible(page);

  // Select it from the keyboard.
  const choice = readyRow.getByRole('radio');
  await choice.focus();
  await page.keyboard.press('Space');
  await expect(choice).toBeChecked();
  const shopName = (await readyRow.getByRole('cell').nth(1).textContent())?.trim() ?? '';
  await expect(choice).toHaveAccessibleName(`Select ${shopName}`);
  await expect(page.getByText(`To ${shopName}.`)).toBeVisible();
  // The selected shop's category mapping is offered.
  await expect(page.getByRole('heading', { name: 'Category mapping', level: 3 })).toBeVisible();

  // Sync Products: followed until it finishes, then its result per product.
  await page.getByLabel('Force all products').check();
  await page.getByRole('button', { name: 'Sync Products' }).click();
  const productSync = page.getByRole('region', { name: 'Product sync', exact: true });
  await expect(productSync.getByRole('status')).toHaveText(/^Product sync (queued|running|finished)/);
  await expect(productSync.getByRole('status')).toHaveText(/^Product sync finished: \d+ synced, \d+ failed$/, {
    timeout: 120_000,
  });
  await expect(productSync.getByRole('progressbar')).toHaveCount(0);
  const synced = productSync.getByRole('table', { name: 'Products of the product sync' });
  await expect(synced.getByRole('columnheader')).toHaveText(['Title', 'Product ID', 'TikTok product ID']);
  await expect(synced.getByRole('row').nth(1)).toBeVisible();
  const syncedCount = Number((await productSync.getByRole('status').textContent())?.match(/(\d+) synced/)?.[1]);
  expect(syncedCount).toBeGreaterThan(0);
  await expect(synced.getByRole('row')).toHaveCount(syncedCount + 1);
  await expectAccessible(page);

  // The sync stored the channel's recommended category for our categories; one is changed here.
  const mappings = page.getByRole('table', { name: 'Our categories and their TikTok Shop categories' });
  const recommended = mappings.getByRole('row').filter({ hasText: 'Recommended by TikTok' }).first();
  await expect(recommended).toBeVisible();
  const category = (await recommended.getByRole('rowheader').textContent())?.trim() ?? '';
  const channelCategory = mappings.getByLabel(`TikTok Shop category for ${category}`, { exact: true });
  const current = await channelCategory.inputValue();
  const other = await channelCategory
    .getByRole('option')
    .evaluateAll(
      (options, current) => options.map((o) => (o as HTMLOptionElement).value).find((v) => v && v !== current),
      current,
    );
  await channelCategory.selectOption(other ?? '');
  await mappings.getByRole('button', { name: `Save the TikTok Shop category for ${category}` }).click();
  await expect(flash(page, `Category mapping saved for ${category}`)).toBeVisible();
  await expect(mappings.getByRole('row', { name: new RegExp(`^${category}`) })).toContainText('Chosen by you');
  await expectAccessible(page);

  // Sync Inventory: the stock of every synced SKU.
  await page.getByRole('button', { name: 'Sync Inventory' }).click();
  const inventorySync = page.getByRole('region', { name: 'Inventory sync', exact: true });
  await expect(inventorySync.getByRole('status')).toHaveText(/^Inventory sync finished: \d+ synced, \d+ failed$/, {
    timeout: 60_000,
  });
  await expect(inventorySync.getByRole('table', { name: 'Products of the inventory sync' })).toBeVisible();
  await expectAccessible(page);

  // Opened again (the shop remembered), the tab shows the newest runs.
  await page.reload();
  await expect(page.getByRole('radio', { name: `Select ${shopName}` }).first()).toBeChecked();
  await expect(page.getByRole('region', { name: 'Product sync', exact: true }).getByRole('status')).toHaveText(
    /^Product sync finished/,
  );
  await expect(page.getByRole('region', { name: 'Inventory sync', exact: true }).getByRole('status')).toHaveText(
    /^Inventory sync finished/,
  );
  await expect(mappings.getByLabel(`TikTok Shop category for ${category}`, { exact: true })).toHaveValue(other ?? '');
  await expectAccessible(page);
});

test('tiktok shop tab: a cancelled authorisation says so in the tab that opened it', async ({ page }) => {
  await openAdmin(page, owner, 'tiktok-shop');
  await expect(page.getByRole('table', { name: 'Connected TikTok shops' })).toBeVisible();
  const popup = await openAuthorisation(page);
  const closed = popup.waitForEvent('close');
  await popup.getByRole('button', { name: 'Cancel' }).click();
  await closed;
  await expect(flash(page, 'Authorization was cancelled or failed')).toBeVisible();
  await expectAccessible(page);
});

test('tiktok shop tab: without a popup the return shows in the page; a sync needs a shop', async ({ page }) => {
  // The authorisation came back to this page itself (popups blocked): it says so and stays.
  await openAdmin(page, owner, 'tiktok-shop');
  await page.goto('/admin?tab=tiktok-shop&tiktok_error=connection_failed');
  await expect(flash(page, 'Failed to connect to TikTok Shop. Please try again.')).toBeVisible();
  await expect(page).toHaveURL(/\/admin\?tab=tiktok-shop$/);
  await expect(page.getByRole('heading', { name: 'TikTok Shop', level: 2 })).toBeVisible();
  await expectAccessible(page);

  // No shop selected in this browser yet.
  await expect(page.getByText('No shop selected.')).toBeVisible();
  await page.getByRole('button', { name: 'Sync Products' }).click();
  await expect(flash(page, 'Please select a shop first.')).toBeVisible();
  await page.getByRole('button', { name: 'Sync Inventory' }).click();
  await expect(flash(page, 'Please select a shop first.')).toBeVisible();
  await expectAccessible(page);
});
