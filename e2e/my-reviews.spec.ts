import { type APIRequestContext, expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';
import {
  expectNoVerifiedBox,
  expectWriteFailures,
  otherShopper,
  postReview,
  type Review,
  reviewFormFields,
  reviewList,
  unique,
} from './reviews.ts';
import { register } from './shopper.ts';

// Spec (storefront): Helpful counts once per view with the count from the server's answer; My
// Reviews lists the user's own reviews, each toggling between view and edit, with delete after a
// confirmation; a review the moderator holds back is shown to its author only. These tests write
// on products no other test counts the reviews of (not the demo fountain, whose 70 reviews other
// tests count, nor the moon lamp or the meditation cushion) and that the stored-XSS test
// (review-xss.spec.ts) leaves alone.

const productReviews = async (request: APIRequestContext, slug: string) =>
  (await reviewList(request, slug, 'limit=100')).reviews;

async function myReviews(request: APIRequestContext) {
  const response = await request.get('/api/reviews/user');
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { reviews: Review[] }).reviews;
}

/** The card of one review on a product page, found by its title. */
const reviewCard = (page: Page, title: string) =>
  page.getByRole('article').filter({ has: page.getByRole('heading', { name: title, exact: true }) });

/** Records every dialog; confirms are answered from a queue (accepted when it is empty). */
function dialogs(page: Page) {
  const seen: string[] = [];
  const answers: boolean[] = [];
  page.on('dialog', async (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    if (dialog.type() === 'confirm' && answers.shift() === false) await dialog.dismiss();
    else await dialog.accept();
  });
  return { seen, answer: (...next: boolean[]) => answers.push(...next) };
}

test('a review is marked helpful once per view, with the count from the answer', async ({ page, playwright }) => {
  const { request: other } = await otherShopper(playwright.request);
  const { review: theirs } = await postReview(other, 'sunrise-alarm-light', {
    rating: 4.6,
    title: `Gentle mornings at last ${unique()}`,
    content: 'The light rises slowly and I wake before the sound. Winter mornings feel kinder.',
  });
  expect(theirs).toMatchObject({ status: 'approved', helpful: 0 });

  await register(page);
  const { review: mine } = await postReview(page.request, 'sunrise-alarm-light', {
    rating: 4,
    title: `My own sunrise notes ${unique()}`,
    content: 'Pleasant light, easy buttons.',
  });
  const votes: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url().endsWith('/helpful')) votes.push(request.url());
  });

  await page.goto('/product/sunrise-alarm-light');
  await expectAccessible(page);
  const helpful = reviewCard(page, theirs.title).getByRole('button', { name: /^Helpful \(\d+\)$/ });
  await expect(helpful).toHaveText('Helpful (0)');
  await expect(helpful).toBeEnabled();
  await helpful.click();
  await expect(helpful).toHaveText('Helpful (1)');
  await expect(helpful).toBeDisabled();
  // Once per view: a second press does nothing.
  await helpful.click({ force: true });
  await expect(helpful).toHaveText('Helpful (1)');
  await expect.poll(() => votes.length).toBe(1);
  await expectAccessible(page);
  // One's own review offers no vote.
  const own = reviewCard(page, mine.title);
  await expect(own).toBeVisible();
  await expect(own.getByRole('button')).toHaveCount(0);

  // A new view may press again; the server counts the shopper once and answers the same count.
  await page.reload();
  await expect(helpful).toHaveText('Helpful (1)');
  await expect(helpful).toBeEnabled();
  await helpful.click();
  await expect(helpful).toBeDisabled();
  await expect(helpful).toHaveText('Helpful (1)');
  // The page's request event may come after the button has changed.
  await expect.poll(() => votes.length).toBe(2);
  expect((await productReviews(page.request, 'sunrise-alarm-light')).find((r) => r.id === theirs.id)?.helpful).toBe(1);

  // A vote that fails says nothing and keeps the count.
  const seen = dialogs(page).seen;
  await page.route('**/api/reviews/*/helpful', (route) => route.abort('failed'));
  await page.reload();
  await expect(helpful).toBeEnabled();
  await helpful.click();
  await expect(helpful).toBeDisabled();
  await expect(helpful).toHaveText('Helpful (1)');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(seen).toEqual([]);
  await other.dispose();
});

test('My Reviews: view, edit with the checks in order, delete after confirming', async ({ page }) => {
  await register(page);
  const original = {
    rating: 4,
    title: `Soft light for late reading ${unique()}`,
    content: 'Warm glow that is gentle on the eyes. The cord switch takes a moment to find.',
  };
  const { review } = await postReview(page.request, 'paper-lantern-pendant', original);
  expect(review.status).toBe('approved');

  await page.goto('/account?tab=reviews');
  await expect(page.getByRole('tab', { name: 'My Reviews' })).toHaveAttribute('aria-selected', 'true');
  const item = page.getByRole('article', { name: original.title });
  await expect(item.getByRole('link', { name: 'Rice Paper Lantern Pendant' })).toHaveAttribute(
    'href',
    '/product/paper-lantern-pendant',
  );
  await expect(item.getByRole('img', { name: '4 out of 5 stars' })).toBeVisible();
  await expect(item).toContainText('4.0');
  await expect(item).toContainText(original.content);
  await expect(item.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  // Public: no moderation status.
  await expect(item).not.toContainText('Pending review');
  await expect(item).not.toContainText('not public');
  await expectAccessible(page);

  // Edit: the form holds the review as it is.
  await item.getByRole('button', { name: 'Edit review' }).click();
  const form = page.getByRole('form', { name: 'Edit your review of Rice Paper Lantern Pendant' });
  const rating = form.getByLabel('Rating (1.0 to 5.0)');
  const { title, content, message, titleCount, contentCount } = reviewFormFields(form);
  const save = form.getByRole('button', { name: 'Save changes' });
  await expect(rating).toHaveValue('4.0');
  await expect(title).toHaveValue(original.title);
  await expect(content).toHaveValue(original.content);
  await expect(titleCount).toHaveText(`${original.title.length}/100 characters`);
  await expect(contentCount).toHaveText(`${original.content.length}/1000 characters`);
  // Not a buyer of the lamp: no Verified Purchase box, a hint instead.
  await expectNoVerifiedBox(form);
  await expectAccessible(page);

  // The checks, in the spec's order: rating, title, content, then the lengths.
  await title.fill('   ');
  await save.click();
  await expect(message).toHaveText('Please enter a review title');
  await expect(title).toBeFocused();
  await expect(title).toHaveAttribute('aria-invalid', 'true');
  await expectAccessible(page);
  await content.fill('');
  await expect(message).toHaveText('Please enter a review title');
  await rating.fill('');
  await expect(message).toHaveText('Please select a rating');
  await rating.fill('4.34');
  await rating.blur();
  await expect(rating).toHaveValue('4.3');
  await expect(message).toHaveText('Please enter a review title');
  await title.fill('Calmer light than I expected');
  await expect(message).toHaveText('Please enter your review');
  await expect(titleCount).toHaveText('28/100 characters');
  await content.fill('a'.repeat(1001));
  await expect(contentCount).toHaveText('1001/1000 characters');
  await expect(message).toHaveText('Review must be at most 1000 characters');
  await title.fill('t'.repeat(101));
  await expect(titleCount).toHaveText('101/100 characters');
  await expect(message).toHaveText('Title must be at most 100 characters');
  await expectAccessible(page);
  // Clamped to 1.0-5.0.
  await rating.fill('7');
  await rating.blur();
  await expect(rating).toHaveValue('5.0');
  await rating.fill('4.3');
  const edited = {
    title: `Calmer light than I expected ${unique()}`,
    content: 'Warm glow that is gentle on the eyes.\nThe cord switch is easy once you know where it is.',
  };
  await title.fill(`  ${edited.title}  `);
  await content.fill(edited.content);
  await expect(message).toHaveCount(0);

  // The server's sentence when it gives one; 'Failed to update review' when it cannot be reached.
  await expectWriteFailures(page, ['PUT', '**/api/reviews/*'], save, message, 'Failed to update review');

  await save.click();
  const updated = page.getByRole('article', { name: edited.title });
  await expect(updated.getByRole('status')).toHaveText('Review updated');
  await expect(updated).toContainText('4.3');
  await expect(updated.getByRole('img', { name: '4.5 out of 5 stars' })).toBeVisible();
  await expect(updated).toContainText('The cord switch is easy once you know where it is.');
  await expect(updated.getByRole('button', { name: 'Edit review' })).toBeFocused();
  await expect(page.getByRole('article', { name: original.title })).toHaveCount(0);
  await expectAccessible(page);
  const [stored] = await myReviews(page.request);
  expect(stored).toMatchObject({ id: review.id, rating: 4.3, title: edited.title, content: edited.content });

  // Cancel leaves the review as it was.
  await updated.getByRole('button', { name: 'Edit review' }).click();
  await form.getByLabel('Title', { exact: true }).fill('Not this');
  await form.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('article', { name: edited.title })).toBeVisible();

  // Delete asks first; a failure is an alert; dismissing the question keeps the review.
  const { seen, answer } = dialogs(page);
  await page.route('**/api/reviews/*', (route) =>
    route.request().method() === 'DELETE' ? route.abort('failed') : route.fallback(),
  );
  answer(true);
  await updated.getByRole('button', { name: 'Delete review' }).click();
  await expect
    .poll(() => seen)
    .toEqual(['confirm: Are you sure you want to delete this review?', 'alert: Failed to delete review']);
  await expect(updated).toBeVisible();
  await page.unroute('**/api/reviews/*');
  answer(false);
  await updated.getByRole('button', { name: 'Delete review' }).click();
  await expect.poll(() => seen.length).toBe(3);
  expect(seen[2]).toBe('confirm: Are you sure you want to delete this review?');
  await expect(updated).toBeVisible();
  expect(await myReviews(page.request)).toHaveLength(1);

  answer(true);
  await updated.getByRole('button', { name: 'Delete review' }).click();
  await expect(updated).toHaveCount(0);
  await expect(page.getByRole('tabpanel').getByRole('status')).toHaveText('Review deleted');
  await expect(page.getByText('You have not written a review yet.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'My reviews' })).toBeFocused();
  expect(seen).toHaveLength(4);
  expect(await myReviews(page.request)).toEqual([]);
  await expectAccessible(page);
  // Reloaded from the server: still gone.
  await page.reload();
  await expect(page.getByText('You have not written a review yet.')).toBeVisible();
});

test('a review the moderator flags is shown to its author only, with its status', async ({ page, browser }) => {
  await register(page);
  const draft = {
    rating: 2,
    title: `Smaller than pictured ${unique()}`,
    content: 'It glows nicely but it is small. visit http://spam.example now',
  };
  const posted = await postReview(page.request, 'himalayan-salt-lamp', draft);
  expect(posted.review.status).toBe('flagged');
  expect(posted.message).toBe('Thank you! Your review will appear once it has been checked.');

  // My Reviews shows it with its status.
  await page.goto('/account?tab=reviews');
  const item = page.getByRole('article', { name: draft.title });
  await expect(item).toContainText('Flagged: not public');
  await expect(item).toContainText(draft.content);
  await expectAccessible(page);

  // The product's reviews hold it for the author (with its status, without a vote)...
  const forAuthor = (await productReviews(page.request, 'himalayan-salt-lamp')).find((r) => r.id === posted.review.id);
  expect(forAuthor).toMatchObject({ isOwn: true, status: 'flagged' });
  await page.goto('/product/himalayan-salt-lamp');
  const card = reviewCard(page, draft.title);
  await expect(card).toContainText('Flagged: not public');
  await expect(card.getByRole('button')).toHaveCount(0);
  await expectAccessible(page);

  // ...and not for a visitor.
  const visitor = await browser.newContext({ baseURL: test.info().project.use.baseURL });
  const visitorPage = await visitor.newPage();
  const forVisitor = await productReviews(visitorPage.request, 'himalayan-salt-lamp');
  expect(forVisitor.map((r) => r.id)).not.toContain(posted.review.id);
  expect(forVisitor.every((r) => r.status === 'approved')).toBe(true);
  await visitorPage.goto('/product/himalayan-salt-lamp');
  await expect(visitorPage.getByRole('heading', { name: 'Customer reviews' })).toBeVisible();
  await expect(reviewCard(visitorPage, draft.title)).toHaveCount(0);
  await expect(visitorPage.getByText('Flagged: not public')).toHaveCount(0);
  await expectAccessible(visitorPage);

  // Edited without the link, it is checked again and becomes public.
  await page.goto('/account?tab=reviews');
  await item.getByRole('button', { name: 'Edit review' }).click();
  await page.getByLabel('Review', { exact: true }).fill('It glows nicely but it is smaller than the photos suggest.');
  await page.getByRole('button', { name: 'Save changes' }).click();
  const saved = page.getByRole('article', { name: draft.title });
  await expect(saved.getByRole('status')).toHaveText('Review updated');
  await expect(saved).not.toContainText('not public');
  await expectAccessible(page);
  expect((await productReviews(visitorPage.request, 'himalayan-salt-lamp')).map((r) => r.id)).toContain(
    posted.review.id,
  );
  await visitor.close();
});
