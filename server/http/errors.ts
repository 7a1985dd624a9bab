import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError } from '#common/contracts/errors.ts';
import { isDatabaseUnavailable } from '#server/db/connection-errors.ts';

/** An expected failure with the status and message the client should see. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly code: string;
  readonly field: string | undefined;
  /** Seconds the client should wait before trying again (sent as Retry-After with a 429). */
  retryAfter: number | undefined;
  constructor(statusCode: number, code: string, message: string, field?: string) {
    super(message);
    this.statusCode = statusCode;
    this.code = code;
    this.field = field;
  }
}

export const invalid = (field: string, message: string) => new AppError(400, 'invalid_input', message, field);
export const unauthorized = (message = 'Authentication required') => new AppError(401, 'unauthorized', message);
export const forbidden = (message: string, code = 'forbidden') => new AppError(403, code, message);
export const notFound = (message: string) => new AppError(404, 'not_found', message);
export const conflict = (code: string, message: string) => new AppError(409, code, message);

/**
 * What a unique index's violation means to the client, by index name. Features declare their
 * own; a race that slips past a service's friendly pre-check then still gets its 409.
 */
const uniqueConflicts = new Map<string, { code: string; message: string }>();

export function describeUniqueIndex(index: string, code: string, message: string) {
  uniqueConflicts.set(index, { code, message });
}

/** The first error along a chain of causes (Drizzle wraps the driver's error) with one of these SQLSTATEs. */
function withSqlState(error: unknown, codes: readonly string[]): { code: string; constraint?: unknown } | null {
  for (let current = error, depth = 0; current && depth < 3; depth++) {
    const fields = current as { code?: unknown; constraint?: unknown; cause?: unknown };
    if (typeof fields.code === 'string' && codes.includes(fields.code))
      return fields as { code: string; constraint?: unknown };
    current = fields.cause;
  }
  return null;
}

/** PostgreSQL's unique_violation, on a driver error or on the query error that wraps it. */
export function uniqueViolation(error: unknown): { constraint: string | undefined } | null {
  const found = withSqlState(error, ['23505']);
  if (!found) return null;
  return { constraint: typeof found.constraint === 'string' ? found.constraint : undefined };
}

/**
 * Two transactions that wrote the same rows at once and were cut apart by PostgreSQL (a deadlock,
 * or a serialization failure): the loser changed nothing and may simply be sent again.
 */
const CONCURRENT_CHANGE_SQLSTATES = ['40P01', '40001'];
export const CONCURRENT_CHANGE_MESSAGE =
  'Another change to the same data was being saved at the same moment; nothing was changed, try again.';

/**
 * How long a client should wait before trying again while the database is unreachable: about
 * the time the pool takes to find a returning database (a new connection per request).
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;
export const DATABASE_UNAVAILABLE_MESSAGE = 'The database is not reachable; try again shortly.';

type ValidationContext = 'body' | 'querystring' | 'params' | 'headers';
const contextNames: Record<ValidationContext, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** Maps every error to the one JSON format; only real faults become a 500, and their details stay in the log. */
export function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
    return sendError(reply, error.statusCode, {
      error: error.message,
      code: error.code,
      ...(error.field ? { field: error.field } : {}),
    });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = contextNames[(error.validationContext ?? 'body') as ValidationContext] ?? 'body';
    const issues = error.validation.map((issue) => {
      const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
      return { field: path || where, message: issue.message ?? 'is invalid' };
    });
    const first = issues[0] ?? { field: where, message: 'is invalid' };
    return sendError(reply, 400, {
      error: `Invalid ${where} field '${first.field}': ${first.message}`,
      code: 'invalid_input',
      field: first.field,
      issues,
    });
  }
  const duplicate = uniqueViolation(error);
  if (duplicate) {
    const known = duplicate.constraint ? uniqueConflicts.get(duplicate.constraint) : undefined;
    return sendError(
      reply,
      409,
      known ? { error: known.message, code: known.code } : { error: 'This already exists', code: 'conflict' },
    );
  }
  if (withSqlState(error, CONCURRENT_CHANGE_SQLSTATES)) {
    request.log.warn({ err: error }, 'concurrent change refused');
    return sendError(reply, 409, { error: CONCURRENT_CHANGE_MESSAGE, code: 'concurrent_change' });
  }
  if (isDatabaseUnavailable(error)) {
    // Not a fault of the request or the code: the client may simply try again. The serializer
    // keeps the query's text and the driver's code, never its parameters.
    request.log.warn({ err: error }, 'database unavailable');
    reply.header('retry-after', String(DATABASE_RETRY_AFTER_SECONDS));
    return sendError(reply, 503, { error: DATABASE_UNAVAILABLE_MESSAGE, code: 'database_unavailable' });
  }
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return sendError(reply, status, { error: clientMessage(error, status), code: clientCode(error, status) });
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, 500, { error: 'Internal server error', code: 'internal' });
}

export function sendError(reply: FastifyReply, status: number, body: ApiError) {
  return reply.status(status).type('application/json; charset=utf-8').send(body);
}

function clientMessage(error: FastifyError, status: number): string {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Unsupported content type';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
  }
  if (status === 429) return error.message || 'Too many requests';
  return error.message || 'Bad request';
}

function clientCode(error: FastifyError, status: number): string {
  if (status === 429) return 'rate_limited';
  if (error.code?.startsWith('FST_ERR_CTP_')) return 'invalid_body';
  if (status === 404) return 'not_found';
  return 'bad_request';
}

/**
 * Errors Fastify meets before a route (a URL that does not decode): the one error format and the
 * data security headers, and no echo of the URL.
 */
export function frameworkErrorHandler(headers: Record<string, string>) {
  return (error: FastifyError, _request: FastifyRequest, reply: FastifyReply) => {
    reply.headers(headers);
    if (error.code === 'FST_ERR_BAD_URL') {
      return sendError(reply, 400, { error: 'The URL is malformed', code: 'bad_url' });
    }
    return sendError(reply, 400, { error: 'Bad request', code: 'bad_request' });
  };
}

const clientErrors: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'The request headers are too large'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'The request took too long to arrive'],
};

/**
 * Errors of the HTTP parser, before Fastify sees a request (headers too large, a request that
 * timed out, bytes that are not HTTP): written straight to the socket, in the one error format,
 * with the data security headers, and the connection closed.
 */
export function clientErrorHandler(headers: Record<string, string>) {
  return (error: NodeJS.ErrnoException, socket: import('node:net').Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [status, reason, message] = clientErrors[error.code ?? ''] ?? [400, 'Bad Request', 'Bad request'];
    const body = JSON.stringify({ error: message, code: status === 400 ? 'bad_request' : 'client_error' });
    const lines = [
      `HTTP/1.1 ${status} ${reason}`,
      'Content-Type: application/json; charset=utf-8',
      `Content-Length: ${Buffer.byteLength(body)}`,
      'Connection: close',
      ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    ];
    if (socket.writable) socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
    socket.destroy();
  };
}
