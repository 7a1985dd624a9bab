import { expect, type Page } from '@playwright/test';
import { expectAccessible } from './a11y.ts';

let counter = 0;

/** A new shopper's sign-in, unique across workers and runs. */
export function newAccount() {
  const id = `${Date.now().toString(36)}${(++counter).toString(36)}${Math.floor(Math.random() * 1e4)}`;
  return { username: `calm_${id}`, email: `calm.${id}@example.com`, password: 'Quiet-Water-42' };
}

/** Registers through the page (checked by axe first) and lands on the account. */
export async function register(page: Page, account = newAccount()) {
  await page.goto('/register');
  await expectAccessible(page);
  await page.getByLabel('Username', { exact: true }).fill(account.username);
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
  // A registration hashes the password (argon2id, 19 MiB) and renders the account on the server,
  // while the other worker's tests share the two cores: once in four CI passes it took over the
  // default 5 s (stop 36). A shopper's registration alone takes well under a second.
  await expect(page).toHaveURL(/\/account$/, { timeout: 15_000 });
  return account;
}

/** Fills and sends the sign-in form of the page the browser is on. */
export async function signIn(page: Page, account: { email: string; password: string }) {
  await page.getByLabel('Email', { exact: true }).fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs out from the account page and lands on the logged-out page. */
export async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/logout$/);
  await expect(page.getByRole('heading', { name: "You've been logged out" })).toBeVisible();
}
