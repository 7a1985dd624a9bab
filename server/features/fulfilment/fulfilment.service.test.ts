import { and, eq, inArray, isNotNull } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import type { MailMessage } from '#server/adapters/email/mailer.ts';
import { createDemoMarketplace } from '#server/adapters/marketplace/demo-marketplace.ts';
import {
  type Marketplace,
  MarketplaceError,
  type SupplierOrderRequest,
} from '#server/adapters/marketplace/marketplace.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import type { DomainEvent, DomainEvents } from '#server/features/events/domain-events.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import {
  COMPLETE_AFTER_MS,
  createFulfilment,
  MAX_PLACEMENT_ATTEMPTS,
  PLACEMENT_LEASE_MS,
  PROGRESS_CHECK_MS,
} from './fulfilment.service.ts';
import { fulfilments } from './fulfilment.tables.ts';

const database = await createTestDatabase();
const { db } = database;
afterAll(() => database.close());

const STEP_MS = 60_000;
let clock = Date.now();
const now = () => new Date(clock);

/** A fulfilment over the demo marketplace, a clock the test moves, and what it sent. */
function setUp(wrap: (demo: Marketplace) => Marketplace = (demo) => demo) {
  const demo = createDemoMarketplace({ stepMs: STEP_MS, now: () => clock });
  const marketplace = wrap(demo);
  const mail: MailMessage[] = [];
  const published: DomainEvent[] = [];
  const jobs = createJobs();
  const jobErrors: unknown[] = [];
  jobs.runInProcess((error) => jobErrors.push(error));
  const fulfilment = createFulfilment({
    db,
    marketplace,
    events: { publish: (event: DomainEvent) => published.push(event) } as unknown as DomainEvents,
    mailer: {
      name: 'outbox',
      send: async (message) => {
        mail.push(message);
        return { id: String(mail.length), delivered: true };
      },
    },
    jobs,
    publicUrl: 'https://shop.example',
    now,
  });
  return { fulfilment, mail, published, jobs, jobErrors };
}

/** Paid seed orders whose every line is a marketplace product, each used by one test. */
const candidates = await db
  .select({ id: orders.id })
  .from(orders)
  .where(and(eq(orders.status, 'processing'), isNotNull(orders.shippingAddress)))
  .limit(40);
const unused = candidates.map((c) => c.id);
async function paidOrder(): Promise<string> {
  for (let id = unused.shift(); id; id = unused.shift()) {
    const lines = await db
      .select({ aliId: products.aliId })
      .from(orderItems)
      .leftJoin(products, eq(products.id, orderItems.productId))
      .where(eq(orderItems.orderId, id));
    if (lines.length > 0 && lines.every((line) => line.aliId)) {
      await db.update(orders).set({ aliOrderId: null, aliTrackingNumber: null }).where(eq(orders.id, id));
      return id;
    }
  }
  throw new Error('no paid seed order left');
}

const rowOf = async (orderId: string) =>
  (await db.select().from(fulfilments).where(eq(fulfilments.orderId, orderId)))[0];
const orderOf = async (orderId: string) => (await db.select().from(orders).where(eq(orders.id, orderId)))[0];

describe('placing the supplier order', () => {
  test('a paid order is placed once, however often it is handed over or its job runs', async () => {
    const calls: SupplierOrderRequest[] = [];
    const { fulfilment, jobs } = setUp((demo) => ({
      ...demo,
      placeOrder: async (request) => {
        calls.push(request);
        return demo.placeOrder(request);
      },
    }));
    const orderId = await paidOrder();
    await fulfilment.orderPaid(orderId);
    await fulfilment.orderPaid(orderId);
    await jobs.idle();
    await fulfilment.place(orderId);
    await fulfilment.sweep();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.orderId).toBe(orderId);
    const row = await rowOf(orderId);
    expect(row).toMatchObject({ state: 'placed', attempts: 1 });
    expect((await orderOf(orderId))?.aliOrderId).toBe(row?.supplierOrderIds.join(', '));
  });

  test('a worker killed mid-call: the retry after its lease gets the same supplier order back', async () => {
    const answers: string[] = [];
    let hang = true;
    const { fulfilment } = setUp((demo) => ({
      ...demo,
      placeOrder: async (request) => {
        const answer = await demo.placeOrder(request);
        answers.push(...answer.supplierOrderIds);
        // The first worker dies after the marketplace took the order, before it stored the answer.
        if (hang) {
          hang = false;
          return new Promise<never>(() => {});
        }
        return answer;
      },
    }));
    const orderId = await paidOrder();
    await db.insert(fulfilments).values({ orderId });
    void fulfilment.place(orderId);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await rowOf(orderId))?.state).toBe('placing');
    // Within the lease nobody else places it; past it, the sweep does.
    await fulfilment.sweep();
    expect(answers).toHaveLength(1);
    clock += PLACEMENT_LEASE_MS + 1000;
    await fulfilment.sweep();
    expect(answers).toHaveLength(2);
    expect(new Set(answers).size).toBe(1);
    const row = await rowOf(orderId);
    expect(row).toMatchObject({ state: 'placed', attempts: 2, supplierOrderIds: [answers[0]] });
  });

  test('passing failures are retried with backoff, then handed to a person; refusals at once', async () => {
    let failure: MarketplaceError = new MarketplaceError('outage', 'AliExpress did not answer');
    const { fulfilment, published } = setUp((demo) => ({
      ...demo,
      placeOrder: async () => {
        throw failure;
      },
    }));
    const orderId = await paidOrder();
    await db.insert(fulfilments).values({ orderId });
    expect(await fulfilment.place(orderId)).toBe('retry');
    const first = await rowOf(orderId);
    expect(first?.lastError).toBe('AliExpress did not answer');
    expect(first?.nextAttemptAt?.getTime()).toBe(clock + 30_000);
    // Not before its time.
    expect(await fulfilment.place(orderId)).toBeNull();
    for (let attempt = 2; attempt < MAX_PLACEMENT_ATTEMPTS; attempt++) {
      clock += 2 * 60 * 60_000;
      expect(await fulfilment.place(orderId)).toBe('retry');
    }
    clock += 2 * 60 * 60_000;
    expect(await fulfilment.place(orderId)).toBe('failed');
    expect(published.at(-1)).toMatchObject({ type: 'order_updated', data: { id: orderId } });

    const refused = await paidOrder();
    await db.insert(fulfilments).values({ orderId: refused });
    failure = new MarketplaceError('rejected', 'Product 1005 has no SKU 14:9');
    expect(await fulfilment.place(refused)).toBe('failed');
    expect((await rowOf(refused))?.lastError).toBe('Product 1005 has no SKU 14:9');
  });

  test('a line without a marketplace product, or an order cancelled meanwhile, is not placed', async () => {
    const { fulfilment } = setUp((demo) => ({
      ...demo,
      placeOrder: async () => {
        throw new Error('must not be called');
      },
    }));
    const orderId = await paidOrder();
    const [line] = await db.select().from(orderItems).where(eq(orderItems.orderId, orderId)).limit(1);
    await db
      .update(orderItems)
      .set({ productId: null })
      .where(eq(orderItems.id, line?.id as string));
    await db.insert(fulfilments).values({ orderId });
    expect(await fulfilment.place(orderId)).toBe('failed');
    expect((await rowOf(orderId))?.lastError).toBe(`"${line?.productName}" has no AliExpress product id`);

    const cancelled = await paidOrder();
    await db.update(orders).set({ status: 'cancelled' }).where(eq(orders.id, cancelled));
    await db.insert(fulfilments).values({ orderId: cancelled });
    expect(await fulfilment.place(cancelled)).toBe('done');
  });
});

describe("the supplier order's progress", () => {
  test('processing → shipped (tracking, one mail) → delivered → completed', async () => {
    const { fulfilment, mail } = setUp();
    const orderId = await paidOrder();
    await db.insert(fulfilments).values({ orderId });
    await fulfilment.place(orderId);
    const order = await orderOf(orderId);

    clock += PROGRESS_CHECK_MS;
    await fulfilment.sweep();
    // The demo's first step (processing) lasts STEP_MS, less than a check's interval: shipped now.
    const shipped = await orderOf(orderId);
    expect(shipped?.status).toBe('delivered');
    expect(shipped?.aliTrackingNumber).toMatch(/^DEMO\d+/);
    // The sweep also moves the other tests' orders on: this order's mail only.
    const shippingMail = mail.filter((m) => m.subject.includes(`${order?.orderNumber} has shipped`));
    expect(shippingMail).toHaveLength(1);
    expect(shippingMail[0]?.to).toBe(order?.email);
    expect(shippingMail[0]?.text).toContain(shipped?.aliTrackingNumber as string);

    clock += PROGRESS_CHECK_MS;
    await fulfilment.sweep();
    expect((await orderOf(orderId))?.status).toBe('delivered');
    clock += COMPLETE_AFTER_MS;
    await fulfilment.sweep();
    expect((await orderOf(orderId))?.status).toBe('completed');
    expect((await rowOf(orderId))?.state).toBe('done');
    expect(mail.filter((m) => m.subject.includes(`${order?.orderNumber} has shipped`))).toHaveLength(1);
  });

  test('shipped first, then delivered: each move once, the mail once', async () => {
    const { fulfilment, mail } = setUp();
    const orderId = await paidOrder();
    await db.insert(fulfilments).values({ orderId });
    await fulfilment.place(orderId);
    await db.update(fulfilments).set({ nextCheckAt: null }).where(eq(fulfilments.orderId, orderId));
    clock += STEP_MS + 1000;
    await Promise.all([fulfilment.sweep(), fulfilment.sweep()]);
    const order = await orderOf(orderId);
    expect(order?.status).toBe('shipped');
    expect(mail.filter((m) => m.subject.includes(`${order?.orderNumber} has shipped`))).toHaveLength(1);
  });

  test('a supplier order the marketplace cancels is shown on the order for a person', async () => {
    const { fulfilment, published } = setUp((demo) => ({
      ...demo,
      getOrder: async (id) => ({
        supplierOrderId: id,
        status: 'cancelled',
        supplierStatus: 'FINISH',
        trackingNumbers: [],
      }),
    }));
    const orderId = await paidOrder();
    await db.insert(fulfilments).values({ orderId });
    await fulfilment.place(orderId);
    clock += PROGRESS_CHECK_MS;
    await fulfilment.sweep();
    const row = await rowOf(orderId);
    expect(row).toMatchObject({ state: 'failed', supplierStatus: 'FINISH' });
    expect(row?.lastError).toContain('The supplier cancelled the order');
    expect(published.some((e) => e.type === 'order_updated' && e.data.id === orderId)).toBe(true);
    expect(
      (
        await db
          .select()
          .from(fulfilments)
          .where(inArray(fulfilments.orderId, [orderId]))
      ).length,
    ).toBe(1);
  });
});
