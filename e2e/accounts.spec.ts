import { expect, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { latestMailTo } from './mailbox.ts';
import { register, signIn, signOut } from './shopper.ts';

test('register with live validation and the strength meter, then sign out', async ({ page }) => {
  await page.goto('/register');
  const submit = page.getByRole('button', { name: 'Create account' });
  await page.getByLabel('Username', { exact: true }).fill('ab');
  await expect(page.getByText('Username must be at least 3 characters')).toBeVisible();
  await page.getByLabel('Username', { exact: true }).fill('site_admin');
  await expect(page.getByText('Username contains restricted words')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill('sunshine');
  await expect(page.getByTestId('strength-label')).toHaveText('Weak');
  await page.getByLabel('Password', { exact: true }).fill('Sunshine7!');
  await expect(page.getByTestId('strength-label')).toHaveText('Strong');
  await page.getByLabel('Confirm password', { exact: true }).fill('Sunshine7?');
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await expect(submit).toBeDisabled();
  await expectAccessible(page);

  const account = await register(page);
  await expect(page.getByRole('heading', { name: 'My account' })).toBeVisible();
  await expect(page.getByText(`Signed in as ${account.username}`)).toBeVisible();
  await expect(page.getByRole('button', { name: account.username })).toBeVisible();
  await expectAccessible(page);
  await signOut(page);
  await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toBeVisible();
  await expectAccessible(page);
  // A signed-out visitor on the account page is sent to sign in.
  await page.goto('/account');
  await expect(page).toHaveURL(/\/login\?redirect=%2Faccount$/);
});

test('sign in comes back to the protected page it was sent from', async ({ page }) => {
  const account = await register(page);
  await signOut(page);
  await page.goto('/account?tab=orders');
  await expect(page).toHaveURL(/\/login\?redirect=%2Faccount%3Ftab%3Dorders$/);
  await signIn(page, { email: account.email, password: 'wrong-password' });
  await expect(page.getByRole('alert')).toHaveText('Invalid email or password');
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Show password' }).click();
  await expect(page.getByLabel('Password', { exact: true })).toHaveAttribute('type', 'text');
  await signIn(page, account);
  await expect(page).toHaveURL(/\/account\?tab=orders$/);
  await expect(page.getByRole('tab', { name: 'Order History' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('No orders yet.')).toBeVisible();
  // Signed in, the sign-in page sends to the account.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/account$/);
});

for (const target of ['https://evil.example', '//evil.example', '/%2F%2Fevil.example', 'javascript:alert(1)']) {
  test(`an unsafe redirect (${target}) never leaves the site after sign-in`, async ({ page }) => {
    const account = await register(page);
    await signOut(page);
    await page.goto(`/login?redirect=${encodeURIComponent(target)}`);
    await signIn(page, account);
    await expect(page).toHaveURL(/\/account$/);
    expect(new URL(page.url()).host).toBe(new URL(test.info().project.use.baseURL ?? '').host);
  });
}

test('the full password reset flow, with the link from the mail', async ({ page }) => {
  const account = await register(page);
  await signOut(page);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/request-password-reset$/);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('alert')).toHaveText('Email is required');
  await expectAccessible(page);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByRole('status')).toContainText('a password reset link is on its way');

  const mail = await latestMailTo(account.email);
  const link = /https?:\/\/\S+\/reset-password\?token=[\w-]+/.exec(mail)?.[0];
  expect(link).toBeTruthy();
  await page.goto(new URL(link as string).pathname + new URL(link as string).search);
  await expect(page.getByText(`For ${account.email}`)).toBeVisible();
  await page.getByLabel('New Password', { exact: true }).fill('short');
  await page.getByLabel('Confirm New Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password must be at least 8 characters long');
  await expectAccessible(page);
  await page.getByLabel('New Password', { exact: true }).fill('Fresh-Start-2026');
  await page.getByRole('button', { name: 'Show new password', exact: true }).click();
  await page.getByLabel('Confirm New Password', { exact: true }).fill('Fresh-Start-2026');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('status')).toContainText('Your password has been reset');
  await expect(page).toHaveURL(/\/login$/, { timeout: 5000 });
  await signIn(page, { email: account.email, password: 'Fresh-Start-2026' });
  await expect(page).toHaveURL(/\/account$/);

  // The link works once.
  await page.goto(new URL(link as string).pathname + new URL(link as string).search);
  await expect(page.getByRole('heading', { name: 'Invalid Reset Link' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Request New Reset Link' })).toBeVisible();
  await expectAccessible(page);
});

test('the account tabs: profile edit, reviews, orders and password change', async ({ page }) => {
  const account = await register(page);
  await page.getByRole('button', { name: 'Edit profile' }).click();
  const renamed = `${account.username}_x`.slice(0, 30);
  await page.getByLabel('Username', { exact: true }).fill(renamed);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Profile updated')).toBeVisible();
  await expect(page.getByText(`Signed in as ${renamed}`)).toBeVisible();

  await page.getByRole('tab', { name: 'My Reviews' }).click();
  await expect(page.getByText('You have not written a review yet.')).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('tab', { name: 'Order History' }).click();
  await expect(page.getByText('No orders yet.')).toBeVisible();
  await expectAccessible(page);

  await page.getByRole('tab', { name: 'Security' }).click();
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByLabel('Current password', { exact: true }).fill(account.password);
  await page.getByLabel('New password', { exact: true }).fill('Another-Calm-9');
  await page.getByLabel('Confirm new password', { exact: true }).fill('Another-Calm-8');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('alert')).toHaveText('New passwords do not match');
  await expectAccessible(page);
  await page.getByLabel('Confirm new password', { exact: true }).fill('Another-Calm-9');
  await page.getByRole('button', { name: 'Change password' }).click();
  await expect(page.getByRole('status')).toContainText('Password changed');
  await signOut(page);
  await page.goto('/login');
  await signIn(page, { email: account.email, password: 'Another-Calm-9' });
  await expect(page).toHaveURL(/\/account$/);
});
