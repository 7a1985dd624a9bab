import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { createDemoMarketplace } from '#server/adapters/marketplace/demo-marketplace.ts';
import { type Marketplace, MarketplaceError } from '#server/adapters/marketplace/marketplace.ts';
import { products, skuVariants } from '#server/features/catalog/catalog.tables.ts';
import type { DomainEvent } from '#server/features/events/domain-events.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { createMarketplaceRefresh, REFRESH_INTERVAL_MS } from './marketplace-refresh.job.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

const demo = createDemoMarketplace();

/** A refresh over the test database with its own jobs (run in this process), events and clock. */
function setUp(marketplace: Marketplace, { batchSize = 4 } = {}) {
  const jobs = createJobs();
  const errors: unknown[] = [];
  jobs.runInProcess((error) => errors.push(error));
  const published: DomainEvent[] = [];
  const warnings: string[] = [];
  let clock = Date.UTC(2026, 5, 1);
  const refresh = createMarketplaceRefresh({
    db,
    marketplace,
    events: { publish: (event) => published.push(event) },
    jobs,
    log: { warn: (message) => warnings.push(message) },
    batchSize,
    now: () => clock,
  });
  return {
    refresh,
    published,
    warnings,
    advance: (ms: number) => {
      clock += ms;
    },
    async done() {
      // The request hands the job over without waiting: let it reach the queue first.
      await new Promise((resolve) => setImmediate(resolve));
      await jobs.idle();
      expect(errors).toEqual([]);
    },
  };
}

const activeWithAliId = () =>
  db
    .select({ id: products.id, aliId: products.aliId })
    .from(products)
    .where(and(eq(products.status, 'active'), isNotNull(products.aliId)));

/** The demo marketplace, counting the products it is asked about. */
function counting(base: Marketplace, asked: string[]): Marketplace {
  return {
    ...base,
    getProduct: (id) => {
      asked.push(id);
      return base.getProduct(id);
    },
  };
}

describe('the marketplace refresh', () => {
  test('at most once an hour per instance, and the request never waits for the queue', async () => {
    const never = { define: () => () => new Promise<void>(() => {}) };
    const refresh = createMarketplaceRefresh({
      db,
      marketplace: demo,
      events: { publish: () => {} },
      jobs: never,
      log: { warn: () => {} },
      now: (() => {
        let calls = 0;
        const start = Date.UTC(2026, 5, 1);
        const times = [start, start + 1000, start + REFRESH_INTERVAL_MS - 1, start + REFRESH_INTERVAL_MS];
        return () => times[Math.min(calls++, times.length - 1)] ?? start;
      })(),
    });
    // A queue that never takes the job (not attached yet) does not hold the answer.
    expect(refresh.request()).toEqual({ started: true });
    expect(refresh.request()).toEqual({ started: false });
    expect(refresh.request()).toEqual({ started: false });
    expect(refresh.request()).toEqual({ started: true });
  });

  test('asks about every active product with a marketplace id, a few at a time, and changes nothing that matches', async () => {
    const asked: string[] = [];
    const { refresh, published, done } = setUp(counting(demo, asked), { batchSize: 4 });
    expect(refresh.request()).toEqual({ started: true });
    await done();
    const expected = (await activeWithAliId()).map((p) => p.aliId);
    expect(asked.sort()).toEqual(expected.sort());
    expect(asked.length).toBeGreaterThan(4);
    // The seeded shop matches the demo marketplace.
    expect(published).toEqual([]);
  });

  test("brings back the marketplace's cost and stock (variants by skuAttr) and publishes product_updated for each change", async () => {
    const [product] = await db
      .select({ id: products.id, aliId: products.aliId, cost: products.aliExpressPrice, stock: products.stock })
      .from(products)
      .where(eq(products.slug, 'desktop-fountain'));
    if (!product?.aliId) throw new Error('no desktop fountain');
    const variants = await db.select().from(skuVariants).where(eq(skuVariants.productId, product.id));
    const [first] = variants;
    if (!first) throw new Error('no variants');
    await db.update(skuVariants).set({ stock: 999 }).where(eq(skuVariants.id, first.id));
    await db.update(products).set({ aliExpressPrice: 1, stock: 5 }).where(eq(products.id, product.id));
    // A draft is not refreshed.
    const [draft] = await db
      .update(products)
      .set({ status: 'draft', aliExpressPrice: 2 })
      .where(eq(products.slug, 'moon-lamp'))
      .returning({ id: products.id });

    const { refresh, published, done } = setUp(demo);
    refresh.request();
    await done();

    const marketplaceProduct = await demo.getProduct(product.aliId);
    const [after] = await db.select().from(products).where(eq(products.id, product.id));
    expect(after?.aliExpressPrice).toBe(marketplaceProduct.cost);
    const [variantAfter] = await db.select().from(skuVariants).where(eq(skuVariants.id, first.id));
    expect(variantAfter?.stock).toBe(first.stock);
    expect(after?.stock).toBe(product.stock);
    expect(published).toEqual([
      {
        type: 'product_updated',
        data: {
          collection: 'products',
          id: product.id,
          aliExpressPrice: marketplaceProduct.cost,
          stock: product.stock,
        },
      },
    ]);
    const [draftAfter] = await db
      .select()
      .from(products)
      .where(eq(products.id, draft?.id ?? ''));
    expect(draftAfter?.aliExpressPrice).toBe(2);
    await db
      .update(products)
      .set({ status: 'active' })
      .where(eq(products.id, draft?.id ?? ''));
  });

  test('a product gone from the marketplace is skipped; an outage stops the run until the next refresh', async () => {
    const all = await activeWithAliId();
    const [gone, down] = [...all].sort((a, b) => (a.id < b.id ? -1 : 1));
    const asked: string[] = [];
    const flaky: Marketplace = {
      ...demo,
      async getProduct(id) {
        asked.push(id);
        if (id === gone?.aliId) throw new MarketplaceError('not_found', 'gone');
        if (id === down?.aliId) throw new MarketplaceError('outage', 'down');
        return demo.getProduct(id);
      },
    };
    const { refresh, warnings, done, advance } = setUp(flaky, { batchSize: 10 });
    refresh.request();
    await done();
    expect(asked).toEqual([gone?.aliId, down?.aliId]);
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toContain('stopped');
    // An hour later, it is tried again.
    advance(REFRESH_INTERVAL_MS);
    expect(refresh.request()).toEqual({ started: true });
    await done();
  });

  test('refused credentials stop the run at the first product instead of failing once per product', async () => {
    const asked: string[] = [];
    const refused: Marketplace = {
      ...demo,
      async getProduct(id) {
        asked.push(id);
        throw new MarketplaceError('auth', 'AliExpress refused the access token');
      },
    };
    const { refresh, warnings, done } = setUp(refused);
    refresh.request();
    await done();
    expect(asked).toHaveLength(1);
    expect(warnings).toEqual([expect.stringContaining('stopped')]);
  });
});
