/**
 * Reads a server-sent events stream over HTTP as a browser's EventSource parses it (the WHATWG
 * rules: fields, comments, blank-line dispatch, the last event id carried over). For the API
 * tests and the benchmark, which need to see every frame, comments and `retry:` included.
 */

export type StreamFrame =
  | { kind: 'event'; event: string; id: string; data: string }
  | { kind: 'comment'; text: string }
  | { kind: 'retry'; ms: number };

export type EventStream = Awaited<ReturnType<typeof openEventStream>>;

export async function openEventStream(url: string, { headers = {} }: { headers?: Record<string, string> } = {}) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: 'text/event-stream', ...headers },
    signal: controller.signal,
  });
  const frames: StreamFrame[] = [];
  let position = 0;
  let ended = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    wake?.();
    wake = null;
  };

  // The parser's state (EventSource's buffers).
  let data: string[] = [];
  let eventType = '';
  let lastEventId = '';
  function line(text: string) {
    if (text === '') {
      if (data.length > 0)
        frames.push({ kind: 'event', event: eventType || 'message', id: lastEventId, data: data.join('\n') });
      data = [];
      eventType = '';
      return;
    }
    if (text.startsWith(':')) {
      frames.push({ kind: 'comment', text: text.slice(1).trimStart() });
      return;
    }
    const colon = text.indexOf(':');
    const field = colon === -1 ? text : text.slice(0, colon);
    let value = colon === -1 ? '' : text.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') eventType = value;
    else if (field === 'id' && !value.includes('\0')) lastEventId = value;
    else if (field === 'retry' && /^\d+$/.test(value)) frames.push({ kind: 'retry', ms: Number(value) });
  }

  const isStream = response.ok && (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
  const finished = (async () => {
    if (!isStream || !response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += decoder.decode(chunk, { stream: true });
        const lines = buffer.split(/\r\n|\r|\n/);
        buffer = lines.pop() ?? '';
        for (const text of lines) line(text);
        notify();
      }
    } catch {
      // Aborted by close(), or the connection broke: the stream has ended either way.
    } finally {
      ended = true;
      notify();
    }
  })();

  return {
    response,
    status: response.status,
    headers: response.headers,
    /** Every frame received so far. */
    frames,
    /** Whether the server has ended the stream (or it was closed). */
    get ended() {
      return ended;
    },
    /** Resolves when the stream ends. */
    finished,
    /** The next frame (after those already taken) that matches; skips the others. Rejects if the stream ends first. */
    async next(matches: (frame: StreamFrame) => boolean = () => true, timeoutMs = 10_000): Promise<StreamFrame> {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        while (position < frames.length) {
          const frame = frames[position++] as StreamFrame;
          if (matches(frame)) return frame;
        }
        if (ended) throw new Error('the stream ended');
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`no matching frame within ${timeoutMs} ms`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          wake = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    },
    /** The body of an answer that is not a stream (an error's JSON). */
    async json(): Promise<unknown> {
      return response.json();
    },
    async close() {
      controller.abort();
      await finished;
    },
  };
}

/** Whether a frame is a named event (`message` for the spec's messages). */
export const isEvent =
  (name = 'message') =>
  (frame: StreamFrame): frame is Extract<StreamFrame, { kind: 'event' }> =>
    frame.kind === 'event' && frame.event === name;
