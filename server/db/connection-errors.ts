/**
 * Which failures mean "the database cannot be reached right now" rather than "this request or
 * this code is wrong": the client is told to try again shortly (503) instead of seeing a fault.
 */

/**
 * SQLSTATEs of a lost or refused connection. Class 08 (connection exception) is matched whole;
 * of class 57, the server shutting down or terminating the backend (pg_terminate_backend),
 * crashing, or still starting; 53300: all its connection slots are taken.
 */
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300']);

/** What the operating system reports when the server is not there, or the connection dropped. */
const UNAVAILABLE_NODE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** node-postgres and its pool raise these without a code, so only their message tells. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated( unexpectedly| due to connection timeout)?$/,
  /^timeout exceeded when trying to connect$/,
  /^timeout expired$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Query read timeout$/,
];

/** How deep the causes are followed (Drizzle wraps the driver's error once; pg's pool once more). */
const MAX_DEPTH = 4;

function isUnavailableError(fields: { code?: unknown; message?: unknown }): boolean {
  const { code, message } = fields;
  if (typeof code === 'string') {
    if (/^08[0-9A-Z]{3}$/.test(code) || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_NODE_CODES.has(code)) {
      return true;
    }
  }
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message));
}

/**
 * Whether an error, or an error it wraps (Drizzle's failed query, an AggregateError of one refused
 * connection per address), says the database is unreachable or went away.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > MAX_DEPTH) return false;
  const fields = error as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (isUnavailableError(fields)) return true;
  if (Array.isArray(fields.errors) && fields.errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) {
    return true;
  }
  return isDatabaseUnavailable(fields.cause, depth + 1);
}
