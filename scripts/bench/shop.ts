/**
 * The shop under benchmark: a fresh production build served as `npm start` serves it
 * (server/start.js) on a temporary PGlite database, set up as e2e/serve.ts sets up the browser
 * tests' server (demo images from the shared cache). Started directly, not through serve.ts,
 * so an unexpected exit is seen with its code or signal.
 */
import type { ChildProcess } from 'node:child_process';
import { spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { throwawayShopEnv } from '../../server/testing/throwaway-shop.ts';
import { freePort, hasExited, root, startShopProcess, stopProcess } from './processes.ts';

export type Shop = {
  url: string;
  process: ChildProcess;
  dataDir: string;
  /** How the server ended, when it ended before we stopped it. */
  exit: string | null;
};

const readyTimeoutMs = 240_000;

/** `npm run build`, on this same Node. */
export function buildWebApp(): void {
  const result = spawnSync(process.execPath, ['scripts/build.ts'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the web build failed (exit code ${result.status})`);
}

/** Starts the shop on a new data folder, or again on the folder of an earlier run (`dataDir`). */
export async function startShop({
  dataDir: existing,
  databaseUrl,
}: {
  dataDir?: string;
  /** A PostgreSQL database to run on (the demo seeded into it) instead of the embedded one. */
  databaseUrl?: string;
} = {}): Promise<Shop> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = existing ?? (await mkdtemp(path.join(tmpdir(), 'stillwater-bench-')));
  const env: NodeJS.ProcessEnv = {
    ...throwawayShopEnv(dataDir, { password: 'bench-owner-password' }),
    PORT: String(port),
    HOST: '127.0.0.1',
    // Canonical links and the page's own address agree, as they do in production.
    PUBLIC_URL: url,
    // The benchmark spreads its requests over many client addresses (X-Forwarded-For), as real
    // shoppers behind a proxy would be, so the per-client rate limit is paid for but never refuses;
    // the benchmark client on 127.0.0.1 stands where the proxy would.
    TRUST_PROXY: '127.0.0.1',
  };
  // The targets are for the embedded database, unless a PostgreSQL one is asked for.
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  else delete env.DATABASE_URL;
  const shop: Shop = { url, process: startShopProcess(env), dataDir, exit: null };
  shop.process.once('exit', (code, signal) => {
    shop.exit = describeExit(code, signal);
  });
  try {
    await waitUntilReady(shop);
  } catch (error) {
    await stopShop(shop);
    throw error;
  }
  return shop;
}

function describeExit(code: number | null, signal: NodeJS.Signals | null): string {
  if (signal) return `was killed by ${signal}`;
  // server/main.ts exits 0 only after a graceful shutdown, which only SIGTERM or SIGINT starts.
  if (code === 0) return 'shut down (code 0): another process sent it SIGTERM or SIGINT';
  return `exited with code ${code}`;
}

/** Stops the shop and removes its data folder, unless it is kept to start the shop again. */
/**
 * The embedded shop as production runs it: on a data folder that an earlier start seeded. The
 * start that seeds the demo shop keeps more native memory for as long as it runs (about 100 MiB:
 * docs/performance.md, "the first start's seed, measured apart"), and a shop seeds only once.
 */
export async function startSeededShop(): Promise<Shop> {
  const first = await startShop();
  await stopShop(first, { keepData: true });
  return startShop({ dataDir: first.dataDir });
}

export async function stopShop(shop: Shop, { keepData = false }: { keepData?: boolean } = {}): Promise<void> {
  await stopProcess(shop.process);
  if (!keepData) await rm(shop.dataDir, { recursive: true, force: true });
}

/** Throws when the server is gone, so a step does not measure connection errors. */
export function assertShopRunning(shop: Shop): void {
  if (hasExited(shop.process)) throw new Error(`the shop is not running: it ${shop.exit ?? 'exited'}`);
}

async function waitUntilReady(shop: Shop): Promise<void> {
  const deadline = Date.now() + readyTimeoutMs;
  while (Date.now() < deadline) {
    assertShopRunning(shop);
    if (await answersReady(`${shop.url}/readyz`)) return;
    await delay(250);
  }
  throw new Error(`the shop was not ready within ${readyTimeoutMs / 1000} s`);
}

async function answersReady(readyUrl: string): Promise<boolean> {
  try {
    const response = await fetch(readyUrl, { signal: AbortSignal.timeout(2000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false;
  }
}
