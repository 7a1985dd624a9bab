import { type SQL, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { SEARCH_COUNT_CAP } from '#common/contracts/pagination.ts';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';

// Every admin list with a search that matches more rows than its count's cap: the total is the
// cap (capped), and each page is looked for in the first rows in the sort's order (the window of
// countedPage): the same rows, in the same order, as sorting every match would give.
const statements: string[] = [];
const database = await createTestDatabase({ logQuery: (text) => statements.push(text) });
const { app } = await buildTestApp({ database });
const { db } = database;
const { id: ownerId } = await signedInAs(app, db, 'owner');
const cookie = `sw_session=${await createSessionStore({ db }).create(ownerId)}`;

const MARKER = 'windowmark';
/** Past the cap from every page's offset up to the cap's own last page. */
const ROWS = 2 * SEARCH_COUNT_CAP + 25;
/** Pages of 10: the first two, one inside the first cap, the cap's last. */
const PAGES = [1, 2, SEARCH_COUNT_CAP / 20, SEARCH_COUNT_CAP / 10];
/** The ids a statement reads (both drivers answer with `rows`). */
const idsOf = async (statement: SQL) =>
  ((await db.execute(statement)) as unknown as { rows: { id: string }[] }).rows.map((row) => row.id);
const [productId] = await idsOf(sql`SELECT id FROM products ORDER BY id LIMIT 1`);

// Written SQL-side, each row its own time (n minutes apart) and its own price, rating or name.
for (const insert of [
  `INSERT INTO users (id, username, email, created_at)
    SELECT substr(md5('users' || n), 1, 16), '${MARKER}_' || lpad(((n * 7919) % ${ROWS})::text, 5, '0'), '${MARKER}.' || n || '@example.com',
      now() - n * interval '1 minute'
    FROM generate_series(1, ${ROWS}) AS n`,
  `INSERT INTO products (id, slug, title, price, stock, status, created_at)
    SELECT substr(md5('products' || n), 1, 16), '${MARKER}-' || n, 'A ${MARKER} lamp ' || n, 1000 + (n * 7919) % ${ROWS}, n % 50, 'active',
      now() - n * interval '1 minute'
    FROM generate_series(1, ${ROWS}) AS n`,
  `INSERT INTO orders (id, order_number, customer_name, email, status, subtotal, total, created_at)
    SELECT substr(md5('orders' || n), 1, 16), 'SW-7' || lpad(n::text, 5, '0'), 'Shopper ${MARKER}', '${MARKER}' || n || '@example.com', 'processing',
      1000 + (n * 7919) % ${ROWS}, 1000 + (n * 7919) % ${ROWS}, now() - n * interval '1 minute'
    FROM generate_series(1, ${ROWS}) AS n`,
  `INSERT INTO reviews (id, product_id, customer_name, rating, title, content, helpful_count, created_at)
    SELECT substr(md5('reviews' || n), 1, 16), '${productId}', 'Reviewer', 1 + n % 5, 'Calm', 'Quiet and ${MARKER} ' || n, (n * 7919) % ${ROWS},
      now() - n * interval '1 minute'
    FROM generate_series(1, ${ROWS}) AS n`,
  `INSERT INTO newsletter_subscribers (id, email, unsubscribe_token, created_at)
    SELECT substr(md5('newsletter_subscribers' || n), 1, 16), '${MARKER}' || lpad(((n * 7919) % ${ROWS})::text, 5, '0') || '@example.com', 'token-' || n,
      now() - n * interval '1 minute'
    FROM generate_series(1, ${ROWS}) AS n`,
]) {
  await db.execute(sql.raw(insert));
}

/**
 * Each list: its path, the key of its rows, and for each sort the order as SQL (every inserted
 * row has its own value of each, so the order is one), with which rows are the marked ones.
 */
// (The newsletter's rows name their id `_id`, as the spec's subscriber does.)
const lists = [
  {
    path: 'users',
    rows: 'users',
    marked: `FROM users WHERE username LIKE '${MARKER}%'`,
    sorts: { createdAt: 'created_at', username: 'lower(username) COLLATE "C"', email: 'lower(email) COLLATE "C"' },
  },
  {
    path: 'products',
    rows: 'products',
    marked: `FROM products WHERE slug LIKE '${MARKER}-%'`,
    sorts: { createdAt: 'created_at', price: 'price', title: 'lower(title) COLLATE "C"' },
  },
  {
    path: 'orders',
    rows: 'orders',
    marked: `FROM orders WHERE email LIKE '${MARKER}%'`,
    sorts: { createdAt: 'created_at', total: 'total' },
  },
  {
    path: 'reviews',
    rows: 'reviews',
    marked: `FROM reviews WHERE content LIKE '%${MARKER}%'`,
    sorts: { createdAt: 'created_at', helpfulCount: 'helpful_count' },
  },
  {
    path: 'newsletter',
    rows: 'subscribers',
    marked: `FROM newsletter_subscribers WHERE email LIKE '${MARKER}%'`,
    sorts: { createdAt: 'created_at', email: 'lower(email) COLLATE "C"' },
  },
];

let requests = 0;
async function read(url: string) {
  const before = statements.length;
  // A client address each: the admin API's rate limit is not what this test is about.
  requests += 1;
  const remoteAddress = `10.91.${Math.floor(requests / 250)}.${requests % 250}`;
  const response = await app.inject({ method: 'GET', url, headers: { cookie }, remoteAddress });
  expect(response.statusCode, url).toBe(200);
  return { body: response.json(), sent: statements.slice(before) };
}

describe('a search with more matches than the count cap', () => {
  test.each(lists)(
    'admin $path: the total is capped, and each page is the one sorting all the matches gives',
    async ({ path, rows, marked, sorts }) => {
      for (const [sortBy, order] of Object.entries(sorts)) {
        for (const sortOrder of ['asc', 'desc']) {
          const query = `search=${MARKER}&sortBy=${sortBy}&sortOrder=${sortOrder}&limit=10`;
          for (const page of PAGES) {
            const { body, sent } = await read(`/api/admin/${path}?${query}&page=${page}`);
            // Counted up to the cap past the page's offset: "Load more" goes on.
            const total = (page - 1) * 10 + SEARCH_COUNT_CAP;
            expect(body.pagination, query).toMatchObject({ total, pages: total / 10, capped: true });
            // The page came from the window of first rows (a subquery under the table's name).
            expect(sent.some((text) => /limit \$\d+\) "\w+" where/.test(text))).toBe(true);
            const expected = await idsOf(
              sql.raw(
                `SELECT id ${marked} ORDER BY ${order} ${sortOrder}, id ${sortOrder} LIMIT 10 OFFSET ${(page - 1) * 10}`,
              ),
            );
            expect(
              body[rows].map((row: { id?: string; _id?: string }) => row.id ?? row._id),
              `${query}&page=${page}`,
            ).toEqual(expected);
          }
        }
      }
    },
  );
});
