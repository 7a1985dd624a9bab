/**
 * The reviews at scale: 100,000 public reviews on one product, written into the shop's database
 * while it is stopped (through the reviews table, so the ratings trigger keeps the product's
 * stored ratings as it does in production), then the list's first and 50th page and the rating
 * summary under load: as a visitor (answers shared through the public cache) and signed in
 * (private answers: every request reads the database).
 */
import path from 'node:path';
import { openDatabase } from '../../server/db/client.ts';
import { nextClientAddress } from './client-address.ts';

export const reviewsAtScale = {
  /** Not the product the page benchmarks measure, so their figures stay comparable. */
  product: 'wireless-charger',
  reviews: 100_000,
  load: { durationSeconds: 10, connections: 20, warmupSeconds: 2 },
};

/** Writes `count` approved reviews on the product, with varied ratings, dates and helpful counts. */
export async function addReviews(dataDir: string, productSlug: string, count: number): Promise<number> {
  const started = performance.now();
  // Where the shop keeps its embedded database (server/config.ts).
  const database = await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'db') });
  try {
    const product = await database.pglite?.query<{ id: string }>('SELECT id FROM products WHERE slug = $1', [
      productSlug,
    ]);
    const productId = product?.rows[0]?.id;
    if (!productId) throw new Error(`the demo shop has no product ${productSlug}`);
    await database.pglite?.query(
      `INSERT INTO reviews (id, product_id, customer_name, rating, title, content, verified, helpful_count,
         moderation_status, created_at, updated_at)
       SELECT substr(md5('bench-review-' || n), 1, 16), $1, 'Bench shopper ' || n,
         round((1 + (n * 7919 % 41) / 10.0)::numeric, 1), 'Review number ' || n,
         'A calm and steady companion on the desk, review ' || n || '.', n % 3 = 0, n * 31 % 17,
         'approved', now() - make_interval(mins => n), now() - make_interval(mins => n)
       FROM generate_series(1, $2::int) AS n`,
      [productId, count],
    );
  } finally {
    await database.close();
  }
  return (performance.now() - started) / 1000;
}

/** The endpoints measured: the list's first and 50th page (10 a page, the spec's) and the summary. */
export function reviewEndpoints(productSlug: string) {
  const list = `/api/reviews/product/${productSlug}?limit=10&sortBy=helpful&order=desc`;
  return [
    { name: 'reviews page 1', path: `${list}&page=1` },
    { name: 'reviews page 50', path: `${list}&page=50` },
    { name: 'rating summary', path: `/api/reviews/rating/${productSlug}` },
  ];
}

/** Registers a shopper and answers the cookies of their signed-in session. */
export async function signedInCookies(baseUrl: string): Promise<string> {
  const jar = new Map<string, string>();
  const client = nextClientAddress();
  const send = async (path: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    headers.set('x-forwarded-for', client);
    headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    const response = await fetch(new URL(path, baseUrl), { ...init, headers });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = ''] = cookie.split(';');
      const split = pair.indexOf('=');
      jar.set(pair.slice(0, split), pair.slice(split + 1));
    }
    if (!response.ok) throw new Error(`${init.method ?? 'GET'} ${path} answered ${response.status}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  const { token } = await send('/api/auth/csrf-token');
  const suffix = Date.now().toString(36);
  await send('/api/auth/register', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-csrf-token': String(token) },
    body: JSON.stringify({
      username: `bench_${suffix}`,
      email: `bench.${suffix}@example.com`,
      password: 'Bench-Quiet-Water-42',
    }),
  });
  const me = await send('/api/auth/me');
  if (me.authenticated !== true) throw new Error('the benchmark shopper is not signed in');
  return [...jar].map(([name, value]) => `${name}=${value}`).join('; ');
}
