/**
 * A million products (issue 16): a benchmark dataset written SQL-side into a PostgreSQL database
 * of its own (1,000,000 products over the demo shop's categories, with variants and images;
 * 10,000,000 reviews skewed towards a few products; 1,000,000 orders with their lines, so best
 * sellers have data; the shoppers behind them), then the production server on it: the time from
 * its start to the home page's first 200, and p50/p99 at 20 connections of search (a common word,
 * a typo), a category listing, the best sellers, the product page API, a product's reviews and
 * the admin lists as the owner; then every statement behind those reads explained (ANALYZE,
 * BUFFERS). The database is dropped at the end unless --keep.
 *
 *   node scripts/bench/million-products.ts --scale 0.01 [--keep] [--database sw_million_x] [--seconds 5] [--only search]
 *
 * --scale 1 is the issue's size; --database reuses a database written before (nothing written);
 * --only measures the reads whose name contains the given text (the others are left out).
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import * as z from 'zod/mini';
import { seedCategories } from '../../seed/categories.ts';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { migrateDatabase } from '../../server/db/migrate.ts';
import { createJobs } from '../../server/jobs/job-queue.ts';
import { testClient } from '../../server/testing/test-client.ts';
import { throwawayShopEnv } from '../../server/testing/throwaway-shop.ts';
import { nextClientAddress } from './client-address.ts';
import { benchOwner, onServer, ownerSession, postgresServerUrl, withDatabase } from './postgres-shop.ts';
import { freePort, hasExited, startShopProcess, stopAllProcesses, stopProcess } from './processes.ts';

const Options = z.object({
  scale: z.pipe(z.coerce.number().check(z.gt(0), z.lte(1)), z.number()),
  keep: z.boolean(),
  database: z.optional(z.string().check(z.regex(/^sw_million_[a-z0-9_]+$/, 'must be sw_million_…'))),
  seconds: z.pipe(z.coerce.number().check(z.int(), z.gte(1), z.lte(60)), z.number()),
  only: z.optional(z.string().check(z.minLength(1))),
});
type Options = z.infer<typeof Options>;

export const millionProductsBench = {
  products: 1_000_000,
  reviews: 10_000_000,
  orders: 1_000_000,
  /** Shoppers: a fifth of the products' count, at least a thousand. */
  usersPerProduct: 0.2,
  connections: 20,
  warmupSeconds: 1,
  p99TargetMs: 50,
  homePageTargetMs: 2000,
};

/** The words titles, tags and descriptions are made of: search has real words (and near misses) to find. */
const words = {
  adjectives: [
    'Serene',
    'Tranquil',
    'Calm',
    'Quiet',
    'Gentle',
    'Soft',
    'Zen',
    'Peaceful',
    'Mindful',
    'Restful',
    'Soothing',
    'Harmony',
    'Still',
    'Misty',
    'Glowing',
    'Warm',
    'Cozy',
    'Natural',
    'Minimal',
    'Handmade',
    'Rustic',
    'Modern',
    'Classic',
    'Compact',
    'Tabletop',
    'Cordless',
    'Portable',
    'Ceramic',
    'Wooden',
    'Bamboo',
  ],
  materials: [
    'Bamboo',
    'Stone',
    'Slate',
    'Ceramic',
    'Oak',
    'Walnut',
    'Marble',
    'Linen',
    'Cotton',
    'Glass',
    'Copper',
    'Brass',
    'Resin',
    'Porcelain',
    'Jade',
    'Sandstone',
    'Basalt',
    'Teak',
    'Wool',
    'Clay',
  ],
  /** Six nouns for each category after New Releases (Fountains, Wellness, Decor, Lighting, Aromatherapy, Gifts). */
  nouns: [
    'Fountain',
    'Waterfall',
    'Cascade',
    'Water Feature',
    'Rock Fountain',
    'Bubbler',
    'Massager',
    'Yoga Mat',
    'Meditation Cushion',
    'Eye Pillow',
    'Weighted Blanket',
    'Acupressure Mat',
    'Vase',
    'Wall Hanging',
    'Planter',
    'Sculpture',
    'Bookend',
    'Tray',
    'Lamp',
    'Lantern',
    'Night Light',
    'Salt Lamp',
    'String Lights',
    'Candle Holder',
    'Diffuser',
    'Essential Oil',
    'Incense Holder',
    'Candle',
    'Humidifier',
    'Scent Stone',
    'Gift Set',
    'Gift Box',
    'Journal',
    'Tea Set',
    'Bath Set',
    'Gift Card Holder',
  ],
  benefits: ['calm', 'focus', 'sleep', 'balance', 'relaxation', 'clarity', 'comfort', 'stillness'],
  rooms: ['desk', 'bedroom', 'living room', 'office', 'studio', 'reading nook', 'bathroom', 'hallway'],
  colours: ['Stone Grey', 'Sandstone Beige', 'Slate Black', 'Jade Green', 'Ivory White', 'Blush Pink'],
  reviewTitles: [
    'Love it',
    'So relaxing',
    'Beautiful piece',
    'Exactly as pictured',
    'Great gift',
    'A bit noisy',
    'Works well',
    'Perfect for my desk',
    'Not what I expected',
    'Calming sound',
    'Five stars',
    'Good value',
  ],
  reviewPhrases: [
    'The water sound is soothing',
    'It arrived quickly and well packed',
    'The finish looks lovely on my shelf',
    'The pump hums a little at night',
    'My partner loved it as a gift',
    'Smaller than I thought',
    'The light is warm and soft',
    'The scent lasts all evening',
    'Easy to set up',
    'Great quality for the price',
  ],
};
/** Common words to search for, and typos of them (every one a near miss a shopper makes). */
const searchWords = ['fountain', 'lamp', 'diffuser', 'bamboo', 'candle', 'ceramic', 'serene', 'blanket'];
const typoWords = ['fountian', 'lampp', 'difuser', 'bambo', 'candel', 'ceramik', 'seren', 'blankit'];

type Scale = { products: number; reviews: number; orders: number; users: number };

function sizesAt(scale: number): Scale {
  const settings = millionProductsBench;
  const products = Math.round(settings.products * scale);
  return {
    products,
    reviews: Math.round(settings.reviews * scale),
    orders: Math.round(settings.orders * scale),
    users: Math.max(1000, Math.round(products * settings.usersPerProduct)),
  };
}

/** A SQL text array literal of the given words. */
function sqlArray(list: string[]): string {
  return `ARRAY[${list.map((word) => `'${word.replaceAll("'", "''")}'`).join(', ')}]::text[]`;
}

/** A number in [0, 1) from an integer expression, the same on every run (PostgreSQL's hashint8). */
const unit = (expression: string) => `((hashint8((${expression})::bigint)::bigint + 2147483648) / 4294967296.0)`;
/** The product id of product number `n` (16 hex characters, as the app's ids are text). */
const productId = (n: string) => `substr(md5('mp-product-' || (${n})), 1, 16)`;
const userId = (n: string) => `substr(md5('mp-user-' || (${n})), 1, 16)`;
/** A product's price in cents, from its number (the order lines must charge it). */
const priceOf = (n: string) => `(1500 + ((${n})::bigint * 7919) % 15000)::int`;
/** The product numbers, the first one the storefront's featured product (the home page shows it). */
const slugOf = (n: string) => `CASE WHEN (${n}) = 1 THEN 'desktop-fountain' ELSE 'mp-product-' || (${n}) END`;

type Step = { name: string; seconds: number };

/**
 * Writes the dataset: the app's own migrations first, then every table in one statement each
 * (INSERT … SELECT generate_series). The big tables' secondary indexes are dropped before and
 * made again after (one sort each instead of a million random inserts), and their foreign-key
 * checks are off while they load (every reference is made to exist); the app's own triggers (the
 * product ratings, the order days) stay on, so the rollups they keep are the app's.
 */
async function generate(databaseUrl: string, scale: Scale): Promise<Step[]> {
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl });
  try {
    await migrateDatabase(database);
  } finally {
    await database.close();
  }
  const steps: Step[] = [];
  const big = [
    'products',
    'product_categories',
    'product_images',
    'sku_variants',
    'users',
    'orders',
    'order_items',
    'reviews',
  ];
  await onServer(databaseUrl, async (client) => {
    const step = async (name: string, sql: string, params: unknown[] = []) => {
      const started = performance.now();
      await client.query(sql, params);
      const seconds = (performance.now() - started) / 1000;
      steps.push({ name, seconds });
      process.stdout.write(`  ${name}: ${seconds.toFixed(1)} s\n`);
    };
    await client.query(`SET maintenance_work_mem = '1GB'`);
    await client.query(`SET work_mem = '256MB'`);
    await client.query('SET max_parallel_maintenance_workers = 1');
    // The indexes no constraint owns: made again after the load, as the migrations define them.
    const { rows: indexes } = await client.query<{ name: string; definition: string }>(
      `SELECT i.indexname AS name, i.indexdef AS definition FROM pg_indexes i
       WHERE i.schemaname = 'public' AND i.tablename = ANY($1::text[])
         AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
      [big],
    );
    for (const { name } of indexes) await client.query(`DROP INDEX "${name}"`);
    // Internal (foreign-key) triggers off, the app's own on.
    for (const table of big) {
      await client.query(`ALTER TABLE "${table}" DISABLE TRIGGER ALL`);
      await client.query(`ALTER TABLE "${table}" ENABLE TRIGGER USER`);
    }
    const { products, reviews, orders, users } = scale;
    const spread = (days: number, n: string, total: string) =>
      `now() - make_interval(days => ${days}) + ((${n}) - 1) * (make_interval(days => ${days}) / ${total})`;

    await step(
      `categories (${seedCategories.length})`,
      `INSERT INTO categories (id, name, slug, position)
       SELECT substr(md5('mp-category-' || c.slug), 1, 16), c.name, c.slug, c.position
       FROM jsonb_to_recordset($1::jsonb) AS c(name text, slug text, position int)`,
      [JSON.stringify(seedCategories.map((category, position) => ({ ...category, position })))],
    );
    await step(
      `users (${users})`,
      `INSERT INTO users (id, username, email, role, email_verified_at, last_login_at, created_at, updated_at)
       SELECT ${userId('n')}, 'shopper' || n, 'shopper' || n || '@example.com', 'user',
              ${spread(1000, 'n', '$1::int')}, CASE WHEN n % 3 = 0 THEN now() - make_interval(days => n % 90) END,
              ${spread(1000, 'n', '$1::int')}, ${spread(1000, 'n', '$1::int')}
       FROM generate_series(1, $1::int) AS n`,
      [users],
    );
    // The order lines first (each order 1 to 3 lines, products skewed towards the first ones):
    // the products' sales count their units in paid orders, and the orders their subtotal.
    await step(
      `order lines, staged (~${orders * 2})`,
      `CREATE TEMPORARY TABLE staged_lines AS
       SELECT o AS order_number, k AS line,
              1 + floor($2::int * power(${unit('o * 4 + k')}, 2))::int AS product,
              1 + (${unit('o * 4 + k + 1000000000')} < 0.2)::int AS quantity,
              o % 20 NOT IN (0, 1) AS paid
       FROM generate_series(1, $1::int) AS o, generate_series(0, 2) AS k
       WHERE k <= o % 3`,
      [orders, products],
    );
    await step(
      'sales per product, staged',
      `CREATE TEMPORARY TABLE staged_sales AS
       SELECT product, sum(quantity)::int AS sales FROM staged_lines WHERE paid GROUP BY product;
       CREATE UNIQUE INDEX ON staged_sales (product); ANALYZE staged_sales`,
    );
    // Titles: adjective, material, noun (the noun from the product's category); search text
    // composed as server/features/catalog/catalog.service.ts composeSearchText composes it.
    await step(
      `products (${products})`,
      `INSERT INTO products (id, slug, title, description, price, sale_price, features, specifications, tags, status,
                             stock, variant_label, sales, search_text, created_at, updated_at)
       SELECT id, slug, title, description, price, sale_price, features, jsonb_build_object('Material', material),
              tags, status, stock, 'Colour', sales,
              lower(title || E'\\n' || (tags ->> 0) || ' ' || (tags ->> 1) || E'\\n' || category_names || E'\\n' || description),
              created_at, created_at
       FROM (
         SELECT ${productId('n')} AS id, ${slugOf('n')} AS slug, t.title, t.material,
                'A ' || lower(t.adjective) || ' ' || lower(t.noun) || ' in ' || lower(t.material) || ' that brings '
                  || t.benefit || ' to your ' || t.room || '. Designed for everyday ' || t.benefit || ' and made to last.'
                  AS description,
                ${priceOf('n')} AS price,
                CASE WHEN n % 10 = 0 THEN ${priceOf('n')} * 8 / 10 END AS sale_price,
                jsonb_build_array('Made of ' || lower(t.material), 'Brings ' || t.benefit) AS features,
                jsonb_build_array(lower(t.noun), t.benefit) AS tags,
                CASE WHEN n = 1 THEN 'active' WHEN n % 25 = 3 THEN 'inactive' WHEN n % 33 = 4 THEN 'draft'
                     WHEN n % 100 = 5 THEN 'archived' ELSE 'active' END AS status,
                (SELECT coalesce(sum((n * 7 + k * 13) % 60), 0) FROM generate_series(0, n % 3) AS k
                 WHERE NOT (k = 2 AND n % 7 = 0))::int AS stock,
                coalesce(s.sales, 0) AS sales,
                CASE WHEN n > $1::int * 0.98 THEN 'New Releases ' ELSE '' END || ($2::text[])[2 + n % 6] AS category_names,
                ${spread(1095, 'n', '$1::int')} AS created_at
         FROM generate_series(1, $1::int) AS n
         LEFT JOIN staged_sales AS s ON s.product = n
         CROSS JOIN LATERAL (
           SELECT adjective, material, noun, benefit, room,
                  CASE WHEN n = 1 THEN 'Desktop Fountain' ELSE adjective || ' ' || material || ' ' || noun END AS title
           FROM (SELECT (${sqlArray(words.adjectives)})[1 + floor(${unit('n')} * ${words.adjectives.length})::int] AS adjective,
                        (${sqlArray(words.materials)})[1 + floor(${unit('n + 1000000000')} * ${words.materials.length})::int] AS material,
                        (${sqlArray(words.nouns)})[1 + (n % 6) * 6 + floor(${unit('n + 2000000000')} * 6)::int] AS noun,
                        (${sqlArray(words.benefits)})[1 + n % ${words.benefits.length}] AS benefit,
                        (${sqlArray(words.rooms)})[1 + (n / 7) % ${words.rooms.length}] AS room) AS w
         ) AS t
       ) AS p`,
      [products, seedCategories.map((category) => category.name)],
    );
    // The main category follows the noun (Fountains … Gifts); the newest 2% are also New Releases.
    await step(
      'product categories',
      `INSERT INTO product_categories (product_id, category_id, position)
       SELECT ${productId('n')}, substr(md5('mp-category-' || ($2::text[])[2 + n % 6]), 1, 16), 0
       FROM generate_series(1, $1::int) AS n
       UNION ALL
       SELECT ${productId('n')}, substr(md5('mp-category-' || ($2::text[])[1]), 1, 16), 1
       FROM generate_series(greatest(1, ceil($1::int * 0.98)::int + (ceil($1::int * 0.98) = $1::int * 0.98)::int), $1::int) AS n`,
      [products, seedCategories.map((category) => category.slug)],
    );
    await step(
      'product images (2 each)',
      `INSERT INTO product_images (id, product_id, url, alt, width, height, position, source)
       SELECT substr(md5('mp-image-' || n || '-' || k), 1, 16), ${productId('n')},
              'https://images.stillwater.test/products/' || n || '/' || k || '.jpg', 'Product photo ' || (k + 1),
              1200, 1200, k, 'aliexpress'
       FROM generate_series(1, $1::int) AS n, generate_series(0, 1) AS k`,
      [products],
    );
    await step(
      'SKU variants (1 to 3 each)',
      `INSERT INTO sku_variants (id, product_id, sku_id, sku_attr, name, label, price, sale_price, stock, is_active, position)
       SELECT substr(md5('mp-sku-' || n || '-' || k), 1, 16), ${productId('n')}, (1000000000 + n * 4 + k)::text,
              '14:' || (200000 + k), ($2::text[])[1 + (n + k) % 6], ($2::text[])[1 + (n + k) % 6],
              ${priceOf('n')} + k * 200, CASE WHEN n % 10 = 0 THEN (${priceOf('n')} + k * 200) * 8 / 10 END,
              (n * 7 + k * 13) % 60, NOT (k = 2 AND n % 7 = 0), k
       FROM generate_series(1, $1::int) AS n, generate_series(0, 2) AS k
       WHERE k <= n % 3`,
      [products, words.colours],
    );
    // Order numbers from the app's own sequence, so the next checkout's number is free.
    await step(
      `orders (${orders})`,
      `INSERT INTO orders (id, order_number, user_id, email, customer_name, status, subtotal, shipping, tax, total,
                           supplier_cost, shipping_address, created_at, updated_at)
       SELECT substr(md5('mp-order-' || o.n), 1, 16), 'SW-' || nextval('order_number_seq'),
              CASE WHEN o.n % 3 = 0 THEN ${userId('1 + o.n % $2::int')} END,
              'shopper' || (1 + o.n % $2::int) || '@example.com', 'Shopper ' || (1 + o.n % $2::int),
              CASE WHEN o.n % 20 = 0 THEN 'cancelled' WHEN o.n % 20 = 1 THEN 'pending' WHEN o.n % 20 < 5 THEN 'processing'
                   WHEN o.n % 20 < 8 THEN 'shipped' WHEN o.n % 20 < 10 THEN 'delivered' ELSE 'completed' END,
              l.subtotal, 595, l.subtotal * 8 / 100, l.subtotal + 595 + l.subtotal * 8 / 100, l.subtotal / 2,
              jsonb_build_object('name', 'Shopper ' || (1 + o.n % $2::int), 'street', o.n || ' Quiet Lane', 'city', 'Stillwater',
                                 'state', 'MN', 'zipCode', '55082', 'country', 'US'),
              o.at, o.at
       FROM (SELECT n, ${spread(730, 'n', '$1::int')} AS at FROM generate_series(1, $1::int) AS n) AS o
       JOIN (SELECT order_number, sum(quantity * ${priceOf('product')})::int AS subtotal
             FROM staged_lines GROUP BY order_number) AS l ON l.order_number = o.n
       ORDER BY o.n`,
      [orders, users],
    );
    await step(
      'order lines',
      `INSERT INTO order_items (id, order_id, product_id, product_name, quantity, unit_price, unit_cost)
       SELECT substr(md5('mp-line-' || l.order_number || '-' || l.line), 1, 16),
              substr(md5('mp-order-' || l.order_number), 1, 16), p.id, p.title, l.quantity,
              ${priceOf('l.product')}, ${priceOf('l.product')} / 2
       FROM staged_lines AS l JOIN products AS p ON p.id = ${productId('l.product')}`,
    );
    // Reviews: the product skewed (cube of a uniform number: the first product has about 1% of
    // them all); the first reviews are one each by a signed-up shopper (one per product and user).
    await step(
      `reviews (${reviews})`,
      `INSERT INTO reviews (id, product_id, user_id, customer_name, rating, title, content, verified, helpful_count,
                            moderation_status, denial_reason, created_at, updated_at)
       SELECT substr(md5('mp-review-' || n), 1, 16), ${productId(`1 + floor($2::int * power(${unit('n')}, 3))::int`)},
              CASE WHEN n <= $3::int THEN ${userId('n')} END, 'Shopper ' || (1 + n % $3::int),
              round((1 + 4 * sqrt(${unit('n + 3000000000')}))::numeric, 1),
              ($4::text[])[1 + n % ${words.reviewTitles.length}],
              ($5::text[])[1 + n % ${words.reviewPhrases.length}] || '. ' || ($5::text[])[1 + (n / 10) % ${words.reviewPhrases.length}] || '.',
              n % 3 = 0, floor(40 * power(${unit('n + 4000000000')}, 6))::int,
              CASE WHEN n % 50 = 0 THEN 'rejected' WHEN n % 25 = 1 THEN 'flagged' WHEN n % 12 = 2 THEN 'pending'
                   ELSE 'approved' END,
              CASE WHEN n % 50 = 0 THEN 'Off topic' END,
              now() - make_interval(secs => ${unit('n + 5000000000')} * 730 * 86400),
              now() - make_interval(secs => ${unit('n + 5000000000')} * 730 * 86400)
       FROM generate_series(1, $1::int) AS n`,
      [reviews, products, users, words.reviewTitles, words.reviewPhrases],
    );
    await client.query('DROP TABLE staged_lines, staged_sales');
    for (const table of big) await client.query(`ALTER TABLE "${table}" ENABLE TRIGGER ALL`);
    const started = performance.now();
    for (const { name, definition } of indexes) {
      const indexStarted = performance.now();
      await client.query(definition);
      const seconds = (performance.now() - indexStarted) / 1000;
      if (seconds > 2) process.stdout.write(`    index ${name}: ${seconds.toFixed(1)} s\n`);
    }
    steps.push({ name: `indexes (${indexes.length})`, seconds: (performance.now() - started) / 1000 });
    process.stdout.write(`  indexes (${indexes.length}): ${steps.at(-1)?.seconds.toFixed(1)} s\n`);
    await step('VACUUM ANALYZE', 'VACUUM ANALYZE');
  });
  return steps;
}

type Shop = {
  url: string;
  process: ReturnType<typeof startShopProcess>;
  homePageMs: number;
  /** The start's own steps (ms since the process started, from its "serving" log line), and each try of the home page. */
  startup: unknown;
  homeTries: string[];
};

/** `npm start`'s server (server/start.js) on the database; timed to the home page's first 200. */
async function startShop(databaseUrl: string, dataDir: string, logLevel: 'info' | 'warn'): Promise<Shop> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...throwawayShopEnv(dataDir, { password: benchOwner.password }),
    DATABASE_URL: databaseUrl,
    SEED_DEMO_DATA: 'false',
    // At info the serving line carries the start's timings, but every request is a line too.
    LOG_LEVEL: logLevel,
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    // Each request from its own address (X-Forwarded-For): the per-client limits never refuse one.
    TRUST_PROXY: '127.0.0.1',
  };
  const started = performance.now();
  // The shop's log (every request refused under load is a line) would bury the figures: it is dropped.
  const child = startShopProcess(env, { stdout: 'pipe' });
  // Only the line with the start's timings is kept (see server/main.ts).
  let startup: unknown = null;
  if (child.stdout) {
    createInterface({ input: child.stdout }).on('line', (line) => {
      if (startup === null && line.includes('"startup"')) startup = (JSON.parse(line) as { startup: unknown }).startup;
    });
  }
  const homeTries: string[] = [];
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`the shop exited with code ${child.exitCode ?? child.signalCode}`);
    const tried = performance.now();
    try {
      const response = await fetch(`${url}/`, {
        signal: AbortSignal.timeout(30_000),
        headers: { 'x-forwarded-for': nextClientAddress() },
      });
      await response.arrayBuffer();
      homeTries.push(`${response.status} after ${Math.round(performance.now() - tried)} ms`);
      if (response.status === 200) {
        return { url, process: child, homePageMs: Math.round(performance.now() - started), startup, homeTries };
      }
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await stopProcess(child);
  throw new Error('the home page did not answer 200 within 180 s');
}

type Read = { name: string; paths: string[]; owner?: boolean };
type ReadResult = {
  name: string;
  example: string;
  requests: number;
  /** Answered 2xx within the run; latencies are of these (none answered: the read missed). */
  answered: number;
  non2xx: number;
  p50Ms: number;
  p99Ms: number;
};

const readMet = (result: ReadResult) =>
  result.answered > 0 && result.non2xx === 0 && result.p99Ms <= millionProductsBench.p99TargetMs;

/**
 * Waits until the shop answers its readiness check (which reads the database) within 100 ms:
 * a slow read's requests still running would otherwise be timed as the next read's.
 */
async function settle(shop: Shop): Promise<void> {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    const started = performance.now();
    try {
      const response = await fetch(`${shop.url}/readyz`, { signal: AbortSignal.timeout(5000) });
      await response.body?.cancel();
      if (response.ok && performance.now() - started < 100) return;
    } catch {
      // Still busy.
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * The reads, each over many URLs (pages, limits, products, words): the public cache keeps an
 * answer per URL for 30 s, so one URL would time the cache, not the database.
 */
async function readsOn(databaseUrl: string, products: number): Promise<Read[]> {
  const sample = await onServer(databaseUrl, async (client) => {
    const slugs = await client.query<{ slug: string }>(
      `SELECT slug FROM products TABLESAMPLE SYSTEM (least(100, 200000.0 / greatest(1, $1::int)))
       WHERE status = 'active' LIMIT 3000`,
      [products],
    );
    return slugs.rows.map((row) => row.slug);
  });
  const range = (count: number) => Array.from({ length: count }, (_, index) => index + 1);
  const list = (pathname: string, pages: number) =>
    range(pages).flatMap((page) =>
      [20, 24].map((limit) => `${pathname}${pathname.includes('?') ? '&' : '?'}page=${page}&limit=${limit}`),
    );
  // Each admin read on its own: a list's sorts, filters and searches cost differently.
  const adminList = (list: string, queries: string[]): Read[] =>
    queries.map((query) => ({
      name: `admin ${list} ${decodeURIComponent(query)}`,
      owner: true,
      paths: [`/api/admin/${list}?limit=10&${query}`],
    }));
  return [
    { name: 'search, common words', paths: searchWords.flatMap((word) => list(`/api/products/search/${word}`, 20)) },
    { name: 'search, typos', paths: typoWords.flatMap((word) => list(`/api/products/search/${word}`, 20)) },
    {
      name: 'category listing',
      paths: seedCategories.flatMap((category) => list(`/api/products?category=${category.slug}`, 30)),
    },
    { name: 'best sellers', paths: range(100).map((limit) => `/api/marketing/best-sellers?limit=${limit}`) },
    { name: 'product page API', paths: ['desktop-fountain', ...sample].map((slug) => `/api/products/${slug}`) },
    {
      name: 'reviews page, the most reviewed product',
      paths: ['helpful', 'createdAt', 'rating'].flatMap((sort) =>
        range(50).map(
          (page) => `/api/reviews/product/desktop-fountain?limit=10&sortBy=${sort}&order=desc&page=${page}`,
        ),
      ),
    },
    {
      // Signed in, the answer is private (the shopper's own pending review may be in it): never cached.
      name: 'reviews page, the most reviewed product, signed in',
      owner: true,
      paths: ['helpful', 'createdAt', 'rating'].flatMap((sort) =>
        range(50).map(
          (page) => `/api/reviews/product/desktop-fountain?limit=10&sortBy=${sort}&order=desc&page=${page}`,
        ),
      ),
    },
    {
      name: 'reviews page, any product',
      paths: sample.map((slug) => `/api/reviews/product/${slug}?limit=10&sortBy=helpful&order=desc`),
    },
    ...adminList('products', ['page=1', 'sortBy=sales&sortOrder=desc', 'search=bamboo%20lamp', 'page=500']),
    ...adminList('orders', ['page=1', 'statusFilter=pending', 'search=shopper%2012', 'page=500']),
    ...adminList('reviews', ['page=1', 'statusFilter=pending', 'search=noisy', 'page=500']),
    ...adminList('users', ['page=1', 'sortBy=username&sortOrder=asc', 'search=shopper77', 'page=500']),
  ];
}

/** One read at 20 connections: each request a URL of the read's in turn, each from its own address. */
async function measureRead(shop: Shop, read: Read, cookie: string, seconds: number): Promise<ReadResult> {
  const fire = (duration: number) => {
    let sent = 0;
    return autocannon({
      url: shop.url,
      connections: millionProductsBench.connections,
      duration,
      pipelining: 1,
      requests: [
        {
          method: 'GET',
          setupRequest(request) {
            const pathname = read.paths[sent % read.paths.length] as string;
            sent += 1;
            return {
              ...request,
              path: pathname,
              headers: {
                ...request.headers,
                'accept-encoding': 'gzip, deflate, br, zstd',
                'x-forwarded-for': nextClientAddress(),
                ...(read.owner ? { cookie } : {}),
              },
            };
          },
        },
      ],
    });
  };
  await settle(shop);
  await fire(millionProductsBench.warmupSeconds);
  const result = await fire(seconds);
  return {
    name: read.name,
    example: read.paths[0] as string,
    requests: result.requests.sent,
    answered: result['2xx'],
    non2xx: result.non2xx,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
  };
}

type Plan = { read: string; path: string; executionMs: number; sql: string; text: string };

/**
 * The statements behind one URL of each read, caught in-process on the same database (an empty
 * cache, so every read reaches it), each explained with its parameters.
 */
async function explainReads(databaseUrl: string, reads: Read[]): Promise<Plan[]> {
  let seen: { sql: string; params: unknown[] }[] = [];
  const database = await openDatabase(
    { kind: 'postgres', url: databaseUrl },
    { logQuery: (sql, params) => seen.push({ sql, params }) },
  );
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stillwater-bench-million-plans-'));
  const jobs = createJobs();
  jobs.runInProcess(() => {});
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl });
  const app = await buildApp({
    config,
    database,
    signingKey: 'bench-signing-key-0123456789abcdefghij',
    web: null,
    jobs,
  });
  const plans: Plan[] = [];
  // Explained on a connection of its own, without the app's statement timeout.
  const explainer = new pg.Client({ connectionString: databaseUrl });
  await explainer.connect();
  try {
    const owner = testClient(app, { remoteAddress: nextClientAddress() });
    const login = await owner.post('/api/auth/login', benchOwner);
    if (login.statusCode !== 200) throw new Error(`the owner's sign-in answered ${login.statusCode}`);
    const session = owner.cookie('sw_session') ?? '';
    for (const read of reads) {
      // The read's first URL, on an empty cache: every statement reaches the database.
      for (const pathname of read.paths.slice(0, 1)) {
        seen = [];
        const reader = testClient(app, { remoteAddress: nextClientAddress() });
        if (read.owner) reader.setCookie('sw_session', session);
        const answer = await reader.get(pathname);
        // A read past the app's statement timeout fails: its statements are explained all the same.
        if (answer.statusCode !== 200)
          process.stdout.write(`  (in-process ${pathname} answered ${answer.statusCode})\n`);
        const statements = seen.filter(
          ({ sql }) => /^\s*select/i.test(sql) && !/"sessions"|"users"\."id" = \$1/.test(sql),
        );
        for (const statement of statements) {
          const result = await explainer.query<{ 'QUERY PLAN': string }>(
            `EXPLAIN (ANALYZE, BUFFERS) ${statement.sql}`,
            statement.params,
          );
          const text = (result?.rows ?? []).map((row) => row['QUERY PLAN']).join('\n');
          const executionMs = Number(/Execution Time: ([\d.]+) ms/.exec(text)?.[1] ?? Number.NaN);
          plans.push({ read: read.name, path: pathname, executionMs, sql: statement.sql, text });
        }
      }
    }
  } finally {
    await explainer.end();
    await app.close();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  }
  return plans;
}

async function databaseSize(databaseUrl: string): Promise<string> {
  return onServer(databaseUrl, async (client) => {
    const { rows } = await client.query<{ size: string }>(
      'SELECT pg_size_pretty(pg_database_size(current_database())) AS size',
    );
    return rows[0]?.size ?? '?';
  });
}

async function databaseExists(name: string): Promise<boolean> {
  return onServer(postgresServerUrl, async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    return rowCount === 1;
  });
}

async function main(options: Options): Promise<void> {
  const scale = sizesAt(options.scale);
  const name = options.database ?? `sw_million_${randomBytes(4).toString('hex')}`;
  const databaseUrl = withDatabase(postgresServerUrl, name);
  const reuse = options.database !== undefined;
  const keep = options.keep || reuse;
  if (reuse && !(await databaseExists(name))) {
    process.stderr.write(
      `million-products: no database ${name} on ${new URL(postgresServerUrl).host}: write one first (without --database, with --keep)\n`,
    );
    process.exit(2);
  }
  process.stdout.write(`A million products at scale ${options.scale}: ${JSON.stringify(scale)}; database ${name}\n`);
  if (!reuse) await onServer(postgresServerUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stillwater-bench-million-'));
  let shop: Shop | null = null;
  try {
    if (!reuse) {
      const started = performance.now();
      await generate(databaseUrl, scale);
      process.stdout.write(`generated in ${((performance.now() - started) / 1000).toFixed(1)} s\n`);
    }
    process.stdout.write(`database size: ${await databaseSize(databaseUrl)}\n`);
    const reads = (await readsOn(databaseUrl, scale.products)).filter(
      (read) => options.only === undefined || read.name.includes(options.only),
    );
    // The first start is timed to the home page, its steps read from its log; the reads are
    // measured on a second one that logs only what goes wrong.
    const timed = await startShop(databaseUrl, dataDir, 'info');
    await stopProcess(timed.process);
    const homePageMs = timed.homePageMs;
    const homeMet = homePageMs <= millionProductsBench.homePageTargetMs;
    process.stdout.write(`home page: first 200 ${homePageMs} ms after the start ${homeMet ? '✓' : '✗'}\n`);
    process.stdout.write(
      `  start (ms): ${JSON.stringify(timed.startup)}; home page tries: ${timed.homeTries.join(', ')}\n`,
    );
    shop = await startShop(databaseUrl, dataDir, 'warn');
    const { cookie } = await ownerSession(shop.url);
    const results: ReadResult[] = [];
    for (const read of reads) {
      if (hasExited(shop.process)) throw new Error('the shop is not running');
      const result = await measureRead(shop, read, cookie, options.seconds);
      results.push(result);
      const met = readMet(result);
      process.stdout.write(
        `  ${result.name.padEnd(52)} p50 ${String(result.p50Ms).padStart(6)} ms  p99 ${String(result.p99Ms).padStart(6)} ms  ${String(result.requests).padStart(6)} requests, ${result.answered} answered${result.non2xx ? `, ${result.non2xx} not 2xx` : ''} ${met ? '✓' : '✗'}\n`,
      );
    }
    await stopProcess(shop.process);
    shop = null;
    const plans = await explainReads(databaseUrl, reads);
    process.stdout.write('\nStatements (EXPLAIN ANALYZE, BUFFERS):\n');
    for (const plan of plans) {
      process.stdout.write(`  ${plan.read}: ${plan.executionMs} ms  ${plan.sql.replace(/\s+/g, ' ').slice(0, 160)}\n`);
    }
    const slow = plans.filter((plan) => !(plan.executionMs < 10));
    for (const plan of slow) {
      process.stdout.write(`\n── ${plan.read} (${plan.path}): ${plan.executionMs} ms\n${plan.sql}\n${plan.text}\n`);
    }
    process.stdout.write(
      '\nSummary: p50 / p99 at 20 connections, and the slowest statement of one request (EXPLAIN ANALYZE)\n',
    );
    for (const result of results) {
      const slowest = Math.max(0, ...plans.filter((plan) => plan.read === result.name).map((plan) => plan.executionMs));
      process.stdout.write(
        `  ${result.name.padEnd(52)} ${String(result.p50Ms).padStart(6)} / ${String(result.p99Ms).padStart(6)} ms   statement ${slowest.toFixed(1).padStart(8)} ms\n`,
      );
    }
    const missed = results.filter((result) => !readMet(result));
    process.stdout.write(
      `\n${missed.length === 0 && homeMet ? 'every target met' : `missed: ${[...missed.map((result) => result.name), ...(homeMet ? [] : ['home page'])].join(', ')}`}\n`,
    );
    process.exitCode = missed.length === 0 && homeMet ? 0 : 1;
  } finally {
    if (shop) await stopProcess(shop.process);
    await rm(dataDir, { recursive: true, force: true });
    if (keep) process.stdout.write(`kept the database ${name} (drop it with DROP DATABASE ${name})\n`);
    else await onServer(postgresServerUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
  }
}

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '0.01' },
    keep: { type: 'boolean', default: false },
    database: { type: 'string' },
    seconds: { type: 'string', default: '5' },
    only: { type: 'string' },
  },
});
const parsed = Options.safeParse(values);
if (!parsed.success) {
  process.stderr.write(`million-products: ${z.prettifyError(parsed.error)}\n`);
  process.exit(2);
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void stopAllProcesses().then(() => process.exit(130)));
}
await main(parsed.data);
