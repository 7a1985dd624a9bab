/**
 * The checkout's cost: the SQL statements of one whole checkout (a payment created, three syncs
 * for shipping, billing and email, the card confirmed, the order completed), counted through the
 * app in-process on the stopped benchmark shop's database; and the payment-intent call under
 * load against the running shop.
 */
import path from 'node:path';
import { buildApp } from '../../server/app.ts';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { createJobs } from '../../server/jobs/job-queue.ts';
import { testClient } from '../../server/testing/test-client.ts';
import { nextClientAddress } from './client-address.ts';

export const checkoutBench = {
  /** A product of the demo shop with one option chosen, bought once. */
  product: 'desktop-fountain',
  load: { durationSeconds: 10, connections: 20, warmupSeconds: 2 },
};

const address = {
  name: 'Bench Shopper',
  street: '1 Quiet Lane',
  line2: '',
  city: 'Austin',
  state: 'TX',
  zipCode: '73301',
  country: 'US',
};
const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123', name: 'Bench Shopper' };

export type StatementCount = {
  /** The shop's own statements (transaction control not counted). */
  shop: number;
  /** The built-in test processor's (it stands where Stripe's API would be). */
  processor: number;
  perStep: Record<string, number>;
  /** Statements the shop ran more than once in the checkout, with how often. */
  repeated: { statement: string; times: number }[];
};

/** Runs one checkout through the app on the shop's database (the shop stopped) and counts its SQL. */
export async function countCheckoutStatements(dataDir: string, productSlug: string): Promise<StatementCount> {
  const seen: string[] = [];
  const database = await openDatabase(
    { kind: 'pglite', dir: path.join(dataDir, 'db') },
    { logQuery: (sql) => seen.push(sql) },
  );
  const jobs = createJobs();
  jobs.runInProcess(() => {});
  const config = loadConfig({ NODE_ENV: 'test', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await buildApp({
    config,
    database,
    signingKey: 'bench-signing-key-0123456789abcdefghij',
    web: null,
    jobs,
  });
  try {
    const browser = testClient(app, { remoteAddress: nextClientAddress() });
    const product = (await browser.get(`/api/products/${productSlug}`)).json() as {
      id: string;
      skuVariants: { skuId: string; isActive: boolean; stock: number }[];
    };
    const variant = product.skuVariants.find((v) => v.isActive && v.stock > 0);
    const items = [{ id: product.id, quantity: 1, ...(variant ? { skuId: variant.skuId } : {}) }];
    await browser.get('/api/auth/csrf-token');
    const perStep: Record<string, number> = {};
    const step = async <T>(name: string, run: () => Promise<T>) => {
      const before = seen.length;
      const result = await run();
      perStep[name] = seen.slice(before).filter((sql) => !isProcessor(sql)).length;
      return result;
    };
    seen.length = 0;
    const body = { metaVersion: 2, items, email: 'bench.checkout@example.com' };
    const created = await step('create', async () =>
      (await browser.post('/api/create-or-update-payment-intent', body)).json(),
    );
    for (const reason of ['shipping_update', 'billing_update', 'email_update']) {
      await step(reason, () =>
        browser.post('/api/create-or-update-payment-intent', {
          ...body,
          shipping: address,
          billing: address,
          reason,
          paymentIntentId: created.id,
        }),
      );
    }
    await step('confirm', () =>
      browser.post('/api/payments/test-card/confirm', { clientSecret: created.clientSecret, card }),
    );
    const completed = await step('complete', () =>
      browser.post('/api/checkout/complete', { paymentIntentId: created.id }),
    );
    if (completed.statusCode !== 200) throw new Error(`the checkout did not complete: ${completed.body}`);
    await jobs.idle();
    const shop = seen.filter((sql) => !isProcessor(sql));
    const times = new Map<string, number>();
    for (const sql of shop) times.set(sql, (times.get(sql) ?? 0) + 1);
    return {
      shop: shop.length,
      processor: seen.length - shop.length,
      perStep,
      repeated: [...times]
        .filter(([, n]) => n > 1)
        .map(([statement, n]) => ({ statement: statement.slice(0, 100), times: n })),
    };
  } finally {
    await app.close();
    await database.close();
  }
}

const isProcessor = (sql: string) => /"local_test_(payments|idempotency_keys)"/.test(sql);

/** A browser's CSRF cookie and token, for the load test's POSTs. */
export async function csrfHeaders(baseUrl: string): Promise<Record<string, string>> {
  const response = await fetch(new URL('/api/auth/csrf-token', baseUrl), {
    headers: { 'x-forwarded-for': nextClientAddress() },
  });
  const { token } = (await response.json()) as { token: string };
  const cookie = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0])
    .join('; ');
  return { cookie, 'x-csrf-token': token, 'content-type': 'application/json' };
}

/** The body of a payment-intent call with a complete address: a new payment priced each time. */
export async function intentBody(baseUrl: string, productSlug: string): Promise<string> {
  const product = (await (await fetch(new URL(`/api/products/${productSlug}`, baseUrl))).json()) as {
    id: string;
    skuVariants: { skuId: string; isActive: boolean; stock: number }[];
  };
  const variant = product.skuVariants.find((v) => v.isActive && v.stock > 0);
  return JSON.stringify({
    metaVersion: 2,
    items: [{ id: product.id, quantity: 1, ...(variant ? { skuId: variant.skuId } : {}) }],
    email: 'bench.load@example.com',
    shipping: address,
  });
}
