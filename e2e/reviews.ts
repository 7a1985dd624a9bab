import { type APIRequest, type APIRequestContext, expect, type Locator, type Page, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import { newAccount } from './shopper.ts';

/** A review as the API answers it (the fields the browser tests read). */
export type Review = {
  id: string;
  productId: string;
  rating: number;
  title: string;
  content: string;
  helpful: number;
  isOwn: boolean;
  status: string;
};

export type ReviewDraft = { rating: number; title: string; content: string };

export const VERIFIED_HINT = 'The Verified Purchase mark is for shoppers who ordered this product.';

/** A few random characters that keep a title apart from those of other runs. */
export const unique = () => Math.random().toString(36).slice(2, 8);

/** A CSRF token for this request context's cookie (valid for its writes for two hours). */
export async function csrfToken(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/auth/csrf-token');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { token: string }).token;
}

/** A new shopper, registered through the API in this request context, which is then signed in. */
export async function registerThroughApi(request: APIRequestContext, account = newAccount()) {
  const response = await request.post('/api/auth/register', {
    data: { username: account.username, email: account.email, password: account.password },
    headers: { 'x-csrf-token': await csrfToken(request) },
  });
  expect(response.status(), await response.text()).toBe(201);
  return account;
}

/** Another shopper, registered and signed in through the API in a request context of their own. */
export async function otherShopper(api: APIRequest) {
  const request = await api.newContext({ baseURL: test.info().project.use.baseURL });
  const account = await registerThroughApi(request);
  return { request, account };
}

/**
 * Posts a review through the API with a CSRF token, as the storefront does (`csrf` saves fetching
 * one for each of many posts).
 */
export async function postReview(
  request: APIRequestContext,
  productId: string,
  draft: ReviewDraft,
  { csrf }: { csrf?: string } = {},
) {
  const response = await request.post('/api/reviews', {
    data: { productId, rating: draft.rating, title: draft.title, content: draft.content, verified: false },
    headers: { 'x-csrf-token': csrf ?? (await csrfToken(request)) },
  });
  expect(response.status(), `posting ${JSON.stringify(draft.title)}: ${await response.text()}`).toBe(201);
  return (await response.json()) as { message: string; review: Review };
}

/** A product's reviews as the API lists them to this request context's viewer. */
export async function reviewList(request: APIRequestContext, slug: string, query = '') {
  const response = await request.get(`/api/reviews/product/${slug}?${query}`);
  expect(response.ok()).toBe(true);
  return (await response.json()) as { reviews: Review[]; pagination: { total: number; pages: number } };
}

/** The fields of a review form (the write page's or the My Reviews editor's) that both share. */
export function reviewFormFields(form: Locator) {
  return {
    title: form.getByLabel('Title', { exact: true }),
    content: form.getByLabel('Review', { exact: true }),
    message: form.getByRole('alert'),
    titleCount: form.getByText(/^\d+\/100 characters$/),
    contentCount: form.getByText(/^\d+\/1000 characters$/),
  };
}

/** A shopper who has not bought the product: no Verified Purchase box, the hint instead. */
export async function expectNoVerifiedBox(form: Locator) {
  await expect(form.getByRole('checkbox')).toHaveCount(0);
  await expect(form.getByText(VERIFIED_HINT)).toBeVisible();
}

/**
 * A review form's answer to a refused write (`method` on `url`, sent with `button`): the server's
 * sentence when it gives one, `fallback` when the server cannot be reached, each in the form's
 * `message` (then checked by axe).
 */
export async function expectWriteFailures(
  page: Page,
  [method, url]: [string, string],
  button: Locator,
  message: Locator,
  fallback: string,
) {
  await page.route(url, (route) =>
    route.request().method() === method
      ? route.fulfill({ status: 503, json: { error: 'Reviews are resting for a minute', code: 'unavailable' } })
      : route.fallback(),
  );
  await button.click();
  await expect(message).toHaveText('Reviews are resting for a minute');
  await page.unroute(url);
  await page.route(url, (route) => (route.request().method() === method ? route.abort('failed') : route.fallback()));
  await button.click();
  await expect(message).toHaveText(fallback);
  await expectAccessible(page);
  await page.unroute(url);
}
