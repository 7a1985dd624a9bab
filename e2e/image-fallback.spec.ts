import { expect, type Locator, type Page, test } from '@playwright/test';
import { PLACEHOLDER_IMAGE } from '../common/images.ts';
import { expectAccessible } from './a11y.ts';

// Spec: images that fail to load fall back to a placeholder, whether they fail in the server's
// HTML before the app hydrates the page or later (a lazy image scrolled into view).

/**
 * Fails the test on any error the page logs or throws (hydration mismatches included), except
 * the browser's own "Failed to load resource" for the requests the test makes fail.
 */
function watchErrors(page: Page, failing: RegExp) {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !failing.test(message.location().url)) errors.push(message.text());
  });
  return errors;
}

/** Makes every request for the matching images fail, as a broken image host would. */
async function failImages(page: Page, failing: RegExp) {
  const failed: string[] = [];
  await page.route(failing, (route) => {
    failed.push(route.request().url());
    return route.abort('failed');
  });
  return failed;
}

/** Holds the page's scripts back until `release` is called: the page stays as the server rendered it. */
async function holdScripts(page: Page) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/.+\.js$/, async (route) => {
    await released;
    await route.fallback();
  });
  return release;
}

/** Whether the app has hydrated (taken over) the page of this element (web/root.tsx marks it). */
const hydrated = (image: Locator) =>
  image.evaluate((element) => element.ownerDocument.documentElement.hasAttribute('data-hydrated'));

/** What the image shows: its URL, whether it decoded, and its srcset. */
const shown = (image: Locator) =>
  image.evaluate((element) => {
    const img = element as HTMLImageElement;
    return {
      src: new URL(img.currentSrc || img.src).pathname,
      decoded: img.complete && img.naturalWidth > 0,
      srcset: img.getAttribute('srcset'),
    };
  });

const cases = [
  {
    name: 'a product card of the listing',
    path: '/products',
    failing: /\/media\/products\/moving-sand-art-frame\//,
    image: (page: Page) => page.locator('article:has(a[href="/product/moving-sand-art-frame"]) img'),
    alt: '',
  },
  {
    name: "the product page's main image",
    path: '/product/desktop-fountain',
    failing: /\/media\/products\/desktop-fountain\/sku-/,
    image: (page: Page) => page.getByRole('img', { name: 'Desktop Waterfall Fountain with LED Lighting' }),
    alt: 'Desktop Waterfall Fountain with LED Lighting',
  },
  {
    name: "the home page's hero carousel",
    path: '/',
    failing: /\/media\/products\/desktop-fountain\/1-/,
    // The first of its images, whichever it shows: after hydration it advances every few seconds.
    image: (page: Page) =>
      page.getByRole('region', { name: 'Desktop Waterfall Fountain with LED Lighting' }).locator('img').first(),
    alt: 'Desktop Waterfall Fountain with LED Lighting',
    rotates: true,
  },
];

for (const { name, path, failing, image: find, alt, rotates } of cases) {
  test(`${name} that fails before hydration shows the placeholder, and the app keeps it`, async ({ page }) => {
    const errors = watchErrors(page, failing);
    const failed = await failImages(page, failing);
    const release = await holdScripts(page);
    await page.goto(path, { waitUntil: 'commit' });
    const image = find(page);
    // Before any of the page's scripts ran, the server-rendered image already fell back.
    await expect.poll(() => shown(image)).toMatchObject({ src: PLACEHOLDER_IMAGE, decoded: true, srcset: null });
    expect(failed.length).toBeGreaterThan(0);
    expect(await hydrated(image)).toBe(false);
    // Alt text and dimensions (no layout shift) are the server's.
    const box = await image.evaluate((element) => {
      const img = element as HTMLImageElement & { serverRendered?: boolean };
      img.serverRendered = true;
      return { alt: img.getAttribute('alt'), width: img.getAttribute('width'), height: img.getAttribute('height') };
    });
    expect(box.alt).toBe(alt);
    expect(box.width).not.toBeNull();
    expect(box.height).not.toBeNull();

    release();
    await expect.poll(() => hydrated(image)).toBe(true);
    // The same element was hydrated (no mismatch made the app render it anew), and it keeps the placeholder.
    expect(await image.evaluate((element) => (element as { serverRendered?: boolean }).serverRendered)).toBe(true);
    await expect.poll(() => shown(image)).toEqual({ src: PLACEHOLDER_IMAGE, decoded: true, srcset: null });
    // The carousel gives its alt text to the image it shows; elsewhere the alt text stays.
    if (!rotates) expect(await image.getAttribute('alt')).toBe(alt);
    expect(errors).toEqual([]);
    await expectAccessible(page);
  });
}

test('the gallery tries its other images after a failure before hydration, and falls back again', async ({ page }) => {
  const failing = /\/media\/products\/desktop-fountain\/sku-/;
  const errors = watchErrors(page, failing);
  await failImages(page, failing);
  const release = await holdScripts(page);
  await page.goto('/product/desktop-fountain', { waitUntil: 'commit' });
  const main = page.getByRole('img', { name: 'Desktop Waterfall Fountain with LED Lighting' });
  await expect.poll(async () => (await shown(main)).src).toBe(PLACEHOLDER_IMAGE);
  release();
  await expect.poll(() => hydrated(main)).toBe(true);

  // Another image loads in the same element...
  await page.getByRole('button', { name: 'Show image 2 of 4' }).click();
  await expect.poll(() => shown(main)).toMatchObject({ src: expect.stringMatching(/^\/media\//), decoded: true });
  // ...and the failing one, shown again after hydration, falls back again (the app knew it failed).
  await page.getByRole('button', { name: 'Show image 1 of 4' }).click();
  await expect.poll(() => shown(main)).toEqual({ src: PLACEHOLDER_IMAGE, decoded: true, srcset: null });
  expect(errors).toEqual([]);
  await expectAccessible(page);
});

test('a lazy image that fails after hydration, scrolled into view, shows the placeholder', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  const errors = watchErrors(page, /\/media\/products\//);
  await page.goto('/products');
  const card = page.locator('article').last();
  const image = card.locator('img');
  await expect.poll(() => hydrated(image)).toBe(true);
  const href = await card.getByRole('link').first().getAttribute('href');
  const slug = href?.replace('/product/', '');
  expect(slug).toBeTruthy();
  const folder = `/media/products/${slug}/`;
  // Far below the fold, the lazy image has not been requested yet.
  expect(await image.getAttribute('loading')).toBe('lazy');
  expect(requested.filter((url) => url.includes(folder))).toEqual([]);

  const failed = await failImages(page, new RegExp(folder));
  await image.scrollIntoViewIfNeeded();
  await expect.poll(() => shown(image)).toEqual({ src: PLACEHOLDER_IMAGE, decoded: true, srcset: null });
  expect(failed.length).toBeGreaterThan(0);
  expect(await image.getAttribute('alt')).toBe('');
  expect(await image.getAttribute('width')).toBe('800');
  expect(errors).toEqual([]);
  await expectAccessible(page);
});
