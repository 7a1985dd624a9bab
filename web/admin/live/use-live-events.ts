/**
 * The back office's live connection (spec 4 "Live connection", 7 "Live events", 9): an
 * EventSource with credentials to /api/atlas/events, its state (connecting, connected, error),
 * the automatic reconnect (5 s × attempt, at most 30 s), the manual one (first try after 100 ms)
 * and the events kept per collection (the newest 100 of each). The connection itself is plain
 * code (`createLiveConnection`) so its timing is tested without a browser; `useLiveEvents` is its
 * React face.
 */
import { useEffect, useRef, useState, useSyncExternalStore } from 'react';
import {
  LIVE_EVENTS_KEPT_PER_COLLECTION,
  LIVE_EVENTS_PATH,
  LIVE_MANUAL_RECONNECT_MS,
  LIVE_READY_EVENT,
  LIVE_RECONNECT_MAX_MS,
  LIVE_RECONNECT_STEP_MS,
  LIVE_RELOAD_EVENT,
  LIVE_REVOKED_EVENT,
  type LiveEvent,
  type LiveEventCollection,
  liveConnectionErrors,
  liveEventCollections,
} from '#common/live-events.ts';

export type LiveStatus = 'connecting' | 'connected' | 'error';
/** A message of the stream with its event id. */
export type LiveMessage = LiveEvent & { id: number };
/** The newest messages of each collection, newest first. */
export type LiveEventsByCollection = Record<LiveEventCollection, LiveMessage[]>;
export type LiveState = { status: LiveStatus; error: string | null; events: LiveEventsByCollection };

/** What the connection needs of an EventSource (the browser's, or a test's stand-in). */
export type EventSourceLike = {
  onopen: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent<string>) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
};

export type LiveOptions = {
  /** Each message as it arrives (the admin app invalidates its queries for the collection). */
  onEvent?: (message: LiveMessage) => void;
  /** The server could not replay what was missed while away: everything shown should be loaded again. */
  onReload?: () => void;
};

/** The wait before automatic reconnect number `attempt` (1, 2, ...): 5 s more each time, at most 30 s. */
export function reconnectDelay(attempt: number): number {
  return Math.min(LIVE_RECONNECT_STEP_MS * attempt, LIVE_RECONNECT_MAX_MS);
}

export function noEvents(): LiveEventsByCollection {
  return Object.fromEntries(
    liveEventCollections.map((collection) => [collection, []]),
  ) as unknown as LiveEventsByCollection;
}

/** The events with one more, newest first, at most `max` in its collection. */
export function keepEvent(
  events: LiveEventsByCollection,
  message: LiveMessage,
  max = LIVE_EVENTS_KEPT_PER_COLLECTION,
): LiveEventsByCollection {
  const collection = message.data.collection;
  return { ...events, [collection]: [message, ...events[collection]].slice(0, max) };
}

const collections = new Set<string>(liveEventCollections);

/** A message's body as the server sends it ({type, data: {collection, ...}}), or null. */
function readMessage(data: string, id: string): LiveMessage | null {
  try {
    const body = JSON.parse(data) as Partial<LiveEvent>;
    if (typeof body.type !== 'string' || !body.data || !collections.has(body.data.collection)) return null;
    return { type: body.type, data: body.data, id: Number(id) };
  } catch {
    return null;
  }
}

const openEventSource = (url: string): EventSourceLike => new EventSource(url, { withCredentials: true });

export function createLiveConnection({
  url = LIVE_EVENTS_PATH,
  open = openEventSource,
  onEvent,
  onReload,
}: LiveOptions & { url?: string; open?: (url: string) => EventSourceLike } = {}) {
  let state: LiveState = { status: 'connecting', error: null, events: noEvents() };
  const watchers = new Set<() => void>();
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let attempt = 0;
  // Where a new EventSource resumes (it cannot send Last-Event-ID itself, so it goes in the query).
  let lastEventId = '';
  let running = false;

  function update(change: Partial<LiveState>) {
    state = { ...state, ...change };
    for (const watcher of watchers) watcher();
  }

  function cancelTimer() {
    if (timer !== null) clearTimeout(timer);
    timer = null;
  }

  function closeSource() {
    source?.close();
    source = null;
  }

  function connect() {
    timer = null;
    update({ status: 'connecting' });
    let opened = false;
    const current = open(lastEventId ? `${url}?lastEventId=${encodeURIComponent(lastEventId)}` : url);
    source = current;
    const mine = () => source === current;
    const remember = (event: MessageEvent<string>) => {
      if (event.lastEventId) lastEventId = event.lastEventId;
    };
    current.onopen = () => {
      if (!mine()) return;
      opened = true;
      attempt = 0;
      update({ status: 'connected', error: null });
    };
    current.onmessage = (event) => {
      if (!mine()) return;
      remember(event);
      const message = readMessage(event.data, event.lastEventId);
      if (!message) return;
      update({ events: keepEvent(state.events, message) });
      onEvent?.(message);
    };
    current.addEventListener(LIVE_READY_EVENT, (event) => {
      if (mine()) remember(event);
    });
    current.addEventListener(LIVE_RELOAD_EVENT, (event) => {
      if (!mine()) return;
      remember(event);
      onReload?.();
    });
    // No longer an admin: trying again by itself would only be refused.
    current.addEventListener(LIVE_REVOKED_EVENT, () => {
      if (mine()) fail(liveConnectionErrors.lost, false);
    });
    current.onerror = () => {
      if (mine()) fail(opened ? liveConnectionErrors.lost : liveConnectionErrors.failed, true);
    };
  }

  function fail(error: string, retry: boolean) {
    closeSource();
    update({ status: 'error', error });
    if (!retry || !running) return;
    attempt += 1;
    timer = setTimeout(connect, reconnectDelay(attempt));
  }

  return {
    /** Opens the connection (once; again after stop). */
    start() {
      if (running) return;
      running = true;
      connect();
    },
    /** Closes it and cancels any reconnect. */
    stop() {
      running = false;
      cancelTimer();
      closeSource();
    },
    /** The Reconnect button: closes what there is and connects again after 100 ms, counting attempts afresh. */
    reconnect() {
      running = true;
      cancelTimer();
      closeSource();
      attempt = 0;
      update({ status: 'connecting', error: null });
      timer = setTimeout(connect, LIVE_MANUAL_RECONNECT_MS);
    },
    getState: () => state,
    subscribe(watcher: () => void) {
      watchers.add(watcher);
      return () => {
        watchers.delete(watcher);
      };
    },
  };
}

export type LiveConnection = ReturnType<typeof createLiveConnection>;

/** The live connection of the admin app: its state, the kept events, and the Reconnect action. */
export function useLiveEvents({ onEvent, onReload, enabled = true }: LiveOptions & { enabled?: boolean } = {}) {
  // The latest callbacks, without reconnecting when they change.
  const callbacks = useRef<LiveOptions>({ onEvent, onReload });
  useEffect(() => {
    callbacks.current = { onEvent, onReload };
  }, [onEvent, onReload]);
  const [connection] = useState(() =>
    createLiveConnection({
      onEvent: (message) => callbacks.current.onEvent?.(message),
      onReload: () => callbacks.current.onReload?.(),
    }),
  );
  useEffect(() => {
    if (!enabled) return;
    connection.start();
    return () => connection.stop();
  }, [connection, enabled]);
  const state = useSyncExternalStore(connection.subscribe, connection.getState, connection.getState);
  return { ...state, reconnect: connection.reconnect };
}
