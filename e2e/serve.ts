/**
 * The web server of the browser tests: the production build on a fresh database (a temporary
 * PGlite folder, or a new database on the DATABASE_URL server, dropped afterwards). Rendered
 * demo images are shared with the other suites' cache.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { throwawayShopEnv } from '../server/testing/throwaway-shop.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const dataDir = await mkdtemp(path.join(tmpdir(), 'stillwater-e2e-'));
const env = throwawayShopEnv(dataDir, { password: 'e2e-owner-password' });
// Every browser test signs in from this one address: the per-client limits are the API tests' concern.
env.RATE_LIMIT_ALLOW_LIST = '127.0.0.1,::1,::ffff:127.0.0.1';
// A pixel, so that its consent-gated loading is tested; the tests serve a fake of its script.
env.TIKTOK_PIXEL_ID = 'C0E2ETESTPIXEL00';

// The shop's mail goes through a local SMTP server that files each message in the mailbox
// folder the tests read (E2E_MAILBOX), as a person would read their inbox.
const mailbox = process.env.E2E_MAILBOX;
let smtp: SMTPServer | null = null;
if (mailbox) {
  await rm(mailbox, { recursive: true, force: true });
  await mkdir(mailbox, { recursive: true });
  let received = 0;
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(',');
        const file = path.join(mailbox, `${String(++received).padStart(4, '0')}.eml`);
        writeFile(file, `X-Envelope-To: ${to}\r\n${Buffer.concat(chunks).toString()}`).then(() => callback(), callback);
      });
    },
  });
  const listening = smtp;
  await new Promise<void>((resolve) => listening.listen(0, '127.0.0.1', resolve));
  const address = listening.server.address();
  env.SMTP_URL = `smtp://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;
}

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

const server = spawn(process.execPath, ['server/start.js'], { cwd: root, env, stdio: 'inherit' });
const stop = () => server.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
server.on('exit', async (code) => {
  smtp?.close();
  await rm(dataDir, { recursive: true, force: true });
  if (database) await withAdmin((client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  process.exit(code ?? 0);
});
