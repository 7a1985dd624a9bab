import { expect, type Page } from '@playwright/test';
import { signIn } from './shopper.ts';

/** The owner of the test shop (e2e/serve.ts). */
export const owner = { email: 'owner@stillwater.test', password: 'e2e-owner-password' };

/** Signs in from the login page and opens the back office on a tab, checked by axe. */
export async function openAdmin(page: Page, account: { email: string; password: string }, tab = 'dashboard') {
  await page.goto(`/login?redirect=${encodeURIComponent(`/admin?tab=${tab}`)}`);
  await signIn(page, account);
  await expect(page).toHaveURL(new RegExp(`/admin\\?tab=${tab}$`));
  await expect(page.getByRole('heading', { name: 'Admin Dashboard', level: 1 })).toBeVisible();
}

/** The names of the tabs the back office offers this admin, in order. */
export async function tabNames(page: Page): Promise<string[]> {
  const tabs = page.getByRole('tablist', { name: 'Back office' }).getByRole('tab');
  await expect(tabs.first()).toBeVisible();
  return tabs.allInnerTexts();
}
