/**
 * How a stored event reaches every instance. Three ways, chosen by the deployment:
 * - embedded (PGlite): one process owns the database, so the event is delivered in-process;
 * - PostgreSQL: the event is stored and announced with NOTIFY in one transaction, and every
 *   instance LISTENs on a dedicated connection (reconnecting when it drops);
 * - Redis (REDIS_URL on PostgreSQL): the event is stored, then published; every instance
 *   subscribes on a connection of its own (a subscribed Redis connection can do nothing else).
 *   For deployments where LISTEN cannot be used (a pooler in transaction mode).
 */
import { type SQL, sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { type LiveEvent, liveEventCollections, liveEventTypes } from '#common/live-events.ts';
import type { Database, Db } from '#server/db/client.ts';
import type { DomainEvent, InternalSignal } from './domain-events.ts';
import { liveEvents } from './events.tables.ts';

/** An event as it travels between instances: the whole event, or only its id when too large to send. */
export type WireEvent = { origin: string; id: number; event: DomainEvent | null };

export type Receiver = {
  event(wire: WireEvent): void;
  signal(origin: string, signal: InternalSignal): void;
  /** The connection to the other instances was lost and is back: messages may have been missed. */
  reconnected(): void;
};

export type FanOut = {
  name: 'embedded' | 'postgres' | 'redis';
  /** Stores the event and announces it to every instance; answers its id. */
  store(event: DomainEvent): Promise<number>;
  signal(signal: InternalSignal): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
};

export const EVENTS_CHANNEL = 'stillwater_live_events';
export const SIGNALS_CHANNEL = 'stillwater_signals';
/**
 * Instances store events one at a time under this transaction-level advisory lock, so ids are
 * committed in increasing order: a notification never announces an id below one already
 * announced, and a resume by id misses nothing.
 */
const STORE_LOCK = 7_345_127_001;
/** NOTIFY takes at most 8,000 bytes: a larger event is announced by its id and read from the table. */
const NOTIFY_EVENT_MAX_BYTES = 7000;
const RECONNECT_MAX_MS = 30_000;

const signalNames = new Set<string>(['settings_changed'] satisfies InternalSignal[]);
const types = new Set<string>(liveEventTypes);
const collections = new Set<string>(liveEventCollections);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isDomainEvent(value: unknown): value is LiveEvent {
  if (!isRecord(value) || typeof value.type !== 'string' || !types.has(value.type) || !isRecord(value.data)) {
    return false;
  }
  const { collection, id } = value.data;
  return typeof collection === 'string' && collections.has(collection) && typeof id === 'string';
}

/** A message from another instance (or this one), checked before it is believed. */
function readMessage(channel: string, payload: string, receiver: Receiver, log: (message: string) => void) {
  let message: unknown;
  try {
    message = JSON.parse(payload);
  } catch {
    message = null;
  }
  if (isRecord(message) && typeof message.o === 'string') {
    if (
      channel === EVENTS_CHANNEL &&
      Number.isSafeInteger(message.id) &&
      (message.e === null || isDomainEvent(message.e))
    ) {
      return receiver.event({ origin: message.o, id: message.id as number, event: message.e });
    }
    if (channel === SIGNALS_CHANNEL && typeof message.s === 'string' && signalNames.has(message.s)) {
      return receiver.signal(message.o, message.s as InternalSignal);
    }
  }
  log(`an unreadable message on ${channel} was ignored`);
}

/** Inserts the event after every earlier one has committed; `announce` adds the NOTIFY to the same statement. */
async function storeInOrder(db: Db, event: DomainEvent, announce: ((id: SQL) => SQL) | null): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${STORE_LOCK})`);
    const result = (await tx.execute(sql`
      WITH stored AS (
        INSERT INTO ${liveEvents} (type, collection, data)
        VALUES (${event.type}, ${event.data.collection}, ${JSON.stringify(event.data)}::jsonb)
        RETURNING id
      )
      SELECT id${announce ? sql`, ${announce(sql`id`)}` : sql``} FROM stored`)) as unknown as {
      rows: { id: string }[];
    };
    const id = Number(result.rows[0]?.id);
    if (!Number.isSafeInteger(id)) throw new Error('the live event was not stored');
    return id;
  });
}

function embeddedFanOut(db: Db, origin: string, receiver: Receiver): FanOut {
  return {
    name: 'embedded',
    async store(event) {
      const [row] = await db
        .insert(liveEvents)
        .values({ type: event.type, collection: event.data.collection, data: event.data })
        .returning({ id: liveEvents.id });
      if (!row) throw new Error('the live event was not stored');
      const id = Number(row.id);
      receiver.event({ origin, id, event });
      return id;
    },
    async signal() {},
    async start() {},
    async close() {},
  };
}

/** A LISTEN connection of its own, opened again (with a growing wait, at most 30 s) whenever it drops. */
function postgresListener(
  pool: pg.Pool,
  onMessage: (channel: string, payload: string) => void,
  { onReconnected, log }: { onReconnected: () => void; log: (message: string, error?: unknown) => void },
) {
  let client: pg.Client | null = null;
  let retry: NodeJS.Timeout | null = null;
  let attempt = 0;
  let closed = false;

  async function connect() {
    const next = new pg.Client({ ...pool.options, keepAlive: true, application_name: 'stillwater-live-events' });
    next.on('notification', (message) => onMessage(message.channel, message.payload ?? ''));
    next.on('error', (error) => dropped(next, error));
    next.on('end', () => dropped(next));
    try {
      await next.connect();
      await next.query(`LISTEN ${EVENTS_CHANNEL}`);
      await next.query(`LISTEN ${SIGNALS_CHANNEL}`);
    } catch (error) {
      next.end().catch(() => {});
      throw error;
    }
    client = next;
  }

  function dropped(which: pg.Client, error?: unknown) {
    if (closed || client !== which) return;
    client = null;
    which.end().catch(() => {});
    log('the live events connection to PostgreSQL was lost: reconnecting', error);
    reconnectLater();
  }

  function reconnectLater() {
    attempt += 1;
    retry = setTimeout(
      async () => {
        retry = null;
        try {
          await connect();
          attempt = 0;
          onReconnected();
        } catch (error) {
          if (closed) return;
          log('the live events connection to PostgreSQL could not be opened again', error);
          reconnectLater();
        }
      },
      Math.min(500 * 2 ** attempt, RECONNECT_MAX_MS),
    );
  }

  return {
    start: connect,
    async close() {
      closed = true;
      if (retry) clearTimeout(retry);
      const open = client;
      client = null;
      await open?.end().catch(() => {});
    },
  };
}

function postgresFanOut(database: Database, origin: string, receiver: Receiver, log: Log): FanOut {
  const { db, pool } = database;
  if (!pool) throw new Error('LISTEN/NOTIFY needs a PostgreSQL pool');
  const listener = postgresListener(pool, (channel, payload) => readMessage(channel, payload, receiver, log), {
    onReconnected: receiver.reconnected,
    log,
  });
  return {
    name: 'postgres',
    store(event) {
      const whole = JSON.stringify(event);
      const inline = Buffer.byteLength(whole) <= NOTIFY_EVENT_MAX_BYTES ? whole : null;
      return storeInOrder(
        db,
        event,
        (id) =>
          sql`pg_notify(${EVENTS_CHANNEL}, json_build_object('o', ${origin}::text, 'id', ${id}, 'e', ${inline}::json)::text)`,
      );
    },
    async signal(signal) {
      await db.execute(sql`SELECT pg_notify(${SIGNALS_CHANNEL}, ${JSON.stringify({ o: origin, s: signal })})`);
    },
    start: listener.start,
    close: listener.close,
  };
}

function redisFanOut(db: Db, redis: Redis, origin: string, receiver: Receiver, log: Log): FanOut {
  // ioredis re-subscribes by itself after a reconnect; the subscriber queues commands until then.
  const subscriber = redis.duplicate({ lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: null });
  let lost = false;
  let closing = false;
  subscriber.on('message', (channel: string, payload: string) => readMessage(channel, payload, receiver, log));
  subscriber.on('close', () => {
    if (closing || lost) return;
    lost = true;
    log('the live events connection to Redis was lost: reconnecting');
  });
  subscriber.on('ready', () => {
    if (!lost) return;
    lost = false;
    receiver.reconnected();
  });
  // Reported once by 'close' above; ioredis keeps retrying by itself.
  subscriber.on('error', () => {});

  async function publish(message: Record<string, unknown>, channel: string) {
    await redis.publish(channel, JSON.stringify(message));
  }

  return {
    name: 'redis',
    async store(event) {
      const id = await storeInOrder(db, event, null);
      // This instance hears its own event at once; the others through Redis (or when they catch up).
      receiver.event({ origin, id, event });
      await publish({ o: origin, id, e: event }, EVENTS_CHANNEL).catch((error) =>
        log('a live event could not be published to Redis (other instances catch up within 30 s)', error),
      );
      return id;
    },
    signal: (signal) => publish({ o: origin, s: signal }, SIGNALS_CHANNEL),
    async start() {
      await subscriber.connect();
      await subscriber.subscribe(EVENTS_CHANNEL, SIGNALS_CHANNEL);
    },
    async close() {
      closing = true;
      subscriber.disconnect();
    },
  };
}

type Log = (message: string, error?: unknown) => void;

export function createFanOut({
  database,
  redis,
  origin,
  receiver,
  log,
}: {
  database: Database;
  redis: Redis | null;
  origin: string;
  receiver: Receiver;
  log: Log;
}): FanOut {
  if (database.kind === 'pglite') return embeddedFanOut(database.db, origin, receiver);
  if (redis) return redisFanOut(database.db, redis, origin, receiver, log);
  return postgresFanOut(database, origin, receiver, log);
}
