/**
 * Where the test suites find their databases. Without DATABASE_URL every suite runs on PGlite;
 * with it, on that PostgreSQL server, each test file in a database of its own.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Rendered demo images, kept between runs (the keys carry a content hash, so it is a cache). */
export const testMediaDir = path.join(root, 'node_modules/.cache/stillwater-test-media');

export const postgresUrl = process.env.DATABASE_URL || null;

/** Redis for the multi-instance suites (shared rate-limit counters); they are skipped without it. */
export const redisUrl = process.env.REDIS_URL || null;

/** The same server, another database on it. */
export function databaseUrl(name: string): string {
  if (!postgresUrl) throw new Error('DATABASE_URL is not set');
  const url = new URL(postgresUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** A file holding a migrated and seeded PGlite data directory. */
    pgliteSeedDump: string;
    /** A migrated and seeded PostgreSQL database to copy, when DATABASE_URL is set. */
    postgresTemplate: string | null;
  }
}

/** The environment of a command a test runs (a script of package.json), with these variables set (undefined: removed). */
export function commandEnv(vars: Record<string, string | undefined>): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...process.env, ...vars };
  for (const [name, value] of Object.entries(vars)) if (value === undefined) delete env[name];
  return env;
}
