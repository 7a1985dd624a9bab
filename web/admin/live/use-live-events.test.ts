import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { LiveEvent } from '#common/live-events.ts';
import {
  createLiveConnection,
  type EventSourceLike,
  keepEvent,
  type LiveMessage,
  noEvents,
  reconnectDelay,
} from './use-live-events.ts';

/** A stand-in EventSource the test drives: it opens, fails and receives events when told. */
class FakeEventSource implements EventSourceLike {
  static made: FakeEventSource[] = [];
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent<string>) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  closed = false;
  private named = new Map<string, ((event: MessageEvent<string>) => void)[]>();
  readonly url: string;
  constructor(url: string) {
    this.url = url;
    FakeEventSource.made.push(this);
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.named.set(type, [...(this.named.get(type) ?? []), listener]);
  }
  close() {
    this.closed = true;
  }
  open() {
    this.onopen?.(new Event('open'));
  }
  fail() {
    this.onerror?.(new Event('error'));
  }
  send(body: LiveEvent, id: number) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(body), lastEventId: String(id) }));
  }
  emit(name: string, id: number) {
    for (const listener of this.named.get(name) ?? []) {
      listener(new MessageEvent(name, { data: '{}', lastEventId: String(id) }));
    }
  }
}

const latest = () => FakeEventSource.made.at(-1) as FakeEventSource;
const order = (id: string): LiveEvent => ({ type: 'order_created', data: { collection: 'orders', id } });

function connection(options: Parameters<typeof createLiveConnection>[0] = {}) {
  const live = createLiveConnection({ open: (url) => new FakeEventSource(url), ...options });
  live.start();
  return live;
}

beforeEach(() => {
  vi.useFakeTimers();
  FakeEventSource.made = [];
});
afterEach(() => {
  vi.useRealTimers();
});

describe('the live connection', () => {
  test('connects at once to /api/atlas/events: connecting, then connected', () => {
    const live = connection();
    expect(FakeEventSource.made.map((source) => source.url)).toEqual(['/api/atlas/events']);
    expect(live.getState().status).toBe('connecting');
    latest().open();
    expect(live.getState()).toMatchObject({ status: 'connected', error: null });
  });

  test('reconnects by itself after 5 s × the attempt, never waiting more than 30 s', () => {
    const live = connection();
    const waits: number[] = [];
    for (let attempt = 1; attempt <= 8; attempt += 1) {
      const failed = latest();
      failed.fail();
      expect(failed.closed).toBe(true);
      expect(live.getState()).toMatchObject({ status: 'error', error: 'Failed to connect' });
      const made = FakeEventSource.made.length;
      let waited = 0;
      while (FakeEventSource.made.length === made) {
        vi.advanceTimersByTime(100);
        waited += 100;
      }
      waits.push(waited);
      expect(live.getState().status).toBe('connecting');
    }
    expect(waits).toEqual([5000, 10_000, 15_000, 20_000, 25_000, 30_000, 30_000, 30_000]);
    expect([1, 2, 6, 7, 100].map(reconnectDelay)).toEqual([5000, 10_000, 30_000, 30_000, 30_000]);
  });

  test('exactly on time, not a moment before', () => {
    connection();
    latest().fail();
    vi.advanceTimersByTime(4999);
    expect(FakeEventSource.made).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.made).toHaveLength(2);
  });

  test('a connection that opened counts its attempts afresh, and says the connection was lost', () => {
    const live = connection();
    latest().fail();
    vi.advanceTimersByTime(5000);
    latest().fail();
    vi.advanceTimersByTime(10_000);
    latest().open();
    latest().fail();
    expect(live.getState()).toMatchObject({ status: 'error', error: 'Connection error occurred' });
    vi.advanceTimersByTime(4999);
    expect(FakeEventSource.made).toHaveLength(3);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.made).toHaveLength(4);
  });

  test('Reconnect connects again after 100 ms, then waits 5 s × attempt from the start', () => {
    const live = connection();
    // Far into the backoff: the next automatic try would be 30 s away.
    for (let attempt = 1; attempt <= 6; attempt += 1) {
      latest().fail();
      vi.advanceTimersByTime(reconnectDelay(attempt));
    }
    latest().fail();
    const before = FakeEventSource.made.length;
    live.reconnect();
    expect(live.getState()).toMatchObject({ status: 'connecting', error: null });
    vi.advanceTimersByTime(99);
    expect(FakeEventSource.made).toHaveLength(before);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.made).toHaveLength(before + 1);
    // The cancelled 30 s wait does not open another one.
    latest().fail();
    vi.advanceTimersByTime(4999);
    expect(FakeEventSource.made).toHaveLength(before + 1);
    vi.advanceTimersByTime(1);
    expect(FakeEventSource.made).toHaveLength(before + 2);
  });

  test('Reconnect on an open connection closes it first', () => {
    const live = connection();
    const first = latest();
    first.open();
    live.reconnect();
    expect(first.closed).toBe(true);
    vi.advanceTimersByTime(100);
    expect(FakeEventSource.made).toHaveLength(2);
    // The old source's late events are ignored.
    first.send(order('late'), 9);
    expect(live.getState().events.orders).toEqual([]);
  });

  test('resumes from the last event id it saw (ready, or a message)', () => {
    connection();
    latest().open();
    latest().emit('ready', 41);
    latest().fail();
    vi.advanceTimersByTime(5000);
    expect(latest().url).toBe('/api/atlas/events?lastEventId=41');
    latest().open();
    latest().send(order('o1'), 42);
    latest().fail();
    vi.advanceTimersByTime(5000);
    expect(latest().url).toBe('/api/atlas/events?lastEventId=42');
  });

  test('keeps the newest 100 events of each collection, newest first, and tells onEvent of each', () => {
    const heard: LiveMessage[] = [];
    const live = connection({ onEvent: (message) => heard.push(message) });
    latest().open();
    for (let n = 1; n <= 150; n += 1) latest().send(order(`o${n}`), n);
    latest().send({ type: 'review_created', data: { collection: 'reviews', id: 'r1' } }, 151);
    const { events } = live.getState();
    expect(events.orders).toHaveLength(100);
    expect(events.orders[0]).toEqual({ ...order('o150'), id: 150 });
    expect(events.orders[99]).toEqual({ ...order('o51'), id: 51 });
    expect(events.reviews).toEqual([{ type: 'review_created', data: { collection: 'reviews', id: 'r1' }, id: 151 }]);
    expect(events.users).toEqual([]);
    expect(heard).toHaveLength(151);
  });

  test('ignores a message that is not the spec’s shape', () => {
    const live = connection();
    latest().open();
    latest().onmessage?.(new MessageEvent('message', { data: 'not json', lastEventId: '1' }));
    latest().send({ type: 'order_created', data: { collection: 'carts', id: 'x' } } as unknown as LiveEvent, 2);
    expect(live.getState().events).toEqual(noEvents());
  });

  test('reload asks for everything again; revoked stops reconnecting until Reconnect', () => {
    let reloads = 0;
    const live = connection({ onReload: () => (reloads += 1) });
    latest().open();
    latest().emit('reload', 7);
    expect(reloads).toBe(1);
    latest().emit('revoked', 7);
    expect(live.getState()).toMatchObject({ status: 'error', error: 'Connection error occurred' });
    vi.advanceTimersByTime(120_000);
    expect(FakeEventSource.made).toHaveLength(1);
    live.reconnect();
    vi.advanceTimersByTime(100);
    expect(latest().url).toBe('/api/atlas/events?lastEventId=7');
  });

  test('stop closes the connection and cancels the reconnect', () => {
    const live = connection();
    latest().fail();
    live.stop();
    vi.advanceTimersByTime(60_000);
    expect(FakeEventSource.made).toHaveLength(1);
    live.start();
    expect(FakeEventSource.made).toHaveLength(2);
    live.stop();
    expect(latest().closed).toBe(true);
  });

  test('watchers hear every change', () => {
    const live = connection();
    let changes = 0;
    const stop = live.subscribe(() => (changes += 1));
    latest().open();
    latest().send(order('o1'), 1);
    stop();
    latest().send(order('o2'), 2);
    expect(changes).toBe(2);
  });
});

test('keepEvent leaves the other collections as they were', () => {
  const events = noEvents();
  const next = keepEvent(events, { ...order('o1'), id: 1 }, 2);
  expect(next.orders).toHaveLength(1);
  expect(next.reviews).toBe(events.reviews);
  expect(
    keepEvent(keepEvent(next, { ...order('o2'), id: 2 }, 2), { ...order('o3'), id: 3 }, 2).orders.map((e) => e.id),
  ).toEqual([3, 2]);
});
