/**
 * A browser for the cluster tests: real HTTP (node:http), a cookie jar, CSRF tokens as the
 * storefront gets and sends them, and a client address of its own. Every loopback address
 * (127.0.0.0/8) reaches the machine, so each browser connects from a random one: nginx passes it
 * on in X-Forwarded-For and the instances (TRUST_PROXY=1) count rate limits per browser, apart
 * from other browsers.
 */

import { randomInt } from 'node:crypto';
import http from 'node:http';
import { CSRF_HEADER } from '#common/constants.ts';

export type Answer = {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The JSON body, or null when the body is not JSON. */
  // biome-ignore lint/suspicious/noExplicitAny: each test reads the fields its call answers.
  json: any;
  text: string;
  /** Which instance nginx passed the request to (its X-Upstream header: one address, or several when it moved on). */
  upstream: string | null;
};

export type StreamEvent = { id: string | null; event: string; data: string; at: number };

/** A loopback address no other browser of this run is likely to have. */
export function loopbackAddress(): string {
  return `127.${randomInt(10, 250)}.${randomInt(1, 250)}.${randomInt(1, 250)}`;
}

export function browser({ address = loopbackAddress() }: { address?: string } = {}) {
  const jar = new Map<string, string>();
  const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });
  const cookieHeader = () => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

  function keepCookies(headers: http.IncomingHttpHeaders) {
    for (const line of headers['set-cookie'] ?? []) {
      const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
      const equals = pair.indexOf('=');
      const name = pair.slice(0, equals);
      const value = pair.slice(equals + 1);
      const expired = attributes.some((attribute) => {
        const [key = '', setting = ''] = attribute.split('=');
        if (key.toLowerCase() === 'max-age') return Number(setting) <= 0;
        if (key.toLowerCase() === 'expires') return new Date(setting).getTime() < Date.now();
        return false;
      });
      if (value === '' || expired) jar.delete(name);
      else jar.set(name, value);
    }
  }

  function open(base: string, method: string, path: string, headers: Record<string, string>, body?: string) {
    const url = new URL(path, base);
    return http.request(url, {
      method,
      agent,
      localAddress: address,
      headers: {
        accept: 'application/json',
        ...(jar.size ? { cookie: cookieHeader() } : {}),
        ...(body === undefined
          ? {}
          : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }),
        ...headers,
      },
    });
  }

  /** One request; `csrf` is the token to send (state-changing requests need one). */
  function request(
    base: string,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    path: string,
    { body, csrf, timeoutMs = 30_000 }: { body?: unknown; csrf?: string; timeoutMs?: number } = {},
  ): Promise<Answer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const outgoing = open(base, method, path, csrf ? { [CSRF_HEADER]: csrf } : {}, payload);
      outgoing.setTimeout(timeoutMs, () => outgoing.destroy(new Error(`${method} ${path} took over ${timeoutMs} ms`)));
      outgoing.on('error', reject);
      outgoing.on('response', (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', reject);
        response.on('end', () => {
          keepCookies(response.headers);
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown = null;
          try {
            json = JSON.parse(text);
          } catch {
            json = null;
          }
          const upstream = response.headers['x-upstream'];
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            json,
            text,
            upstream: typeof upstream === 'string' ? upstream : null,
          });
        });
      });
      outgoing.end(payload);
    });
  }

  /** A CSRF token from `base` (it also sets the CSRF cookie the first time). */
  async function csrfToken(base: string): Promise<string> {
    const answer = await request(base, 'GET', '/api/auth/csrf-token');
    if (answer.status !== 200 || typeof answer.json?.token !== 'string') {
      throw new Error(`no CSRF token from ${base}: ${answer.status} ${answer.text.slice(0, 200)}`);
    }
    return answer.json.token;
  }

  /** As the storefront writes: a token from the same address, then the request. */
  async function write(base: string, method: 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, body?: unknown) {
    return request(base, method, path, { body, csrf: await csrfToken(base) });
  }

  /**
   * A server-sent events stream, read as it comes (each event with the time it arrived); resolves
   * once the answer's headers are in.
   */
  function stream(base: string, path: string): Promise<EventStream> {
    return new Promise((resolve, reject) => {
      const events: StreamEvent[] = [];
      const waiters = new Set<() => void>();
      const outgoing = open(base, 'GET', path, { accept: 'text/event-stream' });
      outgoing.on('error', reject);
      outgoing.on('response', (response) => {
        let buffered = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          buffered += chunk;
          for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const fields = { id: null as string | null, event: 'message', data: [] as string[] };
            for (const line of block.split('\n')) {
              if (line.startsWith('id: ')) fields.id = line.slice(4);
              else if (line.startsWith('event: ')) fields.event = line.slice(7);
              else if (line.startsWith('data: ')) fields.data.push(line.slice(6));
            }
            if (fields.data.length === 0) continue;
            events.push({ id: fields.id, event: fields.event, data: fields.data.join('\n'), at: performance.now() });
            for (const wake of waiters) wake();
          }
        });
        // The stream ending is not an error here: the waiting tests time out with what came.
        response.on('error', () => {});
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          events,
          next(matches, timeoutMs) {
            return new Promise((found, missed) => {
              const look = () => {
                const event = events.find(matches);
                if (!event) return;
                waiters.delete(look);
                clearTimeout(timer);
                found(event);
              };
              const timer = setTimeout(() => {
                waiters.delete(look);
                missed(
                  new Error(`no matching event within ${timeoutMs} ms (got: ${events.map((e) => e.event).join(', ')})`),
                );
              }, timeoutMs);
              waiters.add(look);
              look();
            });
          },
          close: () => outgoing.destroy(),
        });
      });
      outgoing.end();
    });
  }

  return {
    address,
    request,
    csrfToken,
    write,
    stream,
    cookie: (name: string) => jar.get(name),
    /** Closes the kept-alive connections. */
    close: () => agent.destroy(),
  };
}

export type Browser = ReturnType<typeof browser>;

export type EventStream = {
  status: number;
  headers: http.IncomingHttpHeaders;
  events: StreamEvent[];
  /** The first event (already come or still to come) that matches. */
  next(matches: (event: StreamEvent) => boolean, timeoutMs: number): Promise<StreamEvent>;
  close(): void;
};
