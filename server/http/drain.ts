import type { FastifyInstance, FastifyRequest } from 'fastify';
import { sendError } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The graceful shutdown's first step (main.ts, on SIGTERM): new requests are answered 503
     * while the process still listens, until they stop coming, so the proxy in front moves them
     * to another instance. Then `close()` may stop listening.
     */
    drain(): Promise<void>;
    /** Runs `listener` as the drain begins (open event streams end then, so their clients reconnect elsewhere). */
    whenDraining(listener: () => void): void;
  }
}

/** Draining ends once no request has come for this long (the proxy has moved on)... */
const QUIET_MS = 250;
/** ...or after this, whatever still comes. */
const LONGEST_DRAIN_MS = 2000;
const RETRY_AFTER_SECONDS = 5;

/**
 * Why not close at once: closing the listening socket resets every connection the kernel has
 * accepted and the process not yet taken, and Node drops accepted connections whose request it
 * has not read; behind nginx those become 502s, a POST's included. A 503 with `Connection:
 * close` is an answer instead: nginx passes a GET on to the next instance and leaves this one out
 * for its fail_timeout, a browser's call can be tried again, and by the time the process stops
 * listening nothing is arriving. The requests already under way run to their end, as do
 * server rendering's internal calls (`isInternal`).
 */
export function registerDrain(app: FastifyInstance, isInternal: (request: FastifyRequest) => boolean) {
  let draining = false;
  let lastRequestAt = 0;
  const listeners = new Set<() => void>();
  app.decorate('whenDraining', (listener: () => void) => {
    listeners.add(listener);
  });
  // A callback hook: every request passes it, and all but the drain's have nothing to wait for.
  app.addHook('onRequest', (request, reply, done) => {
    if (!draining || isInternal(request)) return done();
    lastRequestAt = performance.now();
    reply.header('connection', 'close').header('retry-after', String(RETRY_AFTER_SECONDS));
    sendError(reply, 503, { error: 'The shop is restarting. Please try again shortly.', code: 'shutting_down' });
  });
  app.decorate('drain', async () => {
    draining = true;
    for (const listener of listeners) listener();
    const started = performance.now();
    lastRequestAt = started;
    while (performance.now() - lastRequestAt < QUIET_MS && performance.now() - started < LONGEST_DRAIN_MS) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  });
}
