import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { throwawayShopEnv } from '../server/testing/throwaway-shop.ts';
import { expectAccessible } from './a11y.ts';
import { signIn } from './shopper.ts';

/**
 * The live indicator across a server restart: this test runs its own shop server (embedded
 * database, no demo catalogue), stops it under the open back office and starts it again on the
 * same data. The shared test server cannot be restarted under the other tests.
 */
const port = Number(process.env.E2E_PORT ?? 3100) + 17;
const base = `http://127.0.0.1:${port}`;
const owner = { email: 'owner@stillwater.test', password: 'e2e-live-owner-password' };

let dataDir = '';
let server: ChildProcess | null = null;

async function startServer() {
  const env: Record<string, string | undefined> = {
    ...throwawayShopEnv(dataDir, { password: owner.password }),
    SEED_DEMO_DATA: 'false',
    PORT: String(port),
    HOST: '127.0.0.1',
    RATE_LIMIT_ALLOW_LIST: '127.0.0.1,::1,::ffff:127.0.0.1',
  };
  // Its own embedded database even where the suite runs on PostgreSQL.
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  server = spawn(process.execPath, ['server/start.js'], { env, stdio: 'ignore' });
  await expect
    .poll(async () => (await fetch(`${base}/readyz`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
    .toBe(200);
}

async function stopServer() {
  const running = server;
  if (!running || running.exitCode !== null) return;
  const exited = new Promise((resolve) => running.once('exit', resolve));
  running.kill('SIGTERM');
  await exited;
}

test.beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'stillwater-e2e-live-'));
});

test.afterAll(async () => {
  await stopServer();
  await rm(dataDir, { recursive: true, force: true });
});

test('the live indicator shows the connection, loses it when the server stops and reconnects when it is back', async ({
  page,
}) => {
  test.setTimeout(180_000);
  await startServer();
  await page.goto(`${base}/login?redirect=${encodeURIComponent('/admin?tab=users')}`);
  await signIn(page, owner);
  await expect(page).toHaveURL(`${base}/admin?tab=users`);
  await expect(page.getByRole('status').filter({ hasText: 'Live updates active' })).toBeVisible({ timeout: 15_000 });
  await page.getByRole('button', { name: 'Deny' }).click();
  await expectAccessible(page);

  await stopServer();
  await expect(page.getByRole('status').filter({ hasText: 'Connection error' })).toBeVisible({ timeout: 15_000 });
  await expect(page.getByRole('button', { name: 'Reconnect' })).toBeVisible();
  await expectAccessible(page);

  // Back on the same data: the automatic reconnect (5 s, then 10 s, ...) finds it.
  await startServer();
  await expect(page.getByRole('status').filter({ hasText: 'Live updates active' })).toBeVisible({ timeout: 45_000 });
  await expect(page.getByRole('button', { name: 'Reconnect' })).toBeHidden();
});
