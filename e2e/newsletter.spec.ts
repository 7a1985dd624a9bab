import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { newsletterMessages } from '../common/contracts/newsletter.ts';
import { expectAccessible } from './a11y.ts';
import { owner } from './admin.ts';
import { latestMailTo } from './mailbox.ts';
import { csrfToken, unique } from './reviews.ts';
import { signIn } from './shopper.ts';

// The settings these tests turn (double opt-in, the newsletter itself) and the owner's own
// subscription are the whole shop's: one test at a time.
test.describe.configure({ mode: 'serial' });

/**
 * The path and query of the first link to the page `path` in a mail, to open on the test server
 * (not the API's one-click address of the List-Unsubscribe header, which ends the same way).
 */
function linkIn(mail: string, path: string): string {
  const urls = [...mail.matchAll(/https?:\/\/[^\s<>"]+\?token=[\w-]+/g)].map((match) => new URL(match[0]));
  const url = urls.find((candidate) => candidate.pathname === path);
  expect(url, `a ${path} link in the mail`).toBeTruthy();
  return `${url?.pathname}${url?.search}`;
}

/** The footer's sign-up form of the page the browser is on. */
function footerSignup(page: Page) {
  const footer = page.getByRole('contentinfo');
  return {
    email: footer.getByLabel('Newsletter: your email address', { exact: true }),
    subscribe: footer.getByRole('button', { name: 'Subscribe' }),
    // A polite live region (not the status role, which stays the page's own) for every answer.
    answer: footer.locator('#newsletter-answer[aria-live="polite"]'),
  };
}

/** Saves settings as the owner through the API, in a request context of its own. */
async function ownerSettings(request: APIRequestContext) {
  const login = await request.post('/api/auth/login', {
    data: owner,
    headers: { 'x-csrf-token': await csrfToken(request) },
  });
  expect(login.status(), await login.text()).toBe(200);
  return async (changes: Record<string, boolean>) => {
    const response = await request.post('/api/admin/settings', {
      data: changes,
      headers: { 'x-csrf-token': await csrfToken(request) },
    });
    expect(response.status(), await response.text()).toBe(200);
  };
}

test('footer sign-up: a bad address is named, a good one thanked, the same answer again', async ({ page }) => {
  await page.goto('/');
  const signup = footerSignup(page);
  await expectAccessible(page);

  // No address, then a bad one: the server's reason, at the field.
  await signup.subscribe.click();
  await expect(signup.answer).toContainText(/email/i);
  await signup.email.fill('not-an-email');
  await signup.subscribe.click();
  await expect(signup.answer).toContainText(/email/i);
  await expect(signup.email).toHaveAttribute('aria-invalid', 'true');
  await expect(signup.email).toHaveAttribute('aria-describedby', 'newsletter-answer');
  await expect(page).toHaveURL('/');
  await expectAccessible(page);

  const address = `footer.${unique()}@example.com`;
  await signup.email.fill(address);
  await signup.subscribe.click();
  await expect(signup.answer).toHaveText(newsletterMessages.subscribed);
  await expect(signup.email).toHaveValue('');
  await expect(signup.email).not.toHaveAttribute('aria-invalid');
  await expectAccessible(page);

  // An address already subscribed hears the same sentence: nothing tells who is on the list.
  await page.goto('/products');
  await signup.email.fill(address.toUpperCase());
  await signup.subscribe.click();
  await expect(signup.answer).toHaveText(newsletterMessages.subscribed);
});

test('double opt-in: the mailed link confirms once; a bad link says so', async ({ page, playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  const save = await ownerSettings(request);
  const address = `optin.${unique()}@example.com`;
  await page.goto('/');
  const signup = footerSignup(page);
  await signup.email.fill(address);
  // Registration reads the same setting: it is on only for the time of this one sign-up.
  await save({ requireEmailVerification: true });
  try {
    await signup.subscribe.click();
    await expect(signup.answer).toHaveText(newsletterMessages.confirmationSent);
  } finally {
    await save({ requireEmailVerification: false });
    await request.dispose();
  }
  await expectAccessible(page);

  const confirmLink = linkIn(await latestMailTo(address), '/newsletter/confirm');
  await page.goto(confirmLink);
  await expect(page).toHaveTitle('Confirm your subscription · Stillwater');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  // Opening the link confirms nothing (mail scanners open links): the button does.
  const confirmButton = page.getByRole('button', { name: 'Confirm subscription' });
  await expectAccessible(page);
  await confirmButton.click();
  await expect(page.getByRole('status').filter({ hasText: newsletterMessages.confirmed })).toBeVisible();
  await expectAccessible(page);

  // The link works once.
  await page.reload();
  await confirmButton.click();
  await expect(page.getByRole('alert')).toHaveText(newsletterMessages.confirmationInvalid);
  await expectAccessible(page);

  // A malformed token and no token at all are the same bad link to the reader.
  await page.goto('/newsletter/confirm?token=not%20a%20token');
  await confirmButton.click();
  await expect(page.getByRole('alert')).toHaveText(newsletterMessages.confirmationInvalid);
  await page.goto('/newsletter/confirm');
  await expect(page.getByRole('alert')).toHaveText(newsletterMessages.confirmationInvalid);
  await expect(confirmButton).toHaveCount(0);
  await expectAccessible(page);
});

test('a signed-in shopper subscribes; the newsletter link unsubscribes only at the button', async ({ page }) => {
  await page.goto('/login');
  await signIn(page, owner);
  await expect(page).not.toHaveURL(/\/login/);
  const signup = footerSignup(page);
  await signup.email.fill(owner.email);
  await signup.subscribe.click();
  await expect(signup.answer).toHaveText(newsletterMessages.subscribed);
  await expectAccessible(page);

  // A test send reaches the owner's own address with their own unsubscribe link.
  const sent = await page.request.post('/api/admin/newsletter/test', {
    data: { subject: `Spring ${unique()}`, content: 'New fountains have arrived.' },
    headers: { 'x-csrf-token': await csrfToken(page.request) },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const link = linkIn(await latestMailTo(owner.email), '/newsletter/unsubscribe');

  const isActive = async () => {
    const response = await page.request.get(`/api/admin/newsletter?search=${encodeURIComponent(owner.email)}`);
    const { subscribers } = (await response.json()) as { subscribers: { email: string; isActive: boolean }[] };
    return subscribers.find((row) => row.email.toLowerCase() === owner.email)?.isActive;
  };

  // Opening the page (as a mail scanner would) changes nothing.
  await page.goto(link);
  await expect(page).toHaveTitle('Unsubscribe from the newsletter · Stillwater');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  const button = page.getByRole('button', { name: 'Unsubscribe', exact: true });
  await expect(button).toBeVisible();
  await expectAccessible(page);
  expect(await isActive()).toBe(true);

  await button.click();
  await expect(page.getByRole('status').filter({ hasText: newsletterMessages.unsubscribed })).toBeVisible();
  await expect(button).toBeHidden();
  expect(await isActive()).toBe(false);
  await expectAccessible(page);

  // A token that names no one, and a malformed one, get the bad link's sentence.
  for (const token of ['f'.repeat(32), 'short']) {
    await page.goto(`/newsletter/unsubscribe?token=${token}`);
    await page.getByRole('button', { name: 'Unsubscribe', exact: true }).click();
    await expect(page.getByRole('alert'), token).toHaveText(newsletterMessages.unsubscribeInvalid);
  }
  await expectAccessible(page);
  await page.goto('/newsletter/unsubscribe');
  await expect(page.getByRole('alert')).toHaveText(newsletterMessages.unsubscribeInvalid);
  await expect(page.getByRole('button', { name: 'Unsubscribe', exact: true })).toBeHidden();
});

test('with the newsletter off, the footer offers no sign-up', async ({ page, playwright, baseURL }) => {
  const request = await playwright.request.newContext({ baseURL });
  const save = await ownerSettings(request);
  // The checkout's newsletter box reads the same setting: it is off only for this one look.
  await save({ enableNewsletter: false });
  try {
    await page.goto('/');
    await expect(page.getByRole('contentinfo').getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(footerSignup(page).subscribe).toHaveCount(0);
    await expect(footerSignup(page).email).toHaveCount(0);
  } finally {
    await save({ enableNewsletter: true });
    await request.dispose();
  }
  await expectAccessible(page);
  await page.reload();
  await expect(footerSignup(page).subscribe).toBeVisible();
});
