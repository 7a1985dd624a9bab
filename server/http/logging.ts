import type { FastifyRequest } from 'fastify';

/** What stands in a logged URL where a secret was. */
export const REDACTED = '[redacted]';

// One-use tokens travel in these places of a URL: the reset link's verify path, and query
// parameters that carry a token or a payment's client secret.
const SECRET_PATHS = [/^(\/api\/password-reset\/verify\/)[^?#]*/];
const SECRET_QUERY = /([?&](?:token|client_?secret|code|state)=)[^&#]*/gi;

/** The URL as it may be written to a log: tokens replaced by [redacted]. */
export function redactUrl(url: string): string {
  let safe = url;
  for (const pattern of SECRET_PATHS) safe = safe.replace(pattern, `$1${REDACTED}`);
  return safe.replace(SECRET_QUERY, `$1${REDACTED}`);
}

type LoggedError = {
  type: string;
  message: string;
  stack: string;
  code?: string;
  constraint?: string;
  table?: string;
  statusCode?: number;
  cause?: LoggedError;
};

/**
 * An error as it may be written to a log. A failed query's message and properties carry every
 * parameter of the query (password hashes, emails, tokens), and a database error's detail the
 * conflicting values: only the query text, the database's own message and its codes are kept.
 */
export function serializeError(error: unknown, depth = 0): LoggedError {
  if (!(error instanceof Error)) return { type: typeof error, message: String(error), stack: '' };
  const fields = error as Error & Record<string, unknown>;
  const isFailedQuery = typeof fields.query === 'string' && 'params' in fields;
  const message = isFailedQuery ? `Failed query: ${fields.query as string}` : error.message;
  const logged: LoggedError = {
    type: error.name,
    message,
    // The stack starts with the message: the parameters go from there too.
    stack: (error.stack ?? '').replace(error.message, message),
  };
  for (const name of ['code', 'constraint', 'table'] as const) {
    if (typeof fields[name] === 'string') logged[name] = fields[name] as string;
  }
  if (typeof fields.statusCode === 'number') logged.statusCode = fields.statusCode;
  if (error.cause !== undefined && depth < 3) logged.cause = serializeError(error.cause, depth + 1);
  return logged;
}

/** The request log line's `req`: the client address as the trusted proxies give it, and no secrets. */
export function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
  };
}

export const logSerializers = { req: serializeRequest, err: serializeError };
