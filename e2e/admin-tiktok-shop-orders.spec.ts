import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner } from './admin.ts';
import { atShopOrigin, flash, openAuthorisation } from './tiktok-shop.ts';

/*
 * A channel order in the browser: placed in the sandbox's seller centre, it reaches the shop by
 * the signed webhook and shows in the orders tab. It takes a unit of a product's stock, so it
 * runs with the shop-wide tests, after the others.
 */
test.use(atShopOrigin);

test('tiktok shop: a test order placed in the sandbox seller centre arrives in the orders tab', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  await openAdmin(page, owner, 'tiktok-shop');
  const shops = page.getByRole('table', { name: 'Connected TikTok shops' });
  await expect(shops).toBeVisible();
  const usShop = shops
    .getByRole('row')
    .filter({ hasText: 'Ready' })
    .filter({ has: page.getByRole('cell', { name: 'US', exact: true }) })
    .first();
  // Connected by the tab's own test when the projects run in order; connected here otherwise.
  if ((await usShop.count()) === 0) {
    const popup = await openAuthorisation(page);
    const closed = popup.waitForEvent('close');
    await popup.getByRole('button', { name: 'Authorize' }).click();
    await closed;
    await page.getByRole('button', { name: 'Resolve Shops' }).click();
    await expect(flash(page, 'resolved')).toBeVisible({ timeout: 15_000 });
  }
  await usShop.getByRole('radio').check();
  await page.getByRole('button', { name: 'Sync Products' }).click();
  await expect(page.getByRole('region', { name: 'Product sync', exact: true }).getByRole('status')).toHaveText(
    /^Product sync finished/,
    { timeout: 120_000 },
  );

  // The sandbox's seller centre opens beside the back office.
  const opened = context.waitForEvent('page');
  await page.getByRole('link', { name: 'Open its seller centre' }).click();
  const sellerCentre = await opened;
  await expect(
    sellerCentre.getByRole('heading', { name: 'TikTok Shop sandbox: seller centre', level: 1 }),
  ).toBeVisible();
  await expectAccessible(sellerCentre);
  const usListings = sellerCentre.getByRole('region', { name: /Stillwater Sandbox US/ });
  const first = usListings.getByRole('listitem').first();
  await first.getByRole('spinbutton').fill('1');
  await first.getByRole('button', { name: 'Place a test order' }).click();
  const placed = sellerCentre.getByRole('status');
  await expect(placed).toHaveText(/^Test order \d+ was placed and delivered to the shop's webhook\.$/);
  await expectAccessible(sellerCentre);
  await sellerCentre.close();

  // The shop has it as a paid order of the buyer the channel names.
  await page.goto('/admin?tab=orders');
  await page.getByLabel('Search orders').fill('Jordan Avery');
  await expect(page.getByRole('row').filter({ hasText: 'Jordan Avery' }).first()).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page);
});
