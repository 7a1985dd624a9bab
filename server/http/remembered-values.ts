/**
 * Values computed once per key and kept for a short time: work that several answers share (a
 * search's ranking, which each of its pages slices) or that many readers ask for at once (an
 * admin list's search). Kept for the time to live and until the next invalidate(), which the
 * app calls on every change event (those reach every instance); a write during a load lets its
 * value be used by the callers waiting for it, not kept. Concurrent callers of one key share one
 * load; at most `maxValues` are kept, the oldest dropped first.
 */
export function createRememberedValues({ ttlMs, maxValues }: { ttlMs: number; maxValues: number }) {
  const values = new Map<string, { value: unknown; at: number }>();
  const computing = new Map<string, Promise<unknown>>();
  let generation = 0;

  async function remember<T>(key: string, load: () => Promise<T>): Promise<T> {
    const kept = values.get(key);
    if (kept !== undefined && Date.now() - kept.at < ttlMs) return kept.value as T;
    return shared(computing as Map<string, Promise<T>>, key, async () => {
      const started = generation;
      const value = await load();
      if (started === generation) {
        values.delete(key);
        if (values.size >= maxValues) values.delete(values.keys().next().value as string);
        values.set(key, { value, at: Date.now() });
      }
      return value;
    });
  }

  function invalidate() {
    generation++;
    values.clear();
    // A read after the write must not join a load that began before it.
    computing.clear();
  }

  return { remember, invalidate };
}

export type Remember = <T>(key: string, load: () => Promise<T>) => Promise<T>;

/** `load` once for the callers of `key` while it runs: the later ones join the running promise. */
export function shared<T>(inFlight: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
  const running = inFlight.get(key);
  if (running) return running;
  const pending: Promise<T> = load().finally(() => {
    if (inFlight.get(key) === pending) inFlight.delete(key);
  });
  inFlight.set(key, pending);
  return pending;
}

/** Every load run anew: what a service built without remembered values does. */
export const loadEachTime: Remember = (_key, load) => load();
