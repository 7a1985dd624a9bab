import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { AdEventInput } from '#common/contracts/tracking.ts';
import { type AdEventData, type AdEventsApi, AdEventsApiError } from '#server/adapters/tracking/ad-events-api.ts';
import type { Db } from '#server/db/client.ts';
import { paidStatuses } from '#server/features/orders/order-status.ts';
import { orders } from '#server/features/orders/orders.tables.ts';
import { invalid } from '#server/http/errors.ts';
import type { Jobs } from '#server/jobs/job-queue.ts';
import { hashedIdentity } from './hashed-identity.ts';
import { adEvents } from './tracking.tables.ts';

/** An event older than this (or from the future) is refused: the Events API takes recent events. */
export const EVENT_MAX_AGE_SECONDS = 7 * 24 * 3600;
const EVENT_CLOCK_SKEW_SECONDS = 5 * 60;
/** Runs of the forwarding job, the first included, before an event is marked failed. */
export const FORWARD_ATTEMPTS = 6;

/**
 * The ad tracker's server side: events the browser reports with the visitor's consent, with their
 * identity hashed here before anything leaves, recorded once per event id, and forwarded to the
 * Events API by a background job with retries when it is configured (otherwise only recorded).
 */
export function createTrackingService({
  db,
  eventsApi,
  jobs,
  forwardTestEventCode,
}: {
  db: Db;
  /** Null: events are recorded locally only. */
  eventsApi: AdEventsApi | null;
  jobs: Jobs;
  /** The fixed test code goes along outside production only (real traffic must not carry it). */
  forwardTestEventCode: boolean;
}) {
  /**
   * One run of the forwarding job: sends a queued event and marks it sent; a transient failure is
   * thrown for the queue to run it again later (backoff), until the last attempt marks it failed.
   */
  async function forwardEvent(id: number) {
    if (!eventsApi) return;
    const [row] = await db
      .update(adEvents)
      .set({ attempts: sql`${adEvents.attempts} + 1` })
      .where(and(eq(adEvents.id, id), eq(adEvents.status, 'queued')))
      .returning();
    if (!row) return;
    try {
      await eventsApi.send(row.payload as AdEventData, { testEventCode: row.testEventCode });
      await db.update(adEvents).set({ status: 'sent', sentAt: new Date(), lastError: null }).where(eq(adEvents.id, id));
    } catch (error) {
      const message = error instanceof Error ? error.message.slice(0, 300) : 'failed';
      const final = !(error instanceof AdEventsApiError && error.transient) || row.attempts >= FORWARD_ATTEMPTS;
      await db
        .update(adEvents)
        .set({ lastError: message, ...(final ? { status: 'failed' as const } : {}) })
        .where(eq(adEvents.id, id));
      if (!final) throw error;
    }
  }

  const forward = jobs.define<{ id: number }>('tracking.forward-ad-event', ({ id }) => forwardEvent(id), {
    retryLimit: FORWARD_ATTEMPTS - 1,
    retryDelay: 30,
    retryBackoff: true,
  });

  /** The order's own total for a CompletePayment: the browser's figure is not trusted. */
  async function paidOrderValue(orderId: string | undefined) {
    if (!orderId) throw invalid('properties.order_id', 'A CompletePayment event needs the order_id of a paid order');
    const [order] = await db
      .select({ total: orders.total })
      .from(orders)
      .where(
        and(
          eq(orders.id, orderId),
          inArray(orders.status, [...paidStatuses]),
          gte(orders.createdAt, new Date(Date.now() - EVENT_MAX_AGE_SECONDS * 1000)),
        ),
      );
    if (!order) throw invalid('properties.order_id', 'A CompletePayment event needs the order_id of a paid order');
    return order.total / 100;
  }

  /** Records (and, when configured, forwards) one event; false when its id was reported before. */
  async function track(input: AdEventInput, visitor: { ip: string; userAgent: string }): Promise<boolean> {
    const now = Math.floor(Date.now() / 1000);
    if (input.event_time < now - EVENT_MAX_AGE_SECONDS || input.event_time > now + EVENT_CLOCK_SKEW_SECONDS) {
      throw invalid('event_time', 'event_time must be unix seconds within the last 7 days');
    }
    const properties = { ...input.properties };
    if (input.event === 'CompletePayment') {
      properties.value = await paidOrderValue(properties.order_id);
      properties.currency = 'USD';
    }
    const user: Record<string, string> = {
      ...hashedIdentity(input.user ?? {}),
      // The visitor's own address and browser, as this request shows them (not as the body claims).
      ip: visitor.ip,
      user_agent: visitor.userAgent,
    };
    if (input.user?.ttclid) user.ttclid = input.user.ttclid;
    if (input.user?.ttp) user.ttp = input.user.ttp;
    const payload: AdEventData = {
      event: input.event,
      event_id: input.event_id,
      event_time: input.event_time,
      user,
      properties,
      ...(input.page ? { page: input.page } : {}),
    };
    const [row] = await db
      .insert(adEvents)
      .values({
        eventId: input.event_id,
        event: input.event,
        eventTime: new Date(input.event_time * 1000),
        payload,
        testEventCode: forwardTestEventCode ? (input.test_event_code ?? null) : null,
        status: eventsApi ? 'queued' : 'recorded',
      })
      .onConflictDoNothing()
      .returning({ id: adEvents.id });
    if (!row) return false;
    if (eventsApi) await forward({ id: row.id });
    return true;
  }

  return { track, forwardEvent };
}

export type TrackingService = ReturnType<typeof createTrackingService>;
