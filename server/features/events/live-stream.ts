/**
 * The open live streams of this instance (GET /api/atlas/events): each admin's stream gets the
 * stored events of every instance that its permissions allow, a heartbeat, and is closed as soon
 * as its session no longer belongs to an admin.
 */
import type { Writable } from 'node:stream';
import { type SessionUser, type UserRole, userRoles } from '#common/contracts/accounts.ts';
import {
  LIVE_READY_EVENT,
  LIVE_RECONNECT_STEP_MS,
  LIVE_RELOAD_EVENT,
  LIVE_REVOKED_EVENT,
  type LiveEventCollection,
} from '#common/live-events.ts';
import { type AdminAccess, hasAccess, tabAccess } from '#common/permissions.ts';
import type { FindSessionUser } from '#server/http/session.ts';
import type { DomainEvents, StoredEvent } from './domain-events.ts';

/**
 * Who sees a collection's events: what its tab needs (common/permissions.ts). An admin without
 * manageUsers sees no user's email in the stream, as the users tab would not show it either.
 */
export const collectionAccess: Record<LiveEventCollection, AdminAccess> = {
  orders: tabAccess.orders,
  products: tabAccess.products,
  users: tabAccess.users,
  reviews: tabAccess.reviews,
  newslettersubscribers: tabAccess.newsletter,
  sales: tabAccess.sales,
};

/**
 * A comment every 15 s keeps proxies and the server's 120 s idle timeout from closing a quiet
 * stream, and re-checks each stream's session (a signed-out or expired one ends its stream).
 */
export const HEARTBEAT_MS = 15_000;
/** A client that reads slower than events come is dropped past this much unsent (it resumes by id). */
const MAX_UNSENT_BYTES = 256 * 1024;

type Connection = {
  user: SessionUser;
  /** The session's token, to check it again. */
  token: string;
  out: Writable;
  /** The newest id this stream has covered: events up to it are not sent again. */
  cursor: number;
  /** Events heard while the backlog is being sent; null once the stream is live. */
  pending: StoredEvent[] | null;
};

export const sse = {
  event: (event: StoredEvent) => `id: ${event.id}\ndata: ${JSON.stringify({ type: event.type, data: event.data })}\n\n`,
  named: (name: string, data: unknown, id?: number) =>
    `event: ${name}\n${id === undefined ? '' : `id: ${id}\n`}data: ${JSON.stringify(data)}\n\n`,
  retry: (ms: number) => `retry: ${ms}\n\n`,
  heartbeat: ': heartbeat\n\n',
};

export function createLiveStreams({
  events,
  findUser,
  log,
  heartbeatMs = HEARTBEAT_MS,
}: {
  events: DomainEvents;
  findUser: FindSessionUser;
  log: (message: string, error?: unknown) => void;
  heartbeatMs?: number;
}) {
  const connections = new Set<Connection>();
  const allowed = (user: SessionUser, event: StoredEvent) => hasAccess(user, collectionAccess[event.data.collection]);

  function write(connection: Connection, chunk: string) {
    const { out } = connection;
    // Gone (the client left; 'close' follows), or too far behind.
    if (out.destroyed || out.writableEnded || out.writableLength > MAX_UNSENT_BYTES) return end(connection);
    out.write(chunk);
  }

  function end(connection: Connection) {
    if (!connections.delete(connection)) return;
    if (!connection.out.destroyed) connection.out.end();
  }

  function revoke(connection: Connection) {
    if (!connections.has(connection)) return;
    write(connection, sse.named(LIVE_REVOKED_EVENT, {}));
    end(connection);
  }

  function send(connection: Connection, event: StoredEvent, message: () => string) {
    if (event.id <= connection.cursor) return;
    connection.cursor = event.id;
    if (allowed(connection.user, event)) write(connection, message());
  }

  /** Looks each session up again (once per session, however many streams it has open). */
  async function recheck(which: Iterable<Connection>) {
    const byToken = new Map<string, Connection[]>();
    for (const connection of which)
      byToken.set(connection.token, [...(byToken.get(connection.token) ?? []), connection]);
    for (const [token, list] of byToken) {
      let user: SessionUser | null;
      try {
        user = await findUser(token);
      } catch (error) {
        // The database being away is no reason to end an admin's stream.
        log('a live stream session could not be checked', error);
        continue;
      }
      for (const connection of list) {
        if (!connections.has(connection)) continue;
        if (user && hasAccess(user, 'admin')) connection.user = user;
        else revoke(connection);
      }
    }
  }

  /**
   * A change to an account applies to its open streams at once: the role and permissions the
   * event carries (admin management's user_updated) filter from this event on, and the session is
   * looked up again (it may have ended too).
   */
  function accountChanged(event: StoredEvent) {
    const affected = [...connections].filter((connection) => connection.user.id === event.data.id);
    if (affected.length === 0) return;
    const changed = event.data.user as Partial<SessionUser> | undefined;
    for (const connection of affected) {
      if (!changed || !userRoles.includes(changed.role as UserRole)) continue;
      connection.user = {
        ...connection.user,
        role: changed.role as UserRole,
        isAdmin: changed.role !== 'user',
        adminPermissions: changed.adminPermissions ?? {},
      };
      if (!hasAccess(connection.user, 'admin')) revoke(connection);
    }
    void recheck(affected);
  }

  const unsubscribe = events.subscribeStored((event) => {
    if (event.type === 'user_updated') accountChanged(event);
    let message: string | null = null;
    const text = () => {
      message ??= sse.event(event);
      return message;
    };
    for (const connection of connections) {
      if (connection.pending) connection.pending.push(event);
      else send(connection, event, text);
    }
  });

  let checking = false;
  const heartbeat = setInterval(() => {
    for (const connection of connections) if (!connection.pending) write(connection, sse.heartbeat);
    if (checking || connections.size === 0) return;
    checking = true;
    void recheck([...connections]).finally(() => {
      checking = false;
    });
  }, heartbeatMs);
  heartbeat.unref();

  return {
    /**
     * Serves one stream on `out`: the events after `lastEventId` first (or `reload` when the
     * backlog no longer reaches back to it), then `ready` with the id to resume from, then live events.
     */
    async open({
      user,
      token,
      out,
      lastEventId,
    }: {
      user: SessionUser;
      token: string;
      out: Writable;
      lastEventId: number | undefined;
    }) {
      const connection: Connection = { user, token, out, cursor: 0, pending: [] };
      connections.add(connection);
      out.on('close', () => connections.delete(connection));
      write(connection, sse.retry(LIVE_RECONNECT_STEP_MS));
      try {
        if (lastEventId === undefined) {
          // What was stored before the stream opened is history, even if still on its way here.
          connection.cursor = await events.newestStoredId();
        } else {
          const backlog = await events.backlog(lastEventId);
          if (backlog.reload) {
            connection.cursor = Math.max(backlog.latestId, events.lastId());
            write(connection, sse.named(LIVE_RELOAD_EVENT, {}, connection.cursor));
          } else {
            connection.cursor = lastEventId;
            for (const event of backlog.events) send(connection, event, () => sse.event(event));
          }
        }
        const heard = connection.pending ?? [];
        connection.pending = null;
        write(connection, sse.named(LIVE_READY_EVENT, {}, connection.cursor));
        for (const event of heard) send(connection, event, () => sse.event(event));
      } catch (error) {
        log('a live stream could not start', error);
        end(connection);
      }
    },
    /** How many streams are open (tests, diagnostics). */
    get size() {
      return connections.size;
    },
    /** Ends every stream (the server is closing). */
    close() {
      clearInterval(heartbeat);
      unsubscribe();
      for (const connection of [...connections]) end(connection);
    },
  };
}

export type LiveStreams = ReturnType<typeof createLiveStreams>;
