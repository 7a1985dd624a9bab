import { readFile } from 'node:fs/promises';
import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { openAdmin, owner } from './admin.ts';
import { latestMailTo } from './mailbox.ts';
import { unique } from './reviews.ts';

const subscribersTable = (page: Page) => page.getByRole('table', { name: 'Newsletter subscribers' });
const bodyRows = (page: Page) => subscribersTable(page).locator('tbody tr');

/** Signs an address up as the footer form does (the API, with its CSRF token). */
async function subscribe(page: Page, email: string) {
  const { token } = (await (await page.request.get('/api/auth/csrf-token')).json()) as { token: string };
  const answer = await page.request.post('/api/newsletter/subscribe', {
    data: { email },
    headers: { 'x-csrf-token': token },
  });
  expect(answer.status()).toBe(200);
}

test('newsletter tab: search, status filter, sort, deactivate and activate, delete after a confirm, CSV', async ({
  page,
}) => {
  const email = `calm-reader-${unique()}@example.com`;
  await subscribe(page, email);
  await openAdmin(page, owner, 'newsletter');
  await expect(page.getByRole('heading', { name: 'Newsletter', level: 2 })).toBeVisible();
  await expect(bodyRows(page).first()).toBeVisible();
  // Newest first: the address just signed up is on top, give or take one that another test
  // signed up at the same moment.
  await expect(bodyRows(page).nth(0).or(bodyRows(page).nth(1)).filter({ hasText: email })).toHaveCount(1);
  await expectAccessible(page);

  // Sorting by email: a new column starts descending in this list (spec 4), a second press flips it.
  const emailHeader = subscribersTable(page).getByRole('columnheader', { name: /^Email/ });
  const emailsInOrder = (order: 'asc' | 'desc') => async () => {
    const emails = await subscribersTable(page).locator('tbody tr td:first-child').allInnerTexts();
    return (
      emails.length > 1 &&
      emails.every((text, index) => {
        const before = emails[index - 1];
        return before === undefined || (order === 'asc' ? before <= text : before >= text);
      })
    );
  };
  await subscribersTable(page)
    .getByRole('button', { name: /^Email/ })
    .click();
  await expect(emailHeader).toHaveAttribute('aria-sort', 'descending');
  await expect.poll(emailsInOrder('desc')).toBe(true);
  await subscribersTable(page)
    .getByRole('button', { name: /^Email/ })
    .click();
  await expect(emailHeader).toHaveAttribute('aria-sort', 'ascending');
  await expect.poll(emailsInOrder('asc')).toBe(true);

  // Search finds the one address; Deactivate, then the Inactive filter holds it; Activate again.
  await page.getByLabel('Search subscribers').fill(email);
  await expect(bodyRows(page)).toHaveCount(1);
  const row = bodyRows(page).first();
  await expect(row).toContainText('Active');
  await row.getByRole('button', { name: `Deactivate ${email}` }).click();
  await expect(row).toContainText('Inactive');
  await page.getByLabel('Status').selectOption('inactive');
  await expect(bodyRows(page)).toHaveCount(1);
  await page.getByLabel('Status').selectOption('active');
  await expect(subscribersTable(page)).toContainText('No subscribers found.');
  await page.getByLabel('Status').selectOption('');
  await row.getByRole('button', { name: `Activate ${email}` }).click();
  await expect(row.getByRole('button', { name: `Deactivate ${email}` })).toBeVisible();

  // The CSV holds what the list shows.
  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Export CSV' }).click(),
  ]);
  expect(csv.suggestedFilename()).toBe('subscribers.csv');
  const lines = (await readFile(await csv.path(), 'utf8'))
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines).toHaveLength(2);
  expect(lines[1]).toContain(email);

  // Delete asks first; Cancel keeps the address, confirming removes it.
  await row.getByRole('button', { name: `Delete ${email}` }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete subscriber' });
  await expect(confirm.getByText(`Delete ${email} from the newsletter?`)).toBeVisible();
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(bodyRows(page)).toHaveCount(1);
  await row.getByRole('button', { name: `Delete ${email}` }).click();
  await page
    .getByRole('dialog', { name: 'Delete subscriber' })
    .getByRole('button', { name: 'Delete subscriber' })
    .click();
  await expect(subscribersTable(page)).toContainText('No subscribers found.');
});

test('newsletter tab: the send modal requires both fields, previews, tests, then sends with progress', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const email = `send-reader-${unique()}@example.com`;
  await subscribe(page, email);
  await openAdmin(page, owner, 'newsletter');
  await page.getByRole('button', { name: 'Send Newsletter' }).click();
  const dialog = page.getByRole('dialog', { name: 'Send Newsletter' });
  await dialog.getByRole('button', { name: 'Send to all active subscribers' }).click();
  await expect(dialog.getByRole('alert')).toHaveText('Please fill in both subject and content');
  await expectAccessible(page);

  const subject = `Quiet evenings ${unique()}`;
  await dialog.getByLabel('Subject').fill(subject);
  await dialog.getByLabel('Content').fill('New lanterns have arrived.\n\nA calm light for long evenings.');
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByRole('heading', { name: `Preview: ${subject}` })).toBeVisible();
  await expect(dialog.locator('pre')).toContainText('New lanterns have arrived.');
  await expect(dialog.locator('pre')).toContainText('/newsletter/unsubscribe?token=');
  await expectAccessible(page);

  await dialog.getByRole('button', { name: 'Send test to me' }).click();
  await expect(dialog.getByRole('status')).toContainText(owner.email);
  expect(await latestMailTo(owner.email)).toContain('New lanterns have arrived.');

  await dialog.getByRole('button', { name: 'Send to all active subscribers' }).click();
  await expect(dialog).toHaveCount(0);
  const progress = page.getByRole('region', { name: 'Latest newsletter' });
  await expect(progress).toContainText(subject);
  // Every active subscriber, the new address included, gets it; the progress reaches the total.
  await expect(progress.getByText(/^(\d+) \/ \1 sent$/)).toBeVisible({ timeout: 60_000 });
  // Only the send's state is announced (not every count): now that it is sent.
  await expect(progress.getByRole('status')).toHaveText(new RegExp(`^“${subject}” was sent`));
  const mail = await latestMailTo(email);
  expect(mail).toContain('A calm light for long evenings.');
  expect(mail).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click/m);
  await expectAccessible(page);
});
