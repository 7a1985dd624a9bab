import { and, eq, inArray, isNull, lte, or, sql } from 'drizzle-orm';
import type { OrderStatus } from '#common/contracts/orders.ts';
import type { Mailer } from '#server/adapters/email/mailer.ts';
import {
  type Marketplace,
  MarketplaceError,
  type SupplierOrderLine,
  type SupplierOrderState,
} from '#server/adapters/marketplace/marketplace.ts';
import type { Db } from '#server/db/client.ts';
import { products } from '#server/features/catalog/catalog.tables.ts';
import type { DomainEvents } from '#server/features/events/domain-events.ts';
import { movableTo } from '#server/features/orders/order-status.ts';
import { orderItems, orders } from '#server/features/orders/orders.tables.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { type FulfilmentState, fulfilments } from './fulfilment.tables.ts';

/** How long a worker holds a placement: well past the marketplace client's own timeout (15 s). */
export const PLACEMENT_LEASE_MS = 2 * 60_000;
/** Attempts before a placement that keeps failing for passing reasons is handed to a person. */
export const MAX_PLACEMENT_ATTEMPTS = 8;
/** How often a placed supplier order's progress is read (the demo marketplace's: every minute, its steps being minutes). */
export const PROGRESS_CHECK_MS = 15 * 60_000;
const DEMO_PROGRESS_CHECK_MS = 60_000;
/** A delivered order is completed after this long (the window for a problem with the parcel). */
export const COMPLETE_AFTER_MS = 7 * 24 * 60 * 60_000;
/** Supplier orders read per sweep, and placements retried per sweep. */
const SWEEP_BATCH = 50;

/** 30 s, 1 min, 2 min, … up to an hour between attempts. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
}

type FulfilmentRow = typeof fulfilments.$inferSelect;

/**
 * Dropship fulfilment (issue 13): a paid order places its supplier order through the marketplace
 * adapter, exactly once; its progress then moves the order processing → shipped (tracking number,
 * the shopper emailed) → delivered → completed. Each step is a conditional write, so running a
 * step twice, or on two instances at once, does it once. A placement's attempt is recorded before
 * the call and sent with every retry: the marketplace keys the supplier order on our order id, so
 * a worker killed mid-call is followed by a retry that gets the same supplier order back.
 */
export function createFulfilment({
  db,
  marketplace,
  events,
  mailer,
  jobs,
  publicUrl,
  now = () => new Date(),
  log = () => {},
}: {
  db: Db;
  marketplace: Marketplace;
  events: DomainEvents;
  mailer: Mailer;
  jobs: Jobs;
  publicUrl: string;
  now?: () => Date;
  log?: (message: string, error?: unknown) => void;
}) {
  const later = (ms: number) => new Date(now().getTime() + ms);
  const checkEvery = marketplace.name === 'demo' ? DEMO_PROGRESS_CHECK_MS : PROGRESS_CHECK_MS;

  async function setState(orderId: string, state: FulfilmentState, fields: Partial<FulfilmentRow> = {}) {
    await db
      .update(fulfilments)
      .set({ ...fields, state, updatedAt: now() })
      .where(eq(fulfilments.orderId, orderId));
  }

  /** Moves the order to `status` when its status allows; true when this call moved it. */
  async function moveOrder(orderId: string, status: OrderStatus, fields: { aliTrackingNumber?: string } = {}) {
    const [moved] = await db
      .update(orders)
      .set({ status, ...fields, updatedAt: now() })
      .where(and(eq(orders.id, orderId), inArray(orders.status, movableTo(status))))
      .returning({ id: orders.id, email: orders.email, orderNumber: orders.orderNumber, channel: orders.channel });
    if (moved) events.publish({ type: 'order_updated', data: { collection: 'orders', id: orderId, status } });
    return moved ?? null;
  }

  /**
   * Takes the placement's lease: one worker at a time, and a lease left by a worker that died
   * expires. Null when the placement is not due (done, held, or waiting for its retry time).
   */
  async function lease(orderId: string): Promise<FulfilmentRow | null> {
    const at = now();
    const [row] = await db
      .update(fulfilments)
      .set({
        state: 'placing',
        attempts: sql`${fulfilments.attempts} + 1`,
        placedAt: sql`coalesce(${fulfilments.placedAt}, ${at})`,
        leaseUntil: new Date(at.getTime() + PLACEMENT_LEASE_MS),
        updatedAt: at,
      })
      .where(
        and(
          eq(fulfilments.orderId, orderId),
          or(
            eq(fulfilments.state, 'queued'),
            and(eq(fulfilments.state, 'retry'), lte(fulfilments.nextAttemptAt, at)),
            and(eq(fulfilments.state, 'placing'), lte(fulfilments.leaseUntil, at)),
          ),
        ),
      )
      .returning();
    return row ?? null;
  }

  /** Places the order's supplier order if it is due; returns the state it is left in. */
  async function place(orderId: string): Promise<FulfilmentState | null> {
    const row = await lease(orderId);
    if (!row) return null;
    const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
    if (order?.status !== 'processing') {
      await setState(orderId, 'done', {
        leaseUntil: null,
        lastError: 'The order is no longer waiting for fulfilment (cancelled or already moved on)',
      });
      return 'done';
    }
    const items = await db
      .select({
        aliId: products.aliId,
        skuAttr: orderItems.skuAttr,
        quantity: orderItems.quantity,
        name: orderItems.productName,
      })
      .from(orderItems)
      .leftJoin(products, eq(products.id, orderItems.productId))
      .where(eq(orderItems.orderId, orderId));
    const unplaceable = items.find((item) => !item.aliId);
    const address = order.shippingAddress;
    if (unplaceable || !address || items.length === 0) {
      const problem = !address
        ? 'The order has no shipping address'
        : unplaceable
          ? `"${unplaceable.name}" has no AliExpress product id`
          : 'The order has no lines';
      await setState(orderId, 'failed', { leaseUntil: null, lastError: problem });
      events.publish({ type: 'order_updated', data: { collection: 'orders', id: orderId } });
      return 'failed';
    }
    const lines: SupplierOrderLine[] = items.map((item) => ({
      productId: item.aliId as string,
      skuAttr: item.skuAttr ?? '',
      quantity: item.quantity,
    }));
    try {
      const { supplierOrderIds } = await marketplace.placeOrder({
        orderId,
        placedAt: row.placedAt ?? now(),
        address,
        lines,
      });
      // Only the lease holder's attempt is stored: a worker whose lease expired meanwhile writes nothing.
      const [stored] = await db
        .update(fulfilments)
        .set({
          state: 'placed',
          supplierOrderIds,
          leaseUntil: null,
          lastError: null,
          nextCheckAt: later(checkEvery),
          updatedAt: now(),
        })
        .where(
          and(
            eq(fulfilments.orderId, orderId),
            eq(fulfilments.state, 'placing'),
            eq(fulfilments.attempts, row.attempts),
          ),
        )
        .returning({ orderId: fulfilments.orderId });
      if (stored) {
        await db
          .update(orders)
          .set({ aliOrderId: supplierOrderIds.join(', '), updatedAt: now() })
          .where(eq(orders.id, orderId));
        events.publish({ type: 'order_updated', data: { collection: 'orders', id: orderId } });
      }
      return 'placed';
    } catch (error) {
      const transient = !(error instanceof MarketplaceError) || error.transient;
      const message = error instanceof Error ? error.message : String(error);
      if (transient && row.attempts < MAX_PLACEMENT_ATTEMPTS) {
        const wait = Math.max(
          retryDelayMs(row.attempts),
          error instanceof MarketplaceError ? (error.retryAfterMs ?? 0) : 0,
        );
        await setState(orderId, 'retry', { leaseUntil: null, lastError: message, nextAttemptAt: later(wait) });
        return 'retry';
      }
      log(`the supplier order of ${order.orderNumber} could not be placed`, error);
      await setState(orderId, 'failed', { leaseUntil: null, lastError: message });
      events.publish({ type: 'order_updated', data: { collection: 'orders', id: orderId } });
      return 'failed';
    }
  }

  async function mailShipped(
    to: string,
    orderNumber: string,
    orderId: string,
    tracking: string,
    carrier: string | null,
  ) {
    await mailer
      .send({
        to,
        subject: `Your Stillwater order ${orderNumber} has shipped`,
        text: [
          `Good news: your order ${orderNumber} is on its way.`,
          '',
          `Tracking number: ${tracking}${carrier ? ` (${carrier})` : ''}`,
          '',
          `Your order: ${publicUrl}/success?session_id=${orderId}`,
        ].join('\n'),
        template: 'order-shipped',
      })
      .catch((error: unknown) => log(`the shipping mail of ${orderNumber} could not be sent`, error));
  }

  /** The least advanced of the supplier orders: an order has shipped when all its parcels have. */
  function slowest(states: SupplierOrderState[]): SupplierOrderState {
    const rank: Record<string, number> = { placed: 0, processing: 1, shipped: 2, delivered: 3 };
    return states.reduce((a, b) => ((rank[b.status] ?? -1) < (rank[a.status] ?? -1) ? b : a));
  }

  /** Reads a placed supplier order's progress and moves the order on. */
  async function checkProgress(row: FulfilmentRow): Promise<void> {
    const { orderId } = row;
    let states: SupplierOrderState[];
    try {
      states = await Promise.all(row.supplierOrderIds.map((id) => marketplace.getOrder(id)));
    } catch (error) {
      await setState(orderId, 'placed', {
        lastError: error instanceof Error ? error.message : String(error),
        nextCheckAt: later(checkEvery),
      });
      return;
    }
    if (states.length === 0) return;
    const supplierStatus = states.map((state) => state.supplierStatus).join(', ');
    if (states.some((state) => state.status === 'cancelled' || state.status === 'on_hold')) {
      const cancelled = states.some((state) => state.status === 'cancelled');
      await setState(orderId, cancelled ? 'failed' : 'placed', {
        supplierStatus,
        lastError: cancelled
          ? 'The supplier cancelled the order: refund the shopper or place it again by hand'
          : 'The supplier order is on hold (a dispute or a payment check): see the marketplace',
        nextCheckAt: later(checkEvery),
      });
      events.publish({ type: 'order_updated', data: { collection: 'orders', id: orderId } });
      return;
    }
    const least = slowest(states);
    const tracking = states.flatMap((state) => state.trackingNumbers);
    let deliveredAt = row.deliveredAt;
    if (least.status === 'shipped' || least.status === 'delivered') {
      const numbers = tracking.map((parcel) => parcel.trackingNumber).join(', ');
      const shipped = await moveOrder(orderId, 'shipped', { aliTrackingNumber: numbers });
      // A channel's buyer hears of the parcel from the channel, not from us.
      if (shipped?.channel === 'web')
        await mailShipped(shipped.email, shipped.orderNumber, orderId, numbers, tracking[0]?.carrier ?? null);
    }
    if (least.status === 'delivered') {
      await moveOrder(orderId, 'delivered');
      deliveredAt ??= now();
    }
    let state: FulfilmentState = 'placed';
    if (deliveredAt && now().getTime() - deliveredAt.getTime() >= COMPLETE_AFTER_MS) {
      await moveOrder(orderId, 'completed');
      state = 'done';
    }
    await setState(orderId, state, {
      supplierStatus,
      lastError: null,
      deliveredAt,
      nextCheckAt: state === 'done' ? null : later(checkEvery),
    });
  }

  const placeJob = jobs.define<{ orderId: string }>('fulfilment.place', async ({ orderId }) => {
    await place(orderId);
  });

  /**
   * Called once an order is paid: the placement is recorded (once, whatever the number of calls)
   * and handed to the job. A placement lost on the way is found again by the sweep.
   */
  async function orderPaid(orderId: string) {
    await db.insert(fulfilments).values({ orderId }).onConflictDoNothing();
    await placeJob({ orderId });
  }

  /** Every minute: placements due (first tries lost, retries, leases of dead workers) and progress to read. */
  async function sweep() {
    const at = now();
    const due = await db
      .select({ orderId: fulfilments.orderId })
      .from(fulfilments)
      .where(
        or(
          eq(fulfilments.state, 'queued'),
          and(eq(fulfilments.state, 'retry'), lte(fulfilments.nextAttemptAt, at)),
          and(eq(fulfilments.state, 'placing'), lte(fulfilments.leaseUntil, at)),
        ),
      )
      .limit(SWEEP_BATCH);
    for (const { orderId } of due) await place(orderId);
    const toCheck = await db
      .select()
      .from(fulfilments)
      .where(
        and(eq(fulfilments.state, 'placed'), or(isNull(fulfilments.nextCheckAt), lte(fulfilments.nextCheckAt, at))),
      )
      .limit(SWEEP_BATCH);
    for (const row of toCheck) await checkProgress(row);
    return { placed: due.length, checked: toCheck.length };
  }

  return { orderPaid, place, sweep };
}

export type Fulfilment = ReturnType<typeof createFulfilment>;

/** The sweep as a scheduled job (every minute; once across the instances, pg-boss decides). */
export function fulfilmentSweepJob(fulfilment: Fulfilment) {
  return { name: 'fulfilment.sweep', schedule: '* * * * *', run: () => fulfilment.sweep() };
}
