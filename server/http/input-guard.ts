import type { FastifyInstance } from 'fastify';
import { invalid } from './errors.ts';

// NUL is refused by PostgreSQL in text; U+FFFD is what invalid UTF-8 becomes when a request is
// decoded, and a lone surrogate cannot be encoded at all. None belongs in honest input.
const isUnsafe = (text: string) => text.includes('\u0000') || text.includes('\uFFFD') || !text.isWellFormed();
const MAX_DEPTH = 20;

/**
 * The path of the first string in a value that holds an unsafe character ('' for the value itself),
 * or null. It runs on every request, so a path is only built for the string it finds.
 */
export function findUnsafeString(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return isUnsafe(value) ? '' : null;
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH) return null;
  const record = value as Record<string, unknown>;
  for (const key of Object.keys(record)) {
    if (isUnsafe(key)) return key;
    const found = findUnsafeString(record[key], depth + 1);
    if (found !== null) return found ? `${key}.${found}` : key;
  }
  return null;
}

const parts = [
  ['path', 'params'],
  ['query', 'query'],
  ['body', 'body'],
] as const;

/**
 * Refuses, for every route of the scope, a path, query or body string with a NUL byte or invalid
 * UTF-8, with the same 400 as any other invalid field: one check instead of one per schema.
 */
export function refuseUnsafeStrings(app: FastifyInstance) {
  // A callback hook: it runs on every request and has nothing to wait for.
  app.addHook('preValidation', (request, _reply, done) => {
    for (const [where, part] of parts) {
      const field = findUnsafeString(request[part]);
      if (field !== null) {
        const name = field || where;
        return done(invalid(name, `Invalid ${where} field '${name}': contains a NUL byte or invalid UTF-8`));
      }
    }
    done();
  });
}

/**
 * Parses a query string as browsers do (WHATWG URLSearchParams): an escape that is not UTF-8
 * becomes U+FFFD, which the guard above then refuses, instead of staying as raw `%FF` text.
 * A repeated name gives an array, as Fastify's own parser does.
 */
export function parseQueryString(text: string): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null);
  for (const [name, value] of new URLSearchParams(text)) {
    const previous = query[name];
    query[name] = previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
  }
  return query;
}
