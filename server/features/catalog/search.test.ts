import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { newId } from '#server/db/ids.ts';
import { createRunningSales } from '#server/features/marketing/marketing.service.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { composeSearchText, createCatalogService } from './catalog.service.ts';
import { products, searchWords } from './catalog.tables.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());
const runningSales = createRunningSales({ db });
const catalog = createCatalogService({ db, runningSales });
const firstPage = { page: 1, limit: 24 };
const slugsFound = async (term: string, service = catalog) =>
  (await service.searchProducts(term, firstPage)).products.map((product) => product.slug);

async function addProduct(title: string, sales = 0) {
  const id = newId();
  await db.insert(products).values({
    id,
    slug: `search-${id}`,
    title,
    price: 1000,
    sales,
    searchText: composeSearchText({ title, tags: [], categories: [], description: '' }),
  });
  return `search-${id}`;
}

describe('search: typos are matched against the known words', () => {
  test('a new product brings its words: its typo finds it at once', async () => {
    const slug = await addProduct('Zanzibarite Worry Stone');
    expect(await db.select().from(searchWords).where(eq(searchWords.word, 'zanzibarite'))).toHaveLength(1);
    expect(await slugsFound('zanzibarit')).toEqual([slug]);
    expect(await slugsFound('zanzibrite stone')).toEqual([slug]);
  });

  test('an edited text brings its new words; its old ones still match nothing wrongly', async () => {
    const slug = await addProduct('Quillwort Bookmark');
    await db
      .update(products)
      .set({
        searchText: composeSearchText({ title: 'Vellichor Bookmark', tags: [], categories: [], description: '' }),
      })
      .where(eq(products.slug, slug));
    expect(await slugsFound('velichor')).toEqual([slug]);
    expect(await slugsFound('quillwort')).toEqual([]);
  });

  test('stop words are skipped; a term of stop words alone finds nothing', async () => {
    expect(await slugsFound('the fountain')).toContain('desktop-fountain');
    expect(await slugsFound('the')).toEqual([]);
    expect((await catalog.searchProducts('of and', firstPage)).pagination.total).toBe(0);
  });

  test('every word must match: a second word found nowhere leaves nothing', async () => {
    expect(await slugsFound('fountain')).toContain('desktop-fountain');
    expect(await slugsFound('fountain xylophone')).toEqual([]);
  });
});

describe('search: a common word ranks its best-selling matches only', () => {
  test('past the cap, the best sellers among the matches are ranked and counted', async () => {
    const capped = createCatalogService({ db, runningSales, searchCandidates: 2 });
    const quiet = await addProduct('Marimbaphone Chime', 1);
    const popular = await addProduct('Marimbaphone Bell', 500);
    const steady = await addProduct('Marimbaphone Gong', 40);
    expect(new Set(await slugsFound('marimbaphone'))).toEqual(new Set([quiet, popular, steady]));
    const { products: found, pagination } = await capped.searchProducts('marimbaphone', firstPage);
    expect(new Set(found.map((product) => product.slug))).toEqual(new Set([popular, steady]));
    expect(pagination).toEqual({ page: 1, pages: 1, total: 2, limit: 24 });
    // A page past the end still says how many there are.
    expect((await capped.searchProducts('marimbaphone', { page: 3, limit: 1 })).pagination).toEqual({
      page: 3,
      pages: 2,
      total: 2,
      limit: 1,
    });
  });
});
