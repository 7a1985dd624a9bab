/**
 * What happened in the shop, as the back office's live stream carries it (spec: type and
 * data.collection). Features publish here after a write; subscribers react: the public cache
 * (dropped on any event), the live stream (every stored event with its id) and the settings
 * (internal signals).
 *
 * Every published event is stored in `live_events`, whose serial id is the stream's event id, and
 * reaches the subscribers of every instance once: through PostgreSQL LISTEN/NOTIFY, or Redis
 * pub/sub when a Redis client is given, or in-process on the embedded database (fan-out.ts).
 * Publishing stays synchronous for the writer: the storing and the fan-out run in the background
 * and their failures are logged.
 */
import { randomBytes } from 'node:crypto';
import { and, asc, eq, gt, lt, lte, max, min, or } from 'drizzle-orm';
import {
  type LiveEvent,
  type LiveEventCollection,
  type LiveEventType,
  liveEventCollections,
  liveEventTypes,
} from '#common/live-events.ts';
import type { Database, Db } from '#server/db/client.ts';
import { liveEvents } from './events.tables.ts';
import { createFanOut, type ShopRedis, type WireEvent } from './fan-out.ts';

export { type ShopRedis, shopRedisPrefix } from './fan-out.ts';

export const eventCollections = liveEventCollections;
export type EventCollection = LiveEventCollection;
export const eventTypes = liveEventTypes;
export type EventType = LiveEventType;

export type DomainEvent = LiveEvent;
/** An event as stored: its id is the stream's event id, increasing in the order events were stored. */
export type StoredEvent = DomainEvent & { id: number };

export type EventListener = (event: DomainEvent) => void;
export type StoredEventListener = (event: StoredEvent) => void;

/**
 * Signals between instances that are not shop events (never stored, never streamed): each tells
 * every other instance to drop what it keeps in memory. `settings_changed`: read the settings again.
 */
export const internalSignals = ['settings_changed'] as const;
export type InternalSignal = (typeof internalSignals)[number];

/**
 * The backlog a reconnecting client resumes from: the newest 1,000 events, none older than a day.
 * A client keeps at most 100 events in each of 5 collections (spec 9), so 1,000 covers a resume
 * twice over; a client away longer than that, or for a day, reloads its lists instead of
 * replaying them. The table stays a few hundred kilobytes whatever the shop's traffic.
 */
export const BACKLOG_MAX_EVENTS = 1000;
export const BACKLOG_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** The backlog is pruned at start, every 5 minutes, and after every 200 events this instance stores. */
const PRUNE_EVERY_MS = 5 * 60 * 1000;
const PRUNE_EVERY_EVENTS = 200;
/**
 * Each instance also looks for stored events it has not heard of every 30 s (a message lost while
 * Redis or the listening connection was away); the fan-out catches up at once when it reconnects.
 */
const CATCH_UP_EVERY_MS = 30_000;
/** Events may arrive out of id order through Redis: catching up looks this far back for ones not seen. */
const CATCH_UP_WINDOW = 200;

export type BacklogAnswer =
  /** The events after the client's id, in order (none when it is up to date). */
  | { reload: false; events: StoredEvent[] }
  /** The client's id is older than the backlog, or unknown here: it must reload everything. */
  | { reload: true; latestId: number };

export interface DomainEvents {
  /**
   * Stores the event and tells every instance. This instance's subscribers hear it at once
   * (synchronously); a failing subscriber stops neither the others nor the write.
   */
  publish(event: DomainEvent): void;
  /** Every event once, whichever instance published it (this one's at once). Returns the unsubscribe. */
  subscribe(listener: EventListener): () => void;
  /** Every stored event once, with its id, from every instance (this one's too, once stored). */
  subscribeStored(listener: StoredEventListener): () => void;
  /** The id of the newest stored event this instance has delivered. */
  lastId(): number;
  /** The id of the newest stored event, whether or not it has reached this instance yet (where a new stream starts). */
  newestStoredId(): Promise<number>;
  /** What a client that last saw `afterId` missed, from the stored backlog. */
  backlog(afterId: number): Promise<BacklogAnswer>;
  /** Tells every instance (this one at once, synchronously) to act on the signal. */
  notifyInternal(signal: InternalSignal): void;
  /** Called for the signal from any instance, and whenever a lost connection to the others is back. */
  onInternal(signal: InternalSignal, listener: () => void): () => void;
  /** Resolves once the events and signals published so far are stored and sent. */
  settled(): Promise<void>;
  /** Connects to the other instances; call once, before serving. */
  start(): Promise<void>;
  /** Stores what is still pending, then disconnects. */
  close(): Promise<void>;
}

/** A bounded set of the ids seen last (oldest forgotten first). */
function recentIds(capacity: number) {
  const ids = new Set<number>();
  return {
    has: (id: number) => ids.has(id),
    add(id: number) {
      ids.add(id);
      if (ids.size > capacity) ids.delete(ids.values().next().value as number);
    },
  };
}

const columns = { id: liveEvents.id, type: liveEvents.type, collection: liveEvents.collection, data: liveEvents.data };
type EventRow = { id: number; type: string; collection: string; data: Record<string, unknown> };

function toStoredEvent(row: EventRow): StoredEvent {
  return {
    id: Number(row.id),
    type: row.type as EventType,
    data: { ...row.data, collection: row.collection as EventCollection } as StoredEvent['data'],
  };
}

/** Deletes what is past the backlog's bounds; the newest event always stays (resume compares against it). */
export async function pruneLiveEvents(
  db: Db,
  { maxEvents = BACKLOG_MAX_EVENTS, maxAgeMs = BACKLOG_MAX_AGE_MS }: { maxEvents?: number; maxAgeMs?: number } = {},
) {
  const [newest] = await db.select({ id: max(liveEvents.id) }).from(liveEvents);
  const newestId = Number(newest?.id ?? 0);
  if (newestId === 0) return;
  await db
    .delete(liveEvents)
    .where(
      and(
        lt(liveEvents.id, newestId),
        or(lte(liveEvents.id, newestId - maxEvents), lt(liveEvents.createdAt, new Date(Date.now() - maxAgeMs))),
      ),
    );
}

/** What a client that last saw `afterId` missed: the events after it, or reload when the backlog no longer reaches back to it. */
export async function readBacklog(db: Db, afterId: number): Promise<BacklogAnswer> {
  const [bounds] = await db.select({ oldest: min(liveEvents.id), newest: max(liveEvents.id) }).from(liveEvents);
  const oldest = Number(bounds?.oldest ?? 0);
  const newest = Number(bounds?.newest ?? 0);
  if (afterId === newest) return { reload: false, events: [] };
  // An id this database never gave (another database, or a reset), or one pruned away.
  if (afterId > newest || afterId < oldest - 1) return { reload: true, latestId: newest };
  const rows = await db
    .select(columns)
    .from(liveEvents)
    .where(gt(liveEvents.id, afterId))
    .orderBy(asc(liveEvents.id))
    .limit(BACKLOG_MAX_EVENTS + 1);
  // The table outgrew its bound between two prunes: too much to replay.
  if (rows.length > BACKLOG_MAX_EVENTS) return { reload: true, latestId: newest };
  return { reload: false, events: rows.map(toStoredEvent) };
}

/**
 * The events of this instance, fanned out to the others: in-process on PGlite, through Redis
 * pub/sub when `redis` is given on PostgreSQL (on the channels of the shop's prefix, which every
 * instance of the shop derives alike: shopRedisPrefix), through LISTEN/NOTIFY otherwise.
 */
export function createDomainEvents({
  database,
  redis = null,
  log,
}: {
  database: Database;
  redis?: ShopRedis | null;
  log: (message: string, error?: unknown) => void;
}): DomainEvents {
  const { db } = database;
  // Tells this instance's own messages apart from the others'.
  const origin = randomBytes(8).toString('hex');
  const listeners = new Set<EventListener>();
  const storedListeners = new Set<StoredEventListener>();
  const signalListeners = new Map<InternalSignal, Set<() => void>>();
  const seen = recentIds(4096);
  const ownIds = recentIds(4096);
  // Events stored before this instance started are history, not news.
  let floor = 0;
  let lastId = 0;
  // Stores run one at a time (this instance's events keep their order); deliveries too.
  let writes: Promise<unknown> = Promise.resolve();
  let deliveries: Promise<unknown> = Promise.resolve();
  let signals: Promise<unknown> = Promise.resolve();
  let storedSincePrune = 0;
  let started = false;
  let closed = false;
  const timers: NodeJS.Timeout[] = [];

  function tellListeners(event: DomainEvent) {
    for (const listener of listeners) {
      try {
        listener(event);
      } catch (error) {
        log('event subscriber failed', error);
      }
    }
  }

  function tellSignal(signal: InternalSignal) {
    for (const listener of signalListeners.get(signal) ?? []) {
      try {
        listener();
      } catch (error) {
        log('internal signal listener failed', error);
      }
    }
  }

  /** A stored event reaches this instance (its own or another's): delivered once. */
  function deliver(event: StoredEvent, from: string | null) {
    if (event.id <= floor || seen.has(event.id)) return;
    seen.add(event.id);
    if (event.id > lastId) lastId = event.id;
    for (const listener of storedListeners) {
      try {
        listener(event);
      } catch (error) {
        log('live event subscriber failed', error);
      }
    }
    // This instance's own events were told at publish.
    if (from !== origin && !ownIds.has(event.id)) tellListeners({ type: event.type, data: event.data });
  }

  function enqueueDelivery(task: () => Promise<void> | void) {
    deliveries = deliveries.then(task).catch((error) => log('live event delivery failed', error));
  }

  /** Stored events this instance has not heard of (reconnected, or a message lost). */
  async function catchUp() {
    let from = Math.max(floor, lastId - CATCH_UP_WINDOW);
    for (;;) {
      const rows = await db
        .select(columns)
        .from(liveEvents)
        .where(gt(liveEvents.id, from))
        .orderBy(asc(liveEvents.id))
        .limit(500);
      for (const row of rows) deliver(toStoredEvent(row), null);
      const last = rows.at(-1);
      if (!last || rows.length < 500) return;
      from = Number(last.id);
    }
  }

  const fanOut = createFanOut({
    database,
    redis,
    origin,
    receiver: {
      event(wire: WireEvent) {
        enqueueDelivery(async () => {
          if (wire.event) return deliver({ ...wire.event, id: wire.id }, wire.origin);
          // Too large for a notification: read from the table.
          const [row] = await db.select(columns).from(liveEvents).where(eq(liveEvents.id, wire.id));
          if (row) deliver(toStoredEvent(row), wire.origin);
        });
      },
      signal(from, signal) {
        if (from !== origin) tellSignal(signal);
      },
      reconnected() {
        // What was said while away is unknown: catch up on events, and act on every signal.
        enqueueDelivery(catchUp);
        for (const signal of internalSignals) tellSignal(signal);
      },
    },
    log,
  });

  async function prune() {
    storedSincePrune = 0;
    await pruneLiveEvents(db).catch((error) => log('live events could not be pruned', error));
  }

  async function store(event: DomainEvent) {
    if (closed) return;
    const id = await fanOut.store(event);
    ownIds.add(id);
    storedSincePrune += 1;
    if (storedSincePrune >= PRUNE_EVERY_EVENTS) await prune();
  }

  return {
    publish(event) {
      tellListeners(event);
      writes = writes.then(() => store(event)).catch((error) => log('live event could not be stored', error));
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    subscribeStored(listener) {
      storedListeners.add(listener);
      return () => storedListeners.delete(listener);
    },
    lastId: () => lastId,
    async newestStoredId() {
      const [newest] = await db.select({ id: max(liveEvents.id) }).from(liveEvents);
      return Number(newest?.id ?? 0);
    },
    backlog: (afterId) => readBacklog(db, afterId),
    notifyInternal(signal) {
      tellSignal(signal);
      signals = signals
        .then(() => fanOut.signal(signal))
        .catch((error) => log('internal signal could not be sent', error));
    },
    onInternal(signal, listener) {
      let set = signalListeners.get(signal);
      if (!set) {
        set = new Set();
        signalListeners.set(signal, set);
      }
      set.add(listener);
      return () => set.delete(listener);
    },
    async settled() {
      await writes;
      await signals;
      await deliveries;
    },
    async start() {
      if (started) return;
      started = true;
      // Listening first: an event stored after the newest id read below is then heard.
      await fanOut.start();
      const [newest] = await db.select({ id: max(liveEvents.id) }).from(liveEvents);
      floor = Number(newest?.id ?? 0);
      lastId = Math.max(lastId, floor);
      await prune();
      const every = (ms: number, task: () => Promise<void>) => {
        const timer = setInterval(() => void task(), ms);
        timer.unref();
        timers.push(timer);
      };
      every(PRUNE_EVERY_MS, prune);
      if (fanOut.name !== 'embedded') every(CATCH_UP_EVERY_MS, async () => enqueueDelivery(catchUp));
    },
    async close() {
      if (closed) return;
      for (const timer of timers) clearInterval(timer);
      await writes;
      await signals;
      closed = true;
      await deliveries;
      await fanOut.close();
    },
  };
}
