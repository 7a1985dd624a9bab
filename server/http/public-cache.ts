import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

type Entry = { body: Buffer; etag: string; at: number };
type Schema<T> = { parse(value: unknown): T };

/**
 * Hot public reads, served from memory: the response body is computed once per key, checked
 * against its contract, serialised, and then sent as is with an ETag (a matching If-None-Match
 * gets 304). Entries live a short time and are dropped at once by `invalidate()` when the data
 * behind them changes, so a write is seen at once on this instance and within the TTL elsewhere.
 */
export function createPublicCache({
  ttlMs = 30_000,
  maxEntries = 1000,
  onLookup,
}: {
  ttlMs?: number;
  maxEntries?: number;
  /** Told whether each read was answered from memory (the hit rate's metrics). */
  onLookup?: (hit: boolean) => void;
} = {}) {
  const entries = new Map<string, Entry>();
  const filling = new Map<string, Promise<Entry>>();
  let generation = 0;

  async function fill<T>(key: string, schema: Schema<T>, load: () => Promise<unknown>): Promise<Entry> {
    const started = generation;
    // Kept as bytes: sending a string would encode it again on every request.
    const body = Buffer.from(JSON.stringify(schema.parse(await load())));
    const entry = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"`, at: Date.now() };
    // A write during the load makes this result stale: serve it once, do not keep it.
    if (started === generation) {
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, entry);
    }
    return entry;
  }

  async function entryFor<T>(key: string, schema: Schema<T>, load: () => Promise<unknown>): Promise<Entry> {
    const cached = entries.get(key);
    const hit = cached !== undefined && Date.now() - cached.at < ttlMs;
    onLookup?.(hit);
    if (hit) return cached;
    // Concurrent misses of one key share one load.
    const pending = filling.get(key) ?? fill(key, schema, load).finally(() => filling.delete(key));
    filling.set(key, pending);
    return pending;
  }

  /** Answers a public GET from the cache (or fills it), with validators and caching headers. */
  async function respond<T>(
    request: FastifyRequest,
    reply: FastifyReply,
    {
      key,
      schema,
      maxAge,
      load,
      staleWhileRevalidate,
      signedIn = false,
    }: {
      key: string;
      schema: Schema<T>;
      maxAge: number;
      load: () => Promise<unknown>;
      /** How long after maxAge a browser may still show the answer while it fetches anew (default 5 × maxAge). */
      staleWhileRevalidate?: number;
      /**
       * A signed-in shopper for whom the shared answer is right: served from the cache all the
       * same, but not kept by the browser, which must see their own writes at once.
       */
      signedIn?: boolean;
    },
  ) {
    const entry = await entryFor(key, schema, load);
    reply.header(
      'cache-control',
      signedIn
        ? 'private, no-cache'
        : `public, max-age=${maxAge}, stale-while-revalidate=${staleWhileRevalidate ?? maxAge * 5}`,
    );
    reply.header('etag', entry.etag);
    const wanted = request.headers['if-none-match'];
    if (wanted?.split(',').some((tag) => tag.trim().replace(/^W\//, '') === entry.etag)) {
      return reply.code(304).send();
    }
    return reply.type('application/json; charset=utf-8').send(entry.body);
  }

  function invalidate() {
    generation++;
    entries.clear();
  }

  return { respond, invalidate };
}

export type PublicCache = ReturnType<typeof createPublicCache>;
