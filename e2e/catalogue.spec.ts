import { expect, type Page, test } from '@playwright/test';
import { expectAccessible } from './a11y.ts';

function watchErrors(page: Page) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  return errors;
}

test('the listing sorts by name', async ({ page }) => {
  await page.goto('/products');
  await page.getByLabel('Sort by').selectOption({ label: 'Name A-Z' });
  await expect(page).toHaveURL(/sort=name/);
  // The URL changes before the sorted list arrives: wait for the list itself.
  const titles = () => page.locator('article h3').allTextContents();
  const isSorted = (list: string[]) =>
    list.length === 26 && [...list].sort((a, b) => a.localeCompare(b, 'en')).every((title, i) => title === list[i]);
  await expect.poll(async () => isSorted(await titles())).toBe(true);
  await expectAccessible(page);
  await page.getByLabel('Sort by').selectOption({ label: 'Best Selling' });
  await expect(page.locator('article').first()).toContainText('Bestseller #');
});

test('a product card shows its badges, rating, feature tags and the right button', async ({ page }) => {
  await page.goto('/products?category=fountains');
  const card = page.locator('article', {
    has: page.getByRole('link', { name: 'Desktop Waterfall Fountain with LED Lighting', exact: true }),
  });
  await expect(card).toContainText('-40%');
  await expect(card).toContainText('(70)');
  await expect(card.getByRole('list', { name: 'Features' })).toContainText('Whisper-quie...');
  await expect(card.getByRole('list', { name: 'Features' })).toContainText('+4');
  await expect(card.getByRole('link', { name: 'Select Variant' })).toBeVisible();
  const bamboo = page.locator('article', { hasText: 'Bamboo Tabletop Fountain' });
  await expect(bamboo.getByRole('button', { name: 'Add to Cart' })).toBeVisible();
});

test('open a product, pick variants with the arrow keys, see the stock, add to cart', async ({ page }) => {
  const errors = watchErrors(page);
  await page.goto('/products?search=fontain');
  await page.getByRole('link', { name: 'Desktop Waterfall Fountain with LED Lighting', exact: true }).click();
  await expect(page).toHaveURL(/\/product\/desktop-fountain$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Desktop Waterfall Fountain with LED Lighting');
  await expect(page.getByTestId('price')).toHaveText('$77.99');
  await expect(page.getByText('Save $51.99')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Flash sale' })).toContainText('40% off');
  // The browser's clock fills in the countdown the server leaves out (its page stays cacheable).
  await expect(page.getByTestId('flash-countdown')).toHaveText(/^(\d+d )?\d\d:\d\d:\d\d$/);

  // The first active in-stock variant is preselected.
  const grey = page.getByRole('radio', { name: 'Grey' });
  await expect(grey).toBeChecked();
  await expect(page.getByTestId('stock-status')).toHaveText('In stock');
  await grey.focus();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Beige' })).toBeChecked();
  await page.keyboard.press('ArrowRight');
  await expect(page.getByRole('radio', { name: 'Black' })).toBeChecked();
  await expect(page.getByTestId('stock-status')).toHaveText(/^Only \d+ left in stock$/);
  await expect(page.getByText(/^Only \d+ left!$/)).toBeVisible();
  // The out-of-stock green is skipped: the keys wrap around to grey.
  await page.keyboard.press('ArrowRight');
  await expect(grey).toBeChecked();
  await expect(page.getByRole('radio', { name: /Green/ })).toBeDisabled();

  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByRole('button', { name: 'Added to Cart' })).toBeVisible();
  await expect(page.getByTestId('cart-count')).toHaveText('1');
  await expect(page.getByRole('button', { name: 'Add to Cart' })).toBeVisible({ timeout: 4000 });
  await page.getByRole('button', { name: 'Add to Cart' }).click();
  await expect(page.getByTestId('cart-count')).toHaveText('2');
  const cart = await page.evaluate(() => JSON.parse(localStorage.getItem('stillwater.cart') ?? '[]'));
  expect(cart).toEqual([
    expect.objectContaining({
      title: 'Desktop Waterfall Fountain with LED Lighting',
      price: 77.99,
      quantity: 2,
      variantName: 'Stone Grey',
    }),
  ]);
  // The badge survives a reload.
  await page.reload();
  await expect(page.getByTestId('cart-count')).toHaveText('2');
  expect(errors).toEqual([]);
});

test('the rating summary opens its star breakdown and closes after the mouse leaves', async ({ page }) => {
  await page.goto('/product/desktop-fountain');
  const summary = page.getByRole('button', { name: /4\.\d \(70 reviews\)/ });
  await summary.hover();
  const breakdown = page.locator('#rating-breakdown');
  await expect(breakdown).toBeVisible();
  await expect(breakdown).toContainText('5 star');
  await expect(breakdown.getByRole('link', { name: 'See all reviews' })).toHaveAttribute(
    'href',
    '/product/desktop-fountain/reviews',
  );
  await page.mouse.move(5, 5);
  await expect(breakdown).toBeHidden();
});

test('the product page shows the overview, three reviews and View More', async ({ page }) => {
  await page.goto('/product');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Desktop Waterfall Fountain with LED Lighting');
  await expect(page.getByRole('heading', { name: 'Review overview' })).toBeVisible();
  await expect(page.locator('section[aria-labelledby="reviews-heading"] article')).toHaveCount(3);
  await expect(page.getByRole('link', { name: 'View More (70 reviews)' })).toBeVisible();
});

test('an unknown product shows Product Not Found with a way home', async ({ page }) => {
  const response = await page.goto('/product/no-such-thing');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Product Not Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Return to Home' }).click();
  await expect(page).toHaveURL(/\/$/);
});

test('the home page carousel advances and its reviews scroll', async ({ page }) => {
  await page.goto('/');
  const carousel = page.getByRole('region', { name: 'Desktop Waterfall Fountain with LED Lighting' });
  await expect(carousel.getByRole('button', { name: 'Show image 1 of 3' })).toHaveAttribute('aria-current', 'true');
  await expect(carousel.getByRole('button', { name: 'Show image 2 of 3' })).toHaveAttribute('aria-current', 'true', {
    timeout: 6000,
  });
  const track = page.locator('section[aria-labelledby="reviews-heading"] .will-change-transform');
  // It moves only while on screen.
  await track.scrollIntoViewIfNeeded();
  const first = await track.evaluate((element) => getComputedStyle(element).transform);
  await page.waitForTimeout(500);
  const later = await track.evaluate((element) => getComputedStyle(element).transform);
  expect(later).not.toBe(first);
});

test.describe('on a touch screen', () => {
  test.use({ hasTouch: true });

  test('the reviews strip draws each review once and turns a card to its end on a tap', async ({ page }) => {
    await page.goto('/');
    const strip = page.locator('section[aria-labelledby="reviews-heading"] .will-change-transform');
    await strip.scrollIntoViewIfNeeded();
    const cards = strip.locator(':scope > div');
    const titles = () => cards.locator('h3').allTextContents();
    // The page comes with the first 8 cards and adds the others: in the end, each kept review once.
    const response = await page.request.get('/api/reviews/product/desktop-fountain?limit=60&minRating=4');
    const { reviews } = (await response.json()) as { reviews: { rating: number }[] };
    const kept = reviews.filter((review) => review.rating >= 4.5).length;
    expect(kept).toBeGreaterThan(8);
    await expect(cards).toHaveCount(kept);
    // Many reviews are wider than the strip: no second copy, nothing hidden from screen readers.
    await expect(strip.locator(':scope > div[aria-hidden="true"]')).toHaveCount(0);
    const before = await titles();

    // A tap on the right half moves the strip a card on: the first card goes to the end.
    const box = await strip.locator('xpath=..').boundingBox();
    if (!box) throw new Error('the reviews strip has no box');
    await page.touchscreen.tap(box.x + box.width * 0.75, box.y + box.height / 2);
    await expect.poll(titles).toEqual([...before.slice(1), before[0]]);
    // The offset was shortened with the turn (a card is about 300 px): no jump of a card.
    const offset = await strip.evaluate((element) => new DOMMatrixReadOnly(getComputedStyle(element).transform).m41);
    expect(Math.abs(offset)).toBeLessThan(150);

    // A tap on the left half brings it back to the front.
    await page.touchscreen.tap(box.x + box.width * 0.25, box.y + box.height / 2);
    await expect.poll(titles).toEqual(before);
    await expectAccessible(page);
  });
});

test('pages carry their SEO tags', async ({ page }) => {
  await page.goto('/product/desktop-fountain');
  await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/product\/desktop-fountain$/);
  await expect(page.locator('meta[property="og:title"]')).toHaveAttribute('content', /Desktop Waterfall Fountain/);
  const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent()) ?? '{}');
  expect(jsonLd).toMatchObject({ '@type': 'Product', offers: { price: '77.99', priceCurrency: 'USD' } });
  expect(jsonLd.aggregateRating.reviewCount).toBe(70);
});
