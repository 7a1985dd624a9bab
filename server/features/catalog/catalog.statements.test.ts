import { expect, test } from 'vitest';
import { buildTestApp } from '#server/testing/test-app.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';

// A page of products is one statement whatever the page holds: at a million products the
// process, not the database, was the limit, and each statement costs it a round trip.
const statements: string[] = [];
const database = await createTestDatabase({ logQuery: (sql) => statements.push(sql) });
const { app } = await buildTestApp({ database });

async function statementsOf(url: string) {
  // Sales are read once and kept; the first read of each kind warms them.
  const before = statements.length;
  const response = await app.inject({ method: 'GET', url });
  expect(response.statusCode, url).toBe(200);
  return statements.slice(before).filter((sql) => !/pgboss/i.test(sql));
}

test('a product, a listing page and a search page each read their products in one statement', async () => {
  await statementsOf('/api/products/lavender-sleep-mist');
  const product = await statementsOf('/api/products/desktop-fountain');
  expect(product).toHaveLength(1);
  expect(product[0]).toMatch(/json_agg/);

  const listing = await statementsOf('/api/products?page=2&limit=10');
  // The page's products, and the listing's total from its rollup.
  expect(listing).toHaveLength(2);

  const search = await statementsOf('/api/products/search/fountain');
  // The words close to the term's, the ranking, then the page's products.
  expect(search).toHaveLength(3);
  // The term's other pages slice the kept ranking: their products alone.
  const secondPage = await statementsOf('/api/products/search/Fountain?page=2&limit=1');
  expect(secondPage).toHaveLength(1);
  expect(secondPage[0]).toMatch(/json_agg/);
});
