/**
 * Rows written in batches: a request only adds its row to memory and goes on; the rows are written
 * together every `intervalMs`, as soon as `maxRows` are waiting, and on close. A failed write is
 * logged and its rows dropped (page views are not worth a backlog); while the database cannot keep
 * up, at most `maxWaiting` rows wait and the newest are dropped beyond that.
 */
export function createBatchWriter<Row>({
  write,
  onError,
  maxRows = 200,
  intervalMs = 1000,
  maxWaiting = 20_000,
}: {
  write: (rows: Row[]) => Promise<unknown>;
  onError: (error: unknown, dropped: number) => void;
  maxRows?: number;
  intervalMs?: number;
  maxWaiting?: number;
}) {
  let waiting: Row[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing: Promise<void> = Promise.resolve();
  let closed = false;

  function flush(): Promise<void> {
    if (timer) {
      clearTimeout(timer);
      timer = null;
    }
    if (waiting.length === 0) return writing;
    const rows = waiting;
    waiting = [];
    // One write at a time, in order; each batch waits for the one before.
    writing = writing.then(() =>
      write(rows).then(
        () => undefined,
        (error: unknown) => onError(error, rows.length),
      ),
    );
    return writing;
  }

  return {
    add(row: Row): void {
      if (closed) return;
      if (waiting.length >= maxWaiting) {
        onError(new Error('too many rows waiting to be written'), 1);
        return;
      }
      waiting.push(row);
      if (waiting.length >= maxRows) void flush();
      else if (!timer) {
        timer = setTimeout(() => void flush(), intervalMs);
        // A waiting batch does not keep the process alive: close() writes it on shutdown.
        timer.unref();
      }
    },
    /** Writes what is waiting now; resolves when it (and every earlier batch) is written. */
    flush,
    /** Writes what is waiting and refuses rows from then on. */
    async close(): Promise<void> {
      closed = true;
      await flush();
    },
    get waiting() {
      return waiting.length;
    },
  };
}
