import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, brotliDecompressSync, constants, gzip, gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createRememberedValues, shared } from './remembered-values.ts';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** How an answer is sent: as is, or compressed once when it was cached. */
export type ContentCoding = 'br' | 'gzip' | 'identity';

type Variant = { body: Buffer; etag: string };
type Entry = {
  /**
   * The answer as it is: its body dropped once the entry holds its best brotli (a list of 24
   * products: 33 kB as is, 9 kB in brotli), and decompressed for the rare reader that takes no
   * compression. The cache then holds about three times as many answers in the same bytes.
   */
  identity: { body: Buffer | null; etag: string };
  /** Whether the body is large enough to be sent compressed (COMPRESS_THRESHOLD). */
  compressible: boolean;
  /**
   * Each coding is made when a read first asks for it (null until then); when the entry is hot,
   * brotli again at its best, and gzip too if a read had asked for it.
   */
  br: Variant | null;
  gzip: Variant | null;
  /** Every tag of this answer, in any coding, made or not: a browser's copy in one of them is current. */
  tags: Set<string>;
  bytes: number;
  at: number;
  /** Reads answered from this entry so far. */
  hits: number;
  /** Compressed at the codings' best settings (else at quick ones, until the entry proves hot). */
  best: boolean;
};

/**
 * An entry read this many times is compressed again at the codings' best settings, off the
 * event loop, and swapped in. A first read compresses quickly: brotli at quality 10 costs about
 * 9 ms for a 30 kB list, which a long tail of keys read once or twice (a million products' pages)
 * would pay at every miss.
 */
const HOT_HITS = 3;
/** Brotli 5 and gzip 6: half a millisecond for a 33 kB list, within 10-15% of the best sizes. */
const QUICK = { brotli: 5, gzip: 6 };
/**
 * Brotli 10: within 2 % of quality 11's size on the shop's answers (a list of 24 products: 7,984
 * bytes against 7,841; a product 1,191 against 1,196) for a third of its CPU (8.7 ms against 24.5
 * ms for the list). Each hot key is compressed again after every expiry: with a million products'
 * listing and search pages, quality 11 kept a core busy.
 */
const BEST = { brotli: 10, gzip: constants.Z_BEST_COMPRESSION };
type Schema<T> = { parse(value: unknown): T };

/** Bodies under this many bytes are sent as they are (as @fastify/compress's threshold). */
export const COMPRESS_THRESHOLD = 1024;

/**
 * Hot public reads, served from memory: the response body is computed once per key, checked
 * against its contract and serialised; each coding (brotli, gzip) is compressed quickly when a
 * read first asks for it, and again at their best once the entry is read a few times, off the
 * event loop (keeping only the compressed bodies then). Each answer is then sent as is with an
 * ETag (a matching If-None-Match gets 304).
 * Entries, and the values `remember()` keeps for several answers, live a short time and are
 * dropped at once by `invalidate()` when the data behind them changes (the app calls it on every
 * change event, which reaches every instance). The cache is bounded by entries and by bytes (all
 * codings counted), and its values by number.
 */
export function createPublicCache({
  ttlMs = 30_000,
  maxEntries = 1000,
  maxBytes = 16 * 2 ** 20,
  maxValues = 100,
  onLookup,
}: {
  ttlMs?: number;
  maxEntries?: number;
  maxBytes?: number;
  /** Values kept by remember() at most (a search's ranking is about 30 kB). */
  maxValues?: number;
  /** Told whether each read was answered from memory (the hit rate's metrics). */
  onLookup?: (hit: boolean) => void;
} = {}) {
  const entries = new Map<string, Entry>();
  const filling = new Map<string, Promise<Entry>>();
  const remembered = createRememberedValues({ ttlMs, maxValues });
  let generation = 0;
  let totalBytes = 0;

  function remove(key: string) {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    totalBytes -= entry.bytes;
  }

  async function fill<T>(key: string, schema: Schema<T>, load: () => Promise<unknown>): Promise<Entry> {
    const started = generation;
    // Kept as bytes: sending a string would encode it again on every request.
    const entry = identityEntry(Buffer.from(JSON.stringify(schema.parse(await load()))));
    // A write during the load makes this result stale: serve it once, do not keep it.
    if (started === generation) {
      remove(key);
      while (entries.size > 0 && (entries.size >= maxEntries || totalBytes + entry.bytes > maxBytes)) {
        remove(entries.keys().next().value as string);
      }
      entries.set(key, entry);
      totalBytes += entry.bytes;
    }
    return entry;
  }

  /**
   * Swaps in the entry compressed at its best, without its body as it is, if it is still the
   * cached one by then.
   */
  async function compressBest(key: string, entry: Entry) {
    const { br, gzip } = await encodeBest(bodyOf(entry), entry.identity.etag, entry.gzip !== null);
    if (entries.get(key) !== entry) return;
    const bytes = br.body.length + (gzip?.body.length ?? 0);
    entries.set(key, { ...entry, identity: { body: null, etag: entry.identity.etag }, br, gzip, bytes, best: true });
    totalBytes += bytes - entry.bytes;
  }

  /**
   * The entry's body in `coding`, compressed quickly at the first read that asks for it: a miss
   * compresses only what its reader takes (nearly always brotli), not every coding.
   */
  function variantOf(key: string, entry: Entry, coding: ContentCoding): Variant {
    if (coding === 'identity' || !entry.compressible) return { body: bodyOf(entry), etag: entry.identity.etag };
    const made = entry[coding];
    if (made) return made;
    const variant = compressQuickly(bodyOf(entry), entry.identity.etag, coding);
    entry[coding] = variant;
    entry.bytes += variant.body.length;
    if (entries.get(key) === entry) {
      totalBytes += variant.body.length;
      // The new coding counts in the budget: the oldest other entries make room for it.
      for (const other of entries.keys()) {
        if (totalBytes <= maxBytes) break;
        if (other !== key) remove(other);
      }
    }
    return variant;
  }

  async function entryFor<T>(key: string, schema: Schema<T>, load: () => Promise<unknown>): Promise<Entry> {
    const cached = entries.get(key);
    const hit = cached !== undefined && Date.now() - cached.at < ttlMs;
    onLookup?.(hit);
    if (hit) {
      cached.hits++;
      if (cached.hits === HOT_HITS && !cached.best) void compressBest(key, cached);
      return cached;
    }
    return shared(filling, key, () => fill(key, schema, load));
  }

  /**
   * Answers a public GET from the cache (or fills it), with validators and caching headers, in
   * the best coding the client accepts. Routes answered only through here can opt out of
   * @fastify/compress (`compress: false`): their answers are compressed already.
   */
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
    const coding = entry.compressible ? preferredCoding(request.headers['accept-encoding']) : 'identity';
    // A shared cache must keep each coding apart, the uncompressed one included.
    if (entry.compressible) reply.header('vary', 'accept-encoding');
    const wanted = request.headers['if-none-match'];
    if (wanted !== undefined && matches(wanted, entry.tags)) {
      reply.header('etag', tagOf(entry.identity, coding));
      return reply.code(304).send();
    }
    const variant = variantOf(key, entry, coding);
    reply.header('etag', variant.etag);
    if (coding !== 'identity') reply.header('content-encoding', coding);
    return reply.type('application/json; charset=utf-8').send(variant.body);
  }

  function invalidate() {
    generation++;
    entries.clear();
    totalBytes = 0;
    remembered.invalidate();
    // A read after the write must not join a load that began before it.
    filling.clear();
  }

  /** A value computed once per key and kept as the answers are (remembered-values.ts). */
  return { respond, remember: remembered.remember, invalidate };
}

export type PublicCache = ReturnType<typeof createPublicCache>;

/**
 * Each coding has its own strong ETag (the tag names the bytes sent, as HTTP asks), all derived
 * from the uncompressed body's digest: the identity's tag, with the coding's suffix.
 */
const tagSuffix = { br: '-br', gzip: '-gz' } as const;

function tagOf(identity: { etag: string }, coding: ContentCoding): string {
  return coding === 'identity' ? identity.etag : `${identity.etag.slice(0, -1)}${tagSuffix[coding]}"`;
}

/** An entry's body as it is: kept, or (dropped from a hot entry) its best brotli's, decompressed. */
function bodyOf(entry: Entry): Buffer {
  return entry.identity.body ?? brotliDecompressSync((entry.br as Variant).body);
}

/** A new entry: the body as it is, its codings made as reads ask for them (variantOf). */
function identityEntry(body: Buffer): Entry {
  const identity = { body, etag: `"${createHash('sha1').update(body).digest('base64url')}"` };
  const compressible = body.length >= COMPRESS_THRESHOLD;
  return {
    identity,
    compressible,
    br: null,
    gzip: null,
    tags: new Set(compressible ? [identity.etag, tagOf(identity, 'br'), tagOf(identity, 'gzip')] : [identity.etag]),
    bytes: body.length,
    at: Date.now(),
    hits: 0,
    // A body sent as it is has nothing to compress better.
    best: !compressible,
  };
}

const brotliParams = (body: Buffer, quality: number) => ({
  params: {
    [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
    [constants.BROTLI_PARAM_QUALITY]: quality,
    [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
  },
});

/**
 * A coding made quickly, in one call on the event loop: brotli took 51 µs of CPU for a 3 kB page
 * of reviews and 106 µs for 17 kB of search results, where zlib's asynchronous call took 134 and
 * 198 µs (the hand-over to libuv's thread costs more than the work at these sizes).
 */
function compressQuickly(identity: Buffer, etag: string, coding: 'br' | 'gzip'): Variant {
  const body =
    coding === 'br'
      ? brotliCompressSync(identity, brotliParams(identity, QUICK.brotli))
      : gzipSync(identity, { level: QUICK.gzip });
  return { body, etag: tagOf({ etag }, coding) };
}

/**
 * Brotli at its best, and gzip if `withGzip` (a read asked for it: nearly every client takes
 * brotli), off the event loop (brotli's best takes tens of ms for 30 kB).
 */
async function encodeBest(
  identity: Buffer,
  etag: string,
  withGzip: boolean,
): Promise<{ br: Variant; gzip: Variant | null }> {
  const [brBody, gzipBody] = await Promise.all([
    brotli(identity, brotliParams(identity, BEST.brotli)),
    withGzip ? gzipAsync(identity, { level: BEST.gzip }) : null,
  ]);
  return {
    br: { body: brBody, etag: tagOf({ etag }, 'br') },
    gzip: gzipBody === null ? null : { body: gzipBody, etag: tagOf({ etag }, 'gzip') },
  };
}

/** Whether an If-None-Match list names one of the answer's tags (weak comparison, as for GET). */
function matches(ifNoneMatch: string, tags: Set<string>): boolean {
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tags.has(tag.trim().replace(/^W\//, '')));
}

// Clients send few distinct Accept-Encoding values (one per browser version): each is read once.
const codingOf = new Map<string, ContentCoding>();
const MAX_REMEMBERED_CODINGS = 256;

/** The coding to send for an Accept-Encoding header: brotli, else gzip, else as is (q=0 refuses one). */
export function preferredCoding(acceptEncoding: string | undefined): ContentCoding {
  if (!acceptEncoding) return 'identity';
  const known = codingOf.get(acceptEncoding);
  if (known) return known;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.split(';');
    const q = parameters.map((parameter) => parameter.trim()).find((parameter) => parameter.startsWith('q='));
    const quality = q === undefined ? 1 : Number(q.slice(2));
    accepted.set(name.trim().toLowerCase(), Number.isFinite(quality) ? quality : 0);
  }
  const qualityOf = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  const coding: ContentCoding = qualityOf('br') > 0 ? 'br' : qualityOf('gzip') > 0 ? 'gzip' : 'identity';
  if (codingOf.size >= MAX_REMEMBERED_CODINGS) codingOf.clear();
  codingOf.set(acceptEncoding, coding);
  return coding;
}
