/**
 * The web server of the browser tests: the production build on a fresh database (a temporary
 * PGlite folder, or a new database on the DATABASE_URL server, dropped afterwards). Rendered
 * demo images are shared with the other suites' cache.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { throwawayShopEnv } from '../server/testing/throwaway-shop.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = await mkdtemp(path.join(tmpdir(), 'stillwater-e2e-'));
const env = throwawayShopEnv(dataDir, { password: 'e2e-owner-password' });

let database: string | null = null;
const serverUrl = process.env.DATABASE_URL;
if (serverUrl) {
  database = `sw_e2e_${randomBytes(4).toString('hex')}`;
  await withAdmin(async (client) => {
    // Databases of earlier runs whose server was killed before it could drop them.
    const stale = await client.query<{ name: string }>(
      `SELECT datname AS name FROM pg_database WHERE datname LIKE 'sw\\_e2e\\_%' AND datname <> $1`,
      [database],
    );
    for (const { name } of stale.rows) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${database}`);
  });
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  env.DATABASE_URL = url.toString();
}

async function withAdmin(run: (client: pg.Client) => Promise<unknown>) {
  const client = new pg.Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await run(client);
  } finally {
    await client.end();
  }
}

const server = spawn(process.execPath, ['server/main.ts'], { cwd: root, env, stdio: 'inherit' });
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', async (code) => {
  await rm(dataDir, { recursive: true, force: true });
  if (database) await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  process.exit(code ?? 0);
});
