/**
 * The orders export at scale (issue 12): 100,000 orders (150,000 lines) written by generate_series
 * into the embedded database of a shop server process, then GET /api/admin/orders/export (XLSX,
 * then CSV) with the owner's session, read to the end. Measured per format: the time until the
 * last byte, and the server's peak resident set during the export less its steady set before
 * (read from /proc every 50 ms). Targets: under 100 MB and under 20 s. The server's CPU time during
 * the export is recorded too: on a shared machine the time until the last byte follows the load,
 * the CPU time much less.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { openDatabase } from '../../server/db/client.ts';
import { throwawayShopEnv } from '../../server/testing/throwaway-shop.ts';
import { nextClientAddress } from './client-address.ts';
import { ownerSession } from './postgres-shop.ts';
import { freePort, rss, startShopProcess, steadyRss, stopProcess, waitUntilReady } from './processes.ts';
import type { Target } from './report.ts';

export const ordersExportBench = {
  orders: 100_000,
  /** Exclusive. */
  extraMemoryTargetMb: 100,
  /** Exclusive. */
  secondsTarget: 20,
};

export type OrdersExportRun = {
  format: 'xlsx' | 'csv';
  seconds: number;
  /** The server process's CPU time (user and system, every thread) during the export. */
  cpuSeconds: number;
  bytes: number;
  rssBeforeMb: number;
  rssPeakMb: number;
  extraMb: number;
};

export type OrdersExportBenchResult = { orders: number; lines: number; writeSeconds: number; runs: OrdersExportRun[] };

const ownerPassword = 'bench-owner-password';
const mb = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;

export async function measureOrdersExport(): Promise<OrdersExportBenchResult> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'stillwater-bench-orders-'));
  let shop: Awaited<ReturnType<typeof startShop>> | null = null;
  try {
    // The first start migrates the database and makes the owner; the orders go in while it is stopped.
    shop = await startShop(dataDir);
    await stopProcess(shop.process);
    shop = null;
    const written = await writeOrders(dataDir, ordersExportBench.orders);
    process.stdout.write(
      `  ${written.orders} orders, ${written.lines} lines written in ${written.seconds.toFixed(1)} s\n`,
    );
    shop = await startShop(dataDir);
    const { cookie } = await ownerSession(shop.url, { email: 'owner@stillwater.test', password: ownerPassword });
    const runs: OrdersExportRun[] = [];
    for (const format of ['xlsx', 'csv'] as const) {
      // Warm-up: a small export compiles the code paths; then the steady baseline.
      await download(shop.url, cookie, `format=${format}&statusFilter=cancelled&search=SW-10000`);
      await delay(1500);
      const before = await steadyRss(shop.pid);
      let peak = before;
      let sampling = true;
      const sampler = (async () => {
        while (sampling) {
          peak = Math.max(peak, await rss(shop?.pid ?? 0));
          await delay(50);
        }
      })();
      const cpuBefore = await cpuSeconds(shop.pid);
      const started = performance.now();
      const bytes = await download(shop.url, cookie, `format=${format}`);
      const seconds = (performance.now() - started) / 1000;
      const cpu = (await cpuSeconds(shop.pid)) - cpuBefore;
      sampling = false;
      await sampler;
      const run = {
        format,
        seconds: Math.round(seconds * 10) / 10,
        cpuSeconds: Math.round(cpu * 10) / 10,
        bytes,
        rssBeforeMb: mb(before),
        rssPeakMb: mb(peak),
        extraMb: mb(peak - before),
      };
      runs.push(run);
      process.stdout.write(
        `  ${format}: ${mb(bytes)} MB in ${run.seconds} s (${run.cpuSeconds} s of CPU), peak RSS +${run.extraMb} MB (${run.rssBeforeMb} → ${run.rssPeakMb} MB)\n`,
      );
      await delay(2000);
    }
    return { orders: written.orders, lines: written.lines, writeSeconds: written.seconds, runs };
  } finally {
    if (shop) await stopProcess(shop.process);
    await rm(dataDir, { recursive: true, force: true });
  }
}

export function ordersExportTargets(result: OrdersExportBenchResult | null): Target[] {
  const { extraMemoryTargetMb, secondsTarget } = ordersExportBench;
  return (['xlsx', 'csv'] as const).flatMap((format) => {
    const run = result?.runs.find((candidate) => candidate.format === format) ?? null;
    return [
      {
        name: `orders export (${format}, 100,000 orders): peak RSS growth`,
        goal: `< ${extraMemoryTargetMb} MB`,
        actual: run ? `${run.extraMb} MB` : 'not measured',
        met: run !== null && run.extraMb < extraMemoryTargetMb,
      },
      {
        name: `orders export (${format}, 100,000 orders): time`,
        goal: `< ${secondsTarget} s`,
        actual: run ? `${run.seconds} s` : 'not measured',
        met: run !== null && run.seconds < secondsTarget,
      },
    ];
  });
}

export function ordersExportText(result: OrdersExportBenchResult): string {
  return [
    `Orders export: ${result.orders} orders, ${result.lines} lines (written in ${result.writeSeconds.toFixed(1)} s)`,
    ...result.runs.map(
      (run) =>
        `  ${run.format}: ${run.seconds} s (${run.cpuSeconds} s of CPU), ${mb(run.bytes)} MB, peak RSS +${run.extraMb} MB (${run.rssBeforeMb} → ${run.rssPeakMb} MB)`,
    ),
    '',
  ].join('\n');
}

/** 100,000 orders over the last ~70 days, half with two lines, in the shop's embedded database. */
async function writeOrders(dataDir: string, count: number) {
  const started = performance.now();
  const database = await openDatabase({ kind: 'pglite', dir: path.join(dataDir, 'db') });
  try {
    const statuses = `(ARRAY['pending','processing','shipped','delivered','completed','cancelled'])[1 + n % 6]`;
    await database.pglite?.query(
      `INSERT INTO orders (id, order_number, email, customer_name, status, subtotal, shipping, tax, total,
         shipping_address, ali_tracking_number, created_at, updated_at)
       SELECT substr(md5('bench-order-' || n), 1, 16), 'SW-' || (200000 + n), 'buyer' || n || '@example.com',
         'Bench Buyer ' || n, ${statuses}, 1000 + n % 9000, 499, 80, 1579 + n % 9000,
         jsonb_build_object('name', 'Bench Buyer ' || n, 'street', n || ' Quiet Lane', 'city', 'Portland',
           'state', 'OR', 'zipCode', '97201', 'country', 'US'),
         CASE WHEN n % 6 = 2 THEN 'LP' || n END,
         now() - make_interval(secs => n * 60), now() - make_interval(secs => n * 60)
       FROM generate_series(1, $1::int) AS n`,
      [count],
    );
    await database.pglite?.query(
      `INSERT INTO order_items (id, order_id, product_name, quantity, unit_price)
       SELECT substr(md5('bench-line-' || n || '-' || k), 1, 16), substr(md5('bench-order-' || n), 1, 16),
         'Calm product ' || (n % 50), 1 + k, 500 + n % 4500
       FROM generate_series(1, $1::int) AS n, generate_series(0, 1) AS k
       WHERE k = 0 OR n % 2 = 0`,
      [count],
    );
    await database.pglite?.query('VACUUM ANALYZE orders');
    await database.pglite?.query('VACUUM ANALYZE order_items');
    const lines = await database.pglite?.query<{ n: number }>('SELECT count(*)::int AS n FROM order_items');
    return { orders: count, lines: lines?.rows[0]?.n ?? 0, seconds: (performance.now() - started) / 1000 };
  } finally {
    await database.close();
  }
}

/** Reads the export to the end; answers its size in bytes. */
async function download(baseUrl: string, cookie: string, query: string): Promise<number> {
  const response = await fetch(new URL(`/api/admin/orders/export?${query}`, baseUrl), {
    headers: { cookie, 'x-forwarded-for': nextClientAddress() },
  });
  if (!response.ok || !response.body) throw new Error(`the export answered ${response.status}`);
  let bytes = 0;
  for await (const chunk of response.body) bytes += chunk.byteLength;
  return bytes;
}

/** The CPU time the process has used so far (user and system, in clock ticks of 1/100 s). */
async function cpuSeconds(pid: number): Promise<number> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  // The fields after the command name, which is in parentheses and may hold spaces.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [utime, stime] = [Number(fields[11]), Number(fields[12])];
  if (!Number.isFinite(utime) || !Number.isFinite(stime)) throw new Error('no CPU times in /proc');
  return (utime + stime) / 100;
}

/** The production server (server/start.js) on PGlite in `dataDir`. */
async function startShop(dataDir: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...throwawayShopEnv(dataDir, { password: ownerPassword }),
    SEED_DEMO_DATA: 'false',
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    TRUST_PROXY: '127.0.0.1',
  };
  delete env.DATABASE_URL;
  delete env.REDIS_URL;
  const child = startShopProcess(env);
  const pid = await waitUntilReady(child, url);
  return { url, process: child, pid };
}
