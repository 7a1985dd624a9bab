import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import {
  expectNoVerifiedBox,
  expectWriteFailures,
  otherShopper,
  postReview,
  type Review,
  registerThroughApi,
  reviewFormFields,
  reviewList,
  unique,
} from './reviews.ts';
import { register, signIn } from './shopper.ts';

// Spec (storefront): the reviews list (/product/{slug}/reviews: sort, star filters, a pinned
// review, the thank-you banner, infinite scroll of 10 a page with an end-of-list message) and the
// write-review page (/product/{slug}/review/new, login required: the form's checks in order,
// counters, the Verified Purchase box for buyers only). The demo fountain has 70 public reviews;
// the moon lamp none of 1 star (seed/reviews.ts). Writing uses the meditation cushion.

const FOUNTAIN = 'desktop-fountain';
const WRITTEN = 'meditation-cushion';

const listItems = (page: Page) => page.getByRole('list', { name: 'Reviews' }).getByRole('listitem');
const shownCount = (page: Page) => page.getByText(/^Showing \d+ of \d+ reviews$/);
const endOfList = (page: Page) => page.getByText("You've reached the end of the reviews.");

/** The star ratings of the listed reviews, as their stars say (to the nearest half). */
async function listedStars(page: Page): Promise<number[]> {
  const labels = await listItems(page)
    .getByRole('img', { name: /out of 5 stars$/ })
    .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('aria-label') ?? ''));
  return labels.map((label) => Number.parseFloat(label));
}

test('a shopper writes a review: checks in order, counters and limits, no Verified box without an order, the thank-you', async ({
  page,
}) => {
  await register(page);
  await page.goto(`/product/${WRITTEN}/review/new`);
  await expect(page).toHaveTitle('Write a review of Buckwheat Meditation Cushion · Stillwater');
  await expect(page.getByRole('heading', { level: 1, name: 'Write a review' })).toBeVisible();
  const product = page.getByRole('region', { name: /Meditation Cushion/ });
  await expect(product.getByRole('img', { name: /Meditation Cushion/ })).toBeVisible();
  await expect(product.getByRole('paragraph').first()).not.toBeEmpty();
  await expectAccessible(page);

  const form = page.getByRole('form', { name: 'Your review' });
  const rating = form.getByLabel('Rating value');
  const slider = form.getByRole('slider', { name: 'Rating slider' });
  const { title, content, message, titleCount, contentCount } = reviewFormFields(form);
  const submit = form.getByRole('button', { name: 'Submit Review' });

  // No order of the cushion: a hint instead of the box.
  await expectNoVerifiedBox(form);
  await expect(titleCount).toHaveText('0/100 characters');
  await expect(contentCount).toHaveText('0/1000 characters');
  await expect(slider).toHaveAttribute('aria-valuetext', 'No rating selected');

  // The checks, in the spec's order, above the form, with the field in question focused.
  await submit.click();
  await expect(message).toHaveText('Please select a rating');
  await expect(rating).toBeFocused();
  await expect(rating).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  // Clamped to 1.0-5.0 in steps of 0.1; the stars show the nearest half.
  await rating.fill('7');
  await rating.blur();
  await expect(rating).toHaveValue('5.0');
  await expect(form.getByRole('img', { name: '5 out of 5 stars' })).toBeVisible();
  await rating.fill('4.26');
  await rating.blur();
  await expect(rating).toHaveValue('4.3');
  await expect(slider).toHaveValue('4.3');
  await expect(slider).toHaveAttribute('aria-valuetext', '4.3 out of 5');
  await expect(form.getByRole('img', { name: '4.5 out of 5 stars' })).toBeVisible();
  // The slider and the field follow each other (keyboard on the slider).
  await slider.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(rating).toHaveValue('4.2');
  await expect(form.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();

  await expect(message).toHaveText('Please enter a review title');
  await title.fill('   ');
  await submit.click();
  await expect(message).toHaveText('Please enter a review title');
  await expect(title).toBeFocused();
  const reviewTitle = `Keeps my back straight ${unique()}`;
  await title.fill(`  ${reviewTitle}  `);
  await expect(titleCount).toHaveText(`${reviewTitle.length + 4}/100 characters`);
  await expect(message).toHaveText('Please enter your review');
  await submit.click();
  await expect(content).toBeFocused();
  await expectAccessible(page);

  // The limits hold: no more than 100 and 1000 characters (an emoji counts as one).
  await title.fill('t'.repeat(120));
  await expect(title).toHaveValue('t'.repeat(100));
  await expect(titleCount).toHaveText('100/100 characters');
  await title.pressSequentially('x');
  await expect(title).toHaveValue('t'.repeat(100));
  await content.fill('🌊'.repeat(1005));
  await expect(contentCount).toHaveText('1000/1000 characters');
  await title.fill(`  ${reviewTitle}  `);
  const reviewContent =
    'Firm buckwheat fill, a cover that washes well.\nTwenty minutes each morning without fidgeting.';
  await content.fill(`\n${reviewContent}  `);
  await expect(message).toHaveCount(0);

  // The server's sentence when it gives one; 'Failed to submit review' when it cannot be reached.
  await expectWriteFailures(page, ['POST', '**/api/reviews'], submit, message, 'Failed to submit review');

  const posted = page.waitForResponse(
    (response) => response.url().endsWith('/api/reviews') && response.request().method() === 'POST',
  );
  await submit.click();
  const answer = await posted;
  expect(answer.status(), await answer.text()).toBe(201);
  const sent = answer.request().postDataJSON() as Record<string, unknown>;
  expect(sent).toMatchObject({ productId: WRITTEN, rating: 4.2, title: reviewTitle, content: reviewContent });
  expect(sent.verified).toBe(false);
  expect(typeof sent.customerName).toBe('string');
  const { message: thanks } = (await answer.json()) as { message: string };
  await expect(page).toHaveURL(`/product/${WRITTEN}/reviews?success=true`);
  await expect(page.getByRole('status').filter({ hasText: thanks })).toBeVisible();
  await expectAccessible(page);

  // One review per product: the write page says so instead of offering a form bound to fail.
  await page.goto(`/product/${WRITTEN}/review/new`);
  await expect(page.getByRole('status')).toHaveText('You have already reviewed this product.');
  await expect(page.getByRole('form', { name: 'Your review' })).toHaveCount(0);
  await expectAccessible(page);

  // Back and Cancel lead to the product's reviews; an unknown product is not found.
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page).toHaveURL(`/product/${WRITTEN}/reviews`);
  const missing = await page.goto('/product/no-such-product/review/new');
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'Product Not Found' })).toBeVisible();
  await expectAccessible(page);
});

test('a review is pinned on top by its id, with a clear button', async ({ page }) => {
  // A shopper signed in through the API of the page's own context, who posts a review there.
  await registerThroughApi(page.request);
  const reviewTitle = `Keeps my back straight ${unique()}`;
  const { review } = await postReview(page.request, WRITTEN, {
    rating: 4.2,
    title: reviewTitle,
    content: 'Firm buckwheat fill, a cover that washes well.\nTwenty minutes each morning without fidgeting.',
  });

  // The review pinned by its id, on top and labelled, with a clear button.
  await page.goto(`/product/${WRITTEN}/reviews?review=${review.id}`);
  const pinned = page.getByRole('region', { name: 'Showing specific review' });
  await expect(pinned.getByRole('heading', { name: reviewTitle })).toBeVisible();
  await expect(pinned).toContainText('Twenty minutes each morning without fidgeting.');
  await expect(listItems(page).filter({ hasText: reviewTitle })).toHaveCount(0);
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expectAccessible(page);
  await pinned.getByRole('button', { name: 'Clear specific review' }).click();
  await expect(page).toHaveURL(`/product/${WRITTEN}/reviews`);
  await expect(pinned).toHaveCount(0);
  await expect(listItems(page).filter({ hasText: reviewTitle })).toHaveCount(1);
  await expectAccessible(page);
});

test('the star bars, the rating checkboxes and the sort change the list, kept in the URL and starting at page 1', async ({
  page,
}) => {
  const summary = (await (await page.request.get(`/api/reviews/rating/${FOUNTAIN}`)).json()) as {
    totalReviews: number;
    ratingBreakdown: Record<string, number>;
  };
  expect(summary.totalReviews).toBeGreaterThanOrEqual(70);

  await page.goto(`/product/${FOUNTAIN}/reviews`);
  await expect(page).toHaveTitle('Reviews of Desktop Waterfall Fountain with LED Lighting · Stillwater');
  await expect(page.locator('meta[name="robots"]')).toHaveCount(0);
  await expect(listItems(page)).toHaveCount(10);
  await expect(shownCount(page)).toHaveText(`Showing 10 of ${summary.totalReviews} reviews`);
  await expectAccessible(page);

  // A star bar shows only that star; pressed again, every star.
  const fiveStars = page.getByRole('button', { name: /^5 stars\W+\d+ reviews/ });
  await fiveStars.click();
  await expect(page).toHaveURL(`/product/${FOUNTAIN}/reviews?ratings=5`);
  await expect(fiveStars).toHaveAttribute('aria-pressed', 'true');
  await expect(shownCount(page)).toHaveText(`Showing 10 of ${summary.ratingBreakdown[5]} reviews`);
  for (const stars of await listedStars(page)) expect(stars).toBeGreaterThanOrEqual(4.5);
  await expect(page.getByRole('checkbox', { name: '5 stars' })).toBeChecked();
  await expectAccessible(page);
  await fiveStars.click();
  await expect(page).toHaveURL(`/product/${FOUNTAIN}/reviews`);
  await expect(fiveStars).toHaveAttribute('aria-pressed', 'false');

  // The checkboxes choose several stars.
  await page.getByRole('checkbox', { name: '1 star', exact: true }).check();
  await page.getByRole('checkbox', { name: '2 stars' }).check();
  await expect(page).toHaveURL(`/product/${FOUNTAIN}/reviews?ratings=1%2C2`);
  const low = (summary.ratingBreakdown[1] ?? 0) + (summary.ratingBreakdown[2] ?? 0);
  await expect(listItems(page)).toHaveCount(low);
  for (const stars of await listedStars(page)) expect(stars).toBeLessThan(3);
  await expect(endOfList(page)).toBeVisible();
  await expectAccessible(page);
  await page.getByRole('checkbox', { name: '1 star', exact: true }).uncheck();
  await page.getByRole('checkbox', { name: '2 stars' }).uncheck();
  await expect(page).toHaveURL(`/product/${FOUNTAIN}/reviews`);

  // The sort: lowest rated first, kept in the URL as sortBy and order.
  const sort = page.getByLabel('Sort by');
  await sort.selectOption({ label: 'Lowest rated' });
  await expect(page).toHaveURL(`/product/${FOUNTAIN}/reviews?sortBy=rating&order=asc`);
  await expect(shownCount(page)).toHaveText(`Showing 10 of ${summary.totalReviews} reviews`);
  const ascending = await listedStars(page);
  expect(ascending).toEqual([...ascending].sort((a, b) => a - b));
  expect(ascending[0]).toBeLessThan(2);

  // A second page, then a new sort: back to page 1.
  // (With the end of the list in view, scrolling may load a page or two more by itself.)
  await page.getByRole('button', { name: 'Load more reviews' }).click();
  await expect.poll(() => listItems(page).count()).toBeGreaterThanOrEqual(20);
  // Back at the top (where the sort is), so the end of the short new list is out of view.
  await page.evaluate(() => window.scrollTo(0, 0));
  await sort.selectOption({ label: 'Most helpful' });
  await expect(page).toHaveURL(`/product/${FOUNTAIN}/reviews?sortBy=helpful&order=desc`);
  await expect(listItems(page)).toHaveCount(10);
  const helpful = await listItems(page)
    .getByRole('button', { name: /^Helpful \(\d+\)/ })
    .evaluateAll((nodes) => nodes.map((node) => Number(/\((\d+)\)/.exec(node.textContent ?? '')?.[1])));
  expect(helpful).toHaveLength(10);
  expect(helpful).toEqual([...helpful].sort((a, b) => b - a));
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  await expectAccessible(page);

  // Sorted and filtered from the URL on the server, as a shared link would open it.
  await page.goto(`/product/${FOUNTAIN}/reviews?sortBy=rating&order=desc&ratings=4,x,9`);
  await expect(sort).toHaveValue('highest');
  await expect(page.getByRole('checkbox', { name: '4 stars' })).toBeChecked();
  await expect(shownCount(page)).toHaveText(`Showing 10 of ${summary.ratingBreakdown[4]} reviews`);

  // A review from deep in the list, pinned on top for a visitor, not repeated below.
  const { reviews: third } = await reviewList(page.request, FOUNTAIN, 'page=3&limit=10');
  const deep = third[4] as Review;
  await page.goto(`/product/${FOUNTAIN}/reviews?review=${deep.id}`);
  const pinned = page.getByRole('region', { name: 'Showing specific review' });
  await expect(pinned.getByRole('heading', { level: 3 })).toHaveText(deep.title);
  await expect(listItems(page)).toHaveCount(9);
  await expect(shownCount(page)).toHaveText(`Showing 10 of ${summary.totalReviews} reviews`);
  await expectAccessible(page);
  // An id that is not 16 hex characters pins nothing.
  await page.goto(`/product/${FOUNTAIN}/reviews?review=${deep.id.slice(1)}`);
  await expect(pinned).toHaveCount(0);
  await expect(listItems(page)).toHaveCount(10);
});

test('no reviews for the filters: the message and Clear all filters', async ({ page }) => {
  // The moon lamp has no 1-star review.
  await page.goto('/product/moon-lamp/reviews?ratings=1');
  await expect(page.getByText('No reviews found with the current filters.')).toBeVisible();
  await expect(listItems(page)).toHaveCount(0);
  await expectAccessible(page);
  await page.getByRole('button', { name: 'Clear all filters' }).click();
  await expect(page).toHaveURL('/product/moon-lamp/reviews');
  await expect(listItems(page).first()).toBeVisible();
  await expect(page.getByRole('checkbox', { name: '1 star', exact: true })).not.toBeChecked();
});

test('scrolling loads 10 more at a time, with a loading state, until the end-of-list message', async ({ page }) => {
  // A slower API in the browser, so the loading state can be seen.
  await page.route('**/api/reviews/product/**', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.fallback();
  });
  await page.goto(`/product/${FOUNTAIN}/reviews`);
  await expect(listItems(page)).toHaveCount(10);
  const total = Number(/of (\d+) reviews/.exec((await shownCount(page).textContent()) ?? '')?.[1]);
  expect(total).toBeGreaterThanOrEqual(70);
  await expect(endOfList(page)).toHaveCount(0);

  let shown = 10;
  while (shown < total) {
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    if (shown === 10) await expect(page.getByRole('status').filter({ hasText: 'Loading more…' })).toBeVisible();
    await expect.poll(() => listItems(page).count()).toBeGreaterThan(shown);
    shown = await listItems(page).count();
    expect(shown === total || shown % 10 === 0, `${shown} shown: whole pages of 10`).toBe(true);
  }
  await expect(endOfList(page)).toBeVisible();
  await expect(shownCount(page)).toHaveText(`Showing ${total} of ${total} reviews`);
  await expect(page.getByRole('button', { name: 'Load more reviews' })).toHaveCount(0);
  // Every review once.
  const titles = await listItems(page).getByRole('heading', { level: 3 }).allTextContents();
  const { reviews: all } = await reviewList(page.request, FOUNTAIN, 'limit=100');
  expect(titles.sort()).toEqual(all.map((r) => r.title).sort());
  await expectAccessible(page);
});

test('without IntersectionObserver, the Load more button pages by keyboard and retries a failure', async ({ page }) => {
  await page.addInitScript(() => {
    // biome-ignore lint/suspicious/noExplicitAny: removing a browser feature for the test.
    delete (window as any).IntersectionObserver;
  });
  await page.goto(`/product/${FOUNTAIN}/reviews`);
  await expect(listItems(page)).toHaveCount(10);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  const more = page.getByRole('button', { name: 'Load more reviews' });
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(listItems(page)).toHaveCount(20);
  // The focus goes on to the first new review.
  await expect(listItems(page).nth(10)).toBeFocused();
  await expectAccessible(page);

  await page.route('**/api/reviews/product/**', (route) => route.abort('failed'));
  await more.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('status').filter({ hasText: 'Failed to fetch reviews' })).toBeVisible();
  const retry = page.getByRole('button', { name: 'Try again' });
  await expect(retry).toBeFocused();
  await expect(listItems(page)).toHaveCount(20);
  await expectAccessible(page);
  await page.unroute('**/api/reviews/product/**');
  await page.keyboard.press('Enter');
  await expect(listItems(page)).toHaveCount(30);
});

test("a visitor's Post a Review goes to sign in and on to the form", async ({ page, playwright }) => {
  // Registered through the API in a request context of its own: the page stays a visitor.
  const { request, account } = await otherShopper(playwright.request);
  await request.dispose();
  await page.goto(`/product/${WRITTEN}/reviews`);
  await page.getByRole('link', { name: 'Post a Review' }).click();
  await expect(page).toHaveURL(`/login?redirect=${encodeURIComponent(`/product/${WRITTEN}/review/new`)}`);
  await expectAccessible(page);
  await signIn(page, account);
  await expect(page).toHaveURL(`/product/${WRITTEN}/review/new`);
  await expect(page.getByRole('form', { name: 'Your review' })).toBeVisible();
  await page.getByRole('link', { name: '← Back to reviews' }).click();
  await expect(page).toHaveURL(`/product/${WRITTEN}/reviews`);
  // Signed in, the button leads straight to the form, saying so while the page checks the session
  // (its data answers a little late here, so the message can be seen).
  await page.route('**/review/new.data*', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, 400));
    await route.fallback();
  });
  await page.getByRole('link', { name: 'Post a Review' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Checking authentication...' })).toBeVisible();
  await expect(page).toHaveURL(`/product/${WRITTEN}/review/new`);
  await expect(page.getByRole('form', { name: 'Your review' })).toBeVisible();
  await expect(page.getByText('Checking authentication...')).toHaveCount(0);
  await page.unroute('**/review/new.data*');

  // The write page itself, opened by a visitor, asks to sign in first (coming back afterwards).
  const visitor = await page.context().browser()?.newPage();
  if (!visitor) throw new Error('no browser');
  await visitor.goto(`${test.info().project.use.baseURL}/product/${FOUNTAIN}/review/new`);
  await expect(visitor).toHaveURL(/\/login\?redirect=%2Fproduct%2Fdesktop-fountain%2Freview%2Fnew$/);
  await visitor.close();
});

test('an unknown product has no reviews page', async ({ page }) => {
  const response = await page.goto('/product/no-such-product/reviews');
  expect(response?.status()).toBe(404);
  await expect(page).toHaveTitle('Product Not Found · Stillwater');
  await expect(page.getByRole('heading', { level: 1, name: 'Product Not Found' })).toBeVisible();
  await expectAccessible(page);
});
