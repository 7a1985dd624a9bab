import type * as z from 'zod/mini';
import { ApiError } from '#common/contracts/errors.ts';

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
  (E['body'] extends z.ZodMiniType ? { body: z.input<E['body']> } : { body?: never });

/** How a request reaches the API: fetch in the browser, in-process injection during server rendering. */
export type Transport = (request: {
  method: Endpoint['method'];
  url: string;
  body?: unknown;
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

export function buildUrl(endpoint: Endpoint, input: { params?: object; query?: object }): string {
  const params = (input.params ?? {}) as Record<string, string | number>;
  const path = endpoint.path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`missing path parameter ${name} for ${endpoint.path}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(input.query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const query = search.toString();
  return query ? `${path}?${query}` : path;
}

export type ApiClient = ReturnType<typeof createApiClient>;

export function createApiClient(transport: Transport) {
  /** Calls an endpoint and returns its parsed response; throws ApiRequestError on a non-2xx answer. */
  async function call<E extends Endpoint>(
    endpoint: E,
    ...[input]: Partial<Input<E>> extends Input<E> ? [Input<E>?] : [Input<E>]
  ) {
    const url = buildUrl(endpoint, (input ?? {}) as { params?: object; query?: object });
    const response = await transport({ method: endpoint.method, url, body: input?.body });
    if (response.status < 200 || response.status >= 300) {
      const parsed = ApiError.safeParse(response.body);
      const path = url.split('?')[0];
      const message = parsed.success
        ? parsed.data.error
        : `HTTP ${response.status} ${response.statusText || 'Error'} on ${path}`;
      throw new ApiRequestError(response.status, message, parsed.data?.code, parsed.data?.field);
    }
    return endpoint.response.parse(response.body) as z.output<E['response']>;
  }
  return { call };
}
