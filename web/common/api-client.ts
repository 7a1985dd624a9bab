import type * as z from 'zod/mini';
import type { ApiError } from '#common/contracts/errors.ts';

/** An endpoint of common/contracts: method, path with :params, and zod schemas of its parts. */
export type Endpoint = {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  params?: z.ZodMiniType;
  query?: z.ZodMiniType;
  body?: z.ZodMiniType;
  response: z.ZodMiniType;
};

type Input<E extends Endpoint> = (E['params'] extends z.ZodMiniType
  ? { params: z.input<E['params']> }
  : { params?: never }) &
  (E['query'] extends z.ZodMiniType ? { query?: Partial<z.input<E['query']>> } : { query?: never }) &
  (E['body'] extends z.ZodMiniType ? { body: z.input<E['body']> } : { body?: never }) & {
    /** Extra request headers (a statement the endpoint reads, such as tracking consent). */
    headers?: Record<string, string>;
  };

/**
 * Where to send a call: an endpoint of common/contracts, or, in browser code, only its method and
 * path with the endpoint as a type (`api.call<typeof logout>({ method: 'POST', path: logoutPath })`),
 * which keeps zod out of the browser's bundles; the server's response is then trusted as typed.
 */
export type Target<E extends Endpoint> = E | Pick<E, 'method' | 'path'>;

/** How a request reaches the API: fetch in the browser, in-process injection during server rendering. */
export type Transport = (request: {
  method: Endpoint['method'];
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
}) => Promise<{ status: number; statusText: string; body: unknown }>;

/** A failed API call; `message` is the server's error sentence when it gave one (spec section 8). */
export class ApiRequestError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  readonly field: string | undefined;
  constructor(status: number, message: string, code?: string, field?: string) {
    super(message);
    this.name = 'ApiRequestError';
    this.status = status;
    this.code = code;
    this.field = field;
  }
}

/**
 * What to tell the shopper about a failed call (spec section 8): the server's error sentence,
 * else `fallback`; `offline` when the server could not be reached at all.
 */
export function errorMessage(error: unknown, fallback: string, offline = fallback): string {
  if (error instanceof ApiRequestError) return error.message || fallback;
  return offline;
}

/**
 * One path parameter, percent-encoded. URL parsing (fetch in the browser, app.inject on the server)
 * removes a `.` or `..` segment, `%2E` spellings included, so such a value would reach another
 * route (a search for `..` became GET /api/products, every product). It goes with a leading space
 * instead: the contracts' path texts are trimmed, so the server receives the value itself, and a
 * parameter that is not trimmed names nothing, which is the right answer for `.` anyway.
 */
function pathSegment(value: string | number): string {
  const segment = encodeURIComponent(String(value));
  return segment === '.' || segment === '..' ? `%20${segment}` : segment;
}

export function buildUrl(endpoint: Endpoint, input: { params?: object; query?: object }): string {
  const params = (input.params ?? {}) as Record<string, string | number>;
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${endpoint.path}`);
    return pathSegment(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

/** The error body of the API, read without a schema (see common/contracts/errors.ts). */
function readApiError(body: unknown): ApiError | null {
  if (typeof body !== 'object' || body === null) return null;
  const { error, code, field } = body as Record<string, unknown>;
  if (typeof error !== 'string') return null;
  return {
    error,
    code: typeof code === 'string' ? code : 'error',
    ...(typeof field === 'string' ? { field } : {}),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(transport: Transport) {
  /** Calls an endpoint and returns its response; throws ApiRequestError on a non-2xx answer. */
  async function call<E extends Endpoint>(
    endpoint: Target<E>,
    ...[input]: Partial<Input<E>> extends Input<E> ? [Input<E>?] : [Input<E>]
  ): Promise<z.output<E['response']>> {
    const url = buildUrl(endpoint as Endpoint, (input ?? {}) as { params?: object; query?: object });
    const response = await transport({ method: endpoint.method, url, body: input?.body, headers: input?.headers });
    if (response.status < 200 || response.status >= 300) {
      const problem = readApiError(response.body);
      const path = url.split('?')[0];
      const message = problem?.error ?? `HTTP ${response.status} ${response.statusText || 'Error'} on ${path}`;
      throw new ApiRequestError(response.status, message, problem?.code, problem?.field);
    }
    const body = 'response' in endpoint ? endpoint.response.parse(response.body) : response.body;
    return body as z.output<E['response']>;
  }
  return { call };
}
