import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import ExcelJS from 'exceljs';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner } from './admin.ts';

type ListedOrder = { orderNumber: string; status: string; total: number; items: unknown[] };

const ordersTable = (page: Page) => page.getByRole('table', { name: 'Orders' });
const bodyRows = (page: Page) => ordersTable(page).locator('tbody tr');
/** The totals shown in the table, in cents. */
const shownTotals = (page: Page) =>
  ordersTable(page)
    .locator('tbody tr td:nth-child(4)')
    .allInnerTexts()
    .then((texts) => texts.map((text) => Math.round(Number(text.replace(/[^\d.]/g, '')) * 100)));

/** Every order the admin list holds for these filters, read page by page through the API. */
async function listedOrders(page: Page, query: string): Promise<ListedOrder[]> {
  const all: ListedOrder[] = [];
  for (let number = 1; ; number++) {
    const answer = await page.request.get(`/api/admin/orders?${query}&page=${number}&limit=50`);
    expect(answer.status()).toBe(200);
    const { orders, pagination } = (await answer.json()) as {
      orders: ListedOrder[];
      pagination: { pages: number };
    };
    all.push(...orders);
    if (number >= pagination.pages) return all;
  }
}

test('orders tab: search, status filter, sort, Load More and the detail modal', async ({ page }) => {
  await openAdmin(page, owner, 'orders');
  await expect(page.getByRole('heading', { name: 'Orders', level: 2 })).toBeVisible();
  await expect(bodyRows(page)).toHaveCount(10);
  await expect(page.getByText(/^Showing 10 of \d+$/)).toBeVisible();
  await expectAccessible(page);

  // Load More appends the next page.
  await page.getByRole('button', { name: 'Load More' }).click();
  await expect.poll(() => bodyRows(page).count()).toBeGreaterThanOrEqual(20);

  // The status filter starts again at page 1 and shows that status only.
  await page.getByLabel('Status').selectOption('cancelled');
  await expect(page.getByText(/^Showing \d+ of \d+$/)).toBeVisible();
  const cancelled = await listedOrders(page, 'statusFilter=cancelled');
  expect(cancelled.length).toBeGreaterThan(0);
  await expect(bodyRows(page)).toHaveCount(Math.min(10, cancelled.length));
  for (const status of await ordersTable(page).locator('tbody tr td:nth-child(5)').allInnerTexts()) {
    expect(status.trim()).toBe('Cancelled');
  }
  await page.getByLabel('Status').selectOption('');

  // Sorting by total: the header starts ascending, a second press flips it.
  const totalHeader = ordersTable(page).getByRole('button', { name: /^Total/ });
  await totalHeader.click();
  await expect(ordersTable(page).getByRole('columnheader', { name: /^Total/ })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  await expect(bodyRows(page)).toHaveCount(10);
  await expect
    .poll(async () => {
      const totals = await shownTotals(page);
      return totals.every((total, index) => index === 0 || (totals[index - 1] ?? 0) <= total);
    })
    .toBe(true);
  await totalHeader.click();
  await expect(ordersTable(page).getByRole('columnheader', { name: /^Total/ })).toHaveAttribute(
    'aria-sort',
    'descending',
  );
  await expect
    .poll(async () => {
      const totals = await shownTotals(page);
      return totals.every((total, index) => index === 0 || (totals[index - 1] ?? 0) >= total);
    })
    .toBe(true);

  // Searching by an order number finds that order alone.
  const [biggest] = await listedOrders(page, 'sortBy=total&sortOrder=desc').then((orders) => orders.slice(0, 1));
  if (!biggest) throw new Error('the demo shop has orders');
  await page.getByLabel('Search orders').fill(biggest.orderNumber);
  await expect(bodyRows(page)).toHaveCount(1);
  await expect(bodyRows(page)).toContainText(biggest.orderNumber);

  // The detail modal: every field, read-only, and the focus goes back to View.
  const view = page.getByRole('button', { name: `View order ${biggest.orderNumber}` });
  await view.click();
  const dialog = page.getByRole('dialog', { name: `Order ${biggest.orderNumber}` });
  // (The dialog's own element has no box of its own: its panel is fixed, so check what it holds.)
  await expect(dialog.getByRole('table', { name: `Items of order ${biggest.orderNumber}` })).toBeVisible();
  await expect(dialog.getByRole('table').locator('tbody tr')).toHaveCount(biggest.items.length);
  for (const term of ['Status', 'Placed', 'Customer', 'Shipping address', 'Payment', 'Tracking number']) {
    await expect(dialog.getByText(term, { exact: true })).toBeVisible();
  }
  await expect(dialog.getByRole('heading', { name: 'Fulfilment' })).toBeVisible();
  await expect(dialog.getByText('Order placed')).toBeVisible();
  // No control changes the status.
  await expect(dialog.getByRole('combobox')).toHaveCount(0);
  await expectAccessible(page);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(view).toBeFocused();

  // A search that matches nothing says so.
  await page.getByLabel('Search orders').fill('no such order anywhere');
  await expect(ordersTable(page)).toContainText('No orders found.');
});

test('orders tab: the XLSX and CSV downloads hold the orders the list shows for its filters', async ({ page }) => {
  await openAdmin(page, owner, 'orders');
  await page.getByLabel('Status').selectOption('cancelled');
  const listed = await listedOrders(page, 'statusFilter=cancelled');
  const lineCount = listed.reduce((count, order) => count + order.items.length, 0);
  const numbers = new Set(listed.map((order) => order.orderNumber));

  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Download XLSX' }).click(),
  ]);
  expect(xlsx.suggestedFilename()).toBe('orders.xlsx');
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile(await xlsx.path());
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('the workbook has a sheet');
  // A header row, then one row per order line.
  expect(sheet.actualRowCount).toBe(lineCount + 1);
  const inSheet = new Set<string>();
  sheet.eachRow((row, index) => {
    if (index > 1) inSheet.add(String(row.getCell(1).value));
  });
  expect(inSheet).toEqual(numbers);

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe('orders.csv');
  const text = await readFile(await csv.path(), 'utf8');
  expect(text.startsWith('\uFEFF')).toBe(true);
  const lines = text.slice(1).trimEnd().split('\r\n');
  expect(lines).toHaveLength(lineCount + 1);
  expect(new Set(lines.slice(1).map((line) => line.split(',')[0]))).toEqual(numbers);
  await expectAccessible(page);
});
