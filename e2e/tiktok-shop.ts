import type { Page } from '@playwright/test';
import { expectAccessible } from './a11y.ts';

/*
 * The TikTok Shop tab's browser tests run against the sandbox stand-in the server uses when
 * TikTok Shop is not configured (issue 14): its authorise page and seller centre are ours.
 */

const AUTHORIZE_PAGE = /\/sandbox\/tiktok-shop\/open\/authorize\?/;

/**
 * The authorisation comes back to the shop's public address (PUBLIC_URL, by default
 * http://localhost:{port}, which the test server keeps), and the OAuth state is bound to the
 * session, whose cookie belongs to the host signed in on: these tests use the shop at that address.
 */
const shopOrigin = `http://localhost:${process.env.E2E_PORT ?? 3100}`;
export const atShopOrigin = {
  baseURL: shopOrigin,
  storageState: {
    cookies: [],
    origins: [
      { origin: shopOrigin, localStorage: [{ name: 'stillwater.cookieConsent', value: '{"accepted":false}' }] },
    ],
  },
};

/** A message of the tab's flash region (errors are alerts, successes statuses). */
export const flash = (page: Page, text: string) =>
  page.getByRole(/^(Authorization|Failed|Please|TikTok Shop error)/.test(text) ? 'alert' : 'status').filter({
    hasText: text,
  });

/** Connect: the popup opens the channel's authorise page, checked by axe; answers the popup. */
export async function openAuthorisation(page: Page) {
  const opened = page.waitForEvent('popup');
  await page.getByRole('button', { name: 'Connect', exact: true }).click();
  const popup = await opened;
  await popup.waitForURL(AUTHORIZE_PAGE);
  await expectAccessible(popup);
  return popup;
}
