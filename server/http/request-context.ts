import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { Logger } from 'pino';
import { symbols } from 'pino';

/** The field that carries a request's id on a log line (Fastify's `requestIdLogLabel`). */
export const REQUEST_ID_LOG_FIELD = 'reqId';

// The store is the request's id itself: entering a request allocates nothing of its own.
const requestIds = new AsyncLocalStorage<string>();

/** The id of the request being served, or of the request that sent the job being run. */
export function currentRequestId(): string | undefined {
  return requestIds.getStore();
}

/** Runs `work` as part of request `reqId` (a job it sent): its log lines carry that id. */
export function runInRequest<T>(reqId: string, work: () => T): T {
  return requestIds.run(reqId, work);
}

/**
 * Runs `work` outside any request. What starts there (timers, connections, workers) keeps no
 * request's id; shared machinery first started while serving a request must start this way,
 * or its lines would all carry that one request's id.
 */
export function outsideRequest<T>(work: () => T): T {
  return requestIds.exit(work);
}

/**
 * The rest of the request's handling (later hooks, body, handler, reply) runs inside `run`:
 * unlike `enterWith`, it does not leak into code after Fastify's listener (other 'request'
 * listeners, or the caller of an in-process `inject`). `done` is Fastify's own: no closure.
 */
function enterRequest(request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
  requestIds.run(request.id, done);
}

/** Every request's handling, and the work it starts, knows the request's id from here on. */
export function trackRequestIds(app: FastifyInstance) {
  app.addHook('onRequest', enterRequest);
}

// Returned for lines that need nothing added; never written to (see mixinMergeStrategy).
const NOTHING: Record<string, never> = Object.freeze({});
const REQUEST_ID_BINDING = `"${REQUEST_ID_LOG_FIELD}":`;

/**
 * The root logger's options that add the current request's id to every line written while
 * serving it (through `app.log` or a service's `log`). A request's own logger (`request.log`)
 * binds the id already, and a line that names its own id keeps it: neither gets it twice.
 */
export const requestIdLogOptions = {
  mixin(fields: object, _level: number, logger: Logger): object {
    const reqId = requestIds.getStore();
    if (reqId === undefined || REQUEST_ID_LOG_FIELD in fields) return NOTHING;
    const bindings = (logger as unknown as Record<symbol, string | undefined>)[symbols.chindingsSym];
    if (bindings?.includes(REQUEST_ID_BINDING)) return NOTHING;
    return { [REQUEST_ID_LOG_FIELD]: reqId };
  },
  // pino's default merge writes the line's fields into the mixin's object: the shared empty one stays untouched.
  mixinMergeStrategy(fields: object, added: object): object {
    return added === NOTHING ? fields : Object.assign(added, fields);
  },
};
