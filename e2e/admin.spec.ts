import { expect, test } from '@playwright/test';
import { measureFirstLoadJs } from '../scripts/bench/first-load-js.ts';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner, tabNames } from './admin.ts';
import { latestMailTo } from './mailbox.ts';
import { otherShopper, postReview, unique } from './reviews.ts';
import { register, signOut } from './shopper.ts';

const storefrontPages = ['/', '/products', '/product/desktop-fountain', '/cart', '/login', '/register'];

test('no storefront page loads a byte of admin code; /admin loads it', async ({ page, baseURL }) => {
  for (const path of storefrontPages) {
    const measured = await measureFirstLoadJs(baseURL ?? '', path);
    expect(measured.status, path).toBe(200);
    // The check had the build's manifest to compare with, and found the admin route in it.
    expect(measured.admin.adminRoutesInBuild, path).toContain('admin/admin-layout');
    expect(measured.admin.findings, path).toEqual([]);
  }

  // In a browser, moving between storefront pages requests no admin chunk either.
  const scripts: string[] = [];
  page.on('request', (request) => {
    if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
  });
  await page.goto('/');
  await page.getByRole('link', { name: 'All Products' }).first().click();
  await expect(page).toHaveURL(/\/products/);
  await page.goto('/cart');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(scripts.filter((script) => /admin|-tab-/.test(script))).toEqual([]);

  await openAdmin(page, owner, 'users');
  await expect(page.getByRole('heading', { name: 'Users', level: 2 })).toBeVisible();
  expect(scripts.some((script) => /\/admin-layout-[\w-]+\.js$/.test(script))).toBe(true);
  expect(scripts.some((script) => /\/users-tab-[\w-]+\.js$/.test(script))).toBe(true);
});

test('guards: a visitor is sent to sign in with the address kept, a shopper to the account', async ({ page }) => {
  await page.goto('/admin?tab=users');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fadmin%3Ftab%3Dusers$/);
  await expectAccessible(page);
  await register(page);
  await page.goto('/admin');
  await expect(page).toHaveURL(/\/account$/);
});

test('users tab: search, sort, and Reset password sends the reset email after a confirm', async ({ page }) => {
  // Two accounts, a dozen axe runs and the message's 5 s: room on a busy machine.
  test.setTimeout(120_000);
  const shopper = await register(page);
  await signOut(page);
  await openAdmin(page, owner, 'users');
  await expectAccessible(page);

  await page.getByLabel('Search users').fill(shopper.username);
  const rows = page.getByRole('table', { name: 'Users' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  await expect(rows.nth(1)).toContainText(shopper.email);
  // The column header flips the order; the select and toggle say the same.
  await page.getByRole('button', { name: /^Username/ }).click();
  await expect(page.getByRole('columnheader', { name: /Username/ })).toHaveAttribute('aria-sort', 'ascending');
  await page.getByRole('button', { name: /^Username/ }).click();
  await expect(page.getByRole('columnheader', { name: /Username/ })).toHaveAttribute('aria-sort', 'descending');

  await page.getByRole('button', { name: `Reset password of ${shopper.username}` }).click();
  const dialog = page.getByRole('dialog', { name: 'Reset password' });
  await expect(dialog).toContainText(`Send a password reset email to ${shopper.email}?`);
  await expectAccessible(page);
  // Cancel sends nothing; confirming sends it.
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: `Reset password of ${shopper.username}` }).click();
  await page.getByRole('dialog', { name: 'Reset password' }).getByRole('button', { name: 'Send reset email' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'A password reset email was sent' })).toBeVisible();
  const mail = await latestMailTo(shopper.email);
  expect(mail).toMatch(/\/reset-password\?token=[\w-]+/);
  // The message clears itself after 5 s (spec 4).
  await expect(page.getByText('A password reset email was sent')).toBeHidden({ timeout: 8000 });
});

test('admin management: the owner promotes a shopper, edits the permissions, removes the admin; the tabs follow', async ({
  page,
  browser,
}) => {
  // Two browsers, three changes and an axe run at each step: room on a busy machine.
  test.setTimeout(150_000);
  const shopperContext = await browser.newContext();
  const shopperPage = await shopperContext.newPage();
  const shopper = await register(shopperPage);

  await openAdmin(page, owner, 'admin-management');
  await expectAccessible(page);
  expect(await tabNames(page)).toEqual(expect.arrayContaining(['Users', 'Admin Management']));
  await page.getByLabel('Search users').fill(shopper.username);
  await page.getByRole('button', { name: `Make Admin: ${shopper.username}` }).click();
  const promote = page.getByRole('dialog', { name: 'Make Admin' });
  await promote.getByLabel('Manage User Accounts').check();
  await expectAccessible(page);
  await promote.getByRole('button', { name: 'Make Admin' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'User promoted to admin successfully' })).toBeVisible();
  await expect(page.getByRole('row', { name: new RegExp(shopper.username) })).toContainText('Manage User Accounts');

  // The new admin sees the tabs of the permission: users, not admin management.
  await shopperPage.goto('/admin');
  expect(await tabNames(shopperPage)).toContain('Users');
  expect(await tabNames(shopperPage)).not.toContain('Admin Management');
  await expectAccessible(shopperPage);
  await shopperPage.goto('/admin?tab=admin-management');
  await expect(shopperPage.getByText('Only the owner can access admin management features.')).toBeVisible();

  // Edit: the permission is taken away; the next load of the back office no longer offers the tab.
  await page.getByRole('button', { name: `Edit permissions of ${shopper.username}` }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Permissions' });
  await expect(edit.getByLabel('Manage User Accounts')).toBeChecked();
  await edit.getByLabel('Manage User Accounts').uncheck();
  await edit.getByLabel('Download XLSX Data').check();
  await edit.getByRole('button', { name: 'Save Permissions' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Permissions updated successfully' })).toBeVisible();
  await shopperPage.goto('/admin');
  await expect(shopperPage.getByRole('heading', { name: 'Admin Dashboard' })).toBeVisible();
  const tabsNow = await tabNames(shopperPage);
  expect(tabsNow).not.toContain('Users');
  expect(tabsNow).toContain('Orders');

  // Remove: confirm first; the former admin is sent to the account.
  await page.getByRole('button', { name: `Remove admin privileges of ${shopper.username}` }).click();
  await page.getByRole('dialog', { name: 'Remove Admin' }).getByRole('button', { name: 'Remove Admin' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Admin privileges removed successfully' })).toBeVisible();
  await shopperPage.goto('/admin');
  await expect(shopperPage).toHaveURL(/\/account$/);

  // The audit log shows the three changes.
  const audit = page.getByRole('table', { name: 'Audit log' });
  await page.reload();
  await expect(audit).toContainText('user.demoted');
  await expect(audit).toContainText('user.permissions_updated');
  await expect(audit).toContainText('user.promoted');
  await shopperContext.close();
});

test('dashboard: the cards, the recent orders, the popular pages, and both chart modals', async ({ page }) => {
  await openAdmin(page, owner, 'dashboard');
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
  await expect(page.getByLabel('Time range')).toHaveValue('all');
  await expect(page.getByLabel('Auto-refresh')).toBeChecked();
  await expect(page.getByLabel('Refresh interval')).toHaveValue('30');
  await expect(page.getByText('Total Revenue', { exact: true })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Recent orders' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Popular pages' })).toBeVisible();
  await expectAccessible(page);

  // A range change asks the server again.
  const answered = page.waitForResponse((response) => response.url().includes('/api/admin/dashboard?timeRange=7d'));
  await page.getByLabel('Time range').selectOption('7d');
  expect((await answered).status()).toBe(200);

  await page.getByRole('button', { name: /Profit and revenue chart \(Total Revenue\)/ }).click();
  const profit = page.getByRole('dialog', { name: 'Profit and Revenue' });
  // The chart is drawn: its surface, and a bar for the range's revenue.
  await expect(profit.getByRole('application')).toBeVisible();
  await expect(profit.locator('.recharts-bar-rectangle').first()).toBeVisible();
  await expect(profit.getByText('Profit margin')).toBeVisible();
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(profit).toBeHidden();

  await page.getByRole('button', { name: /Visitor analytics chart \(Visitors\)/ }).click();
  const visitors = page.getByRole('dialog', { name: 'Visitor Analytics' });
  await expect(visitors.getByRole('application')).toBeVisible();
  await expect(visitors.locator('.recharts-line-curve').first()).toBeVisible();
  await visitors.getByText('Show the figures as a table').click();
  await expect(visitors.getByRole('table', { name: 'Page views and visitors' })).toBeVisible();
  await expectAccessible(page);
});

test('settings: a rate limit out of range is refused with the reason; a good save is kept', async ({ page }) => {
  await openAdmin(page, owner, 'settings');
  await expect(page.getByRole('heading', { name: 'Settings', level: 2 })).toBeVisible();
  await expect(page.getByText('The recommended minimums are 100, 50 and 10.')).toBeVisible();
  await expectAccessible(page);

  const general = page.getByLabel('General rate limit (per minute)');
  const before = await general.inputValue();
  await general.fill('5000');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByText('General rate limit (per minute) must be between 1 and 1000')).toBeVisible();
  await expect(general).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await page.reload();
  await expect(page.getByLabel('General rate limit (per minute)')).toHaveValue(before);

  // A save the other browser tests do not notice: the daily order limit, raised and put back.
  const limit = page.getByLabel('Max orders per user (24 hours)');
  const original = await limit.inputValue();
  await limit.fill('25');
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Max orders per user (24 hours)')).toHaveValue('25');
  await page.getByLabel('Max orders per user (24 hours)').fill(original);
  await page.getByRole('button', { name: 'Save Settings' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Settings saved' })).toBeVisible();
  // The secret keys are never shown: the AI key field is a password field and empty.
  await expect(page.getByLabel('AI API key')).toHaveAttribute('type', 'password');
  await expect(page.getByLabel('AI API key')).toHaveValue('');
});

test('reviews tab: flag with a reason, a bulk status change, approve, delete after a confirm', async ({
  page,
  playwright,
}) => {
  test.setTimeout(150_000);
  const { request } = await otherShopper(playwright.request);
  const product = (await (await request.get('/api/products/desktop-fountain')).json()) as { id: string };
  const title = `Quiet mornings ${unique()}`;
  await postReview(request, product.id, { rating: 4, title, content: 'A calm sound that fills the room softly.' });

  await openAdmin(page, owner, 'reviews');
  await expect(page.getByRole('heading', { name: 'Reviews', level: 2 })).toBeVisible();
  await page.getByLabel('Search reviews').fill(title);
  const rows = page.getByRole('table', { name: 'Reviews' }).getByRole('row');
  await expect(rows).toHaveCount(2);
  const row = rows.nth(1);
  await expect(row).toContainText('Approved');
  await expectAccessible(page);

  // Flag: the reason is required.
  await row.getByRole('button', { name: /^Flag the review/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Flag review' });
  await dialog.getByRole('button', { name: 'Flag review' }).click();
  await expect(dialog.getByText('Please give a reason for flagging this review')).toBeVisible();
  await expectAccessible(page);
  await dialog.getByLabel('Reason').fill('Mentions a competitor by name');
  await dialog.getByRole('button', { name: 'Flag review' }).click();
  await expect(dialog).toBeHidden();
  await expect(row).toContainText('Flagged');
  await expect(row).toContainText('Reason: Mentions a competitor by name');
  await expect(row.getByRole('button', { name: /^Flag the review/ })).toBeHidden();

  // Bulk: back to pending; then Approve (shown for pending only).
  await row.getByRole('checkbox').check();
  await page.getByLabel('Set selected reviews to').selectOption('pending');
  await page.getByRole('button', { name: 'Apply to 1 selected' }).click();
  await expect(row).toContainText('Pending');
  await row.getByRole('button', { name: /^Approve the review/ }).click();
  await expect(row).toContainText('Approved');
  await expect(row.getByRole('button', { name: /^Approve the review/ })).toBeHidden();

  // Delete, after the confirm.
  await row.getByRole('button', { name: /^Delete the review/ }).click();
  await page.getByRole('dialog', { name: 'Delete review' }).getByRole('button', { name: 'Delete review' }).click();
  await expect(page.getByText('No reviews found.')).toBeVisible();
  await expectAccessible(page);
});
