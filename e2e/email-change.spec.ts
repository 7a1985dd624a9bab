import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { latestMailTo } from './mailbox.ts';
import { register, signIn } from './shopper.ts';

/** The path and query of the first link to `page` in a mail, to open on the test server. */
function linkIn(mail: string, page: string): string {
  const link = new RegExp(`https?://\\S+/${page}\\?token=[\\w-]+`).exec(mail)?.[0];
  expect(link, `a /${page} link in the mail`).toBeTruthy();
  const url = new URL(link as string);
  return url.pathname + url.search;
}

test('a session alone cannot change the email', async ({ page }) => {
  const account = await register(page);
  const { token } = (await (await page.request.get('/api/auth/csrf-token')).json()) as { token: string };
  const response = await page.request.put('/api/auth/profile', {
    headers: { 'x-csrf-token': token },
    data: { username: account.username, email: `other.${account.email}` },
  });
  expect(response.status()).toBe(400);
  expect(await response.json()).toMatchObject({ field: 'currentPassword' });
  const me = (await (await page.request.get('/api/auth/me')).json()) as { user: { email: string } };
  expect(me.user.email).toBe(account.email);
});

test('changing the email needs the password and a confirmation from the new address', async ({ page }) => {
  // Two mailboxes, three sign-ins and an axe run on every page.
  test.slow();
  const account = await register(page);
  const newEmail = `moved.${account.email}`;
  const profile = page.getByRole('tabpanel');
  await expectAccessible(page);

  // Only a different address asks for the password (case and spaces do not count).
  await page.getByRole('button', { name: 'Edit profile' }).click();
  const emailField = page.getByLabel('Email', { exact: true });
  const password = page.getByLabel('Current password', { exact: true });
  await emailField.fill(` ${account.email.toUpperCase()} `);
  await expect(password).toBeHidden();
  await emailField.fill(newEmail);
  await expect(password).toBeVisible();
  await expect(password).toHaveAttribute('autocomplete', 'current-password');
  await expect(emailField).toHaveAccessibleDescription(/open the link we send to the new address/);
  await expectAccessible(page);

  // Without the password.
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(password).toHaveAttribute('aria-invalid', 'true');
  await expect(password).toHaveAccessibleDescription('Enter your current password to change your email');
  await expect(password).toBeFocused();
  await expectAccessible(page);

  // With a wrong one.
  await password.fill('Not-The-Password-1');
  await expect(password).not.toHaveAttribute('aria-invalid', 'true');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(password).toHaveAccessibleDescription('Current password is incorrect');
  await expect(password).toBeFocused();

  // With the right one: the change waits for the new address, the account keeps the old one.
  await password.fill(account.password);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(profile.getByRole('status')).toContainText(newEmail);
  await expect(profile.getByText(account.email, { exact: true })).toBeVisible();
  await expect(profile.getByText(`Waiting for confirmation: ${newEmail}`)).toBeVisible();
  await expectAccessible(page);
  const me = (await (await page.request.get('/api/auth/me')).json()) as { user: { email: string } };
  expect(me.user.email).toBe(account.email);

  // The old address is told, without a link that would confirm the change.
  await expect.poll(() => latestMailTo(account.email), { timeout: 10_000 }).toContain(newEmail);
  const notice = await latestMailTo(account.email);
  expect(notice).not.toMatch(/verify-email\?token=/);

  // The link from the new address's mail confirms it.
  const confirmation = await latestMailTo(newEmail);
  expect(confirmation).toMatch(/^Subject: .*confirm/im);
  const link = linkIn(confirmation, 'verify-email');
  await page.goto(link);
  await expect(page.getByRole('status')).toContainText(newEmail);
  await expectAccessible(page);
  await page.getByRole('link', { name: 'Go to your account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(profile.getByText(newEmail, { exact: true })).toBeVisible();
  await expect(profile.getByText(account.email, { exact: true })).toBeHidden();
  await expect(profile.getByText(/Waiting for confirmation/)).toBeHidden();
  await expectAccessible(page);
  // ...and the old address hears that it changed.
  await expect.poll(() => latestMailTo(account.email), { timeout: 10_000 }).not.toBe(notice);

  // The old address no longer signs in; the new one does.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/logout$/);
  await expectAccessible(page);
  await page.goto('/login');
  await signIn(page, account);
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await expectAccessible(page);
  await signIn(page, { email: newEmail, password: account.password });
  await expect(page).toHaveURL(/\/account$/);
  await expect(profile.getByText(newEmail, { exact: true })).toBeVisible();

  // The link works once.
  await page.goto(link);
  await expect(page.getByRole('alert')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to your account' })).toBeHidden();
  await expectAccessible(page);
});
