/**
 * Cold start (issue 15): the production server started on an existing data folder (PGlite
 * already seeded, the web build up to date), timed from launching the process to the first
 * 200 of `GET /`. The folder is prepared once (a first start seeds it), then the shop is
 * started `runs` times; the median is judged.
 *
 * Measured from launching `node server/start.js` with the environment and Node flags of
 * `npm start` (processes.ts startShopProcess), the server's bundle up to date; npm's own ~0.25 s
 * before Node starts is not included.
 */
import { rm } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import { throwawayShopEnv } from '../../server/testing/throwaway-shop.ts';
import { freePort, hasExited, startShopProcess, stopProcess } from './processes.ts';
import type { Target } from './report.ts';
import { goals } from './report.ts';
import { startShop, stopShop } from './shop.ts';

export const coldStartBench = {
  runs: 5,
  /** How often `GET /` is tried while the server starts. */
  pollMs: 20,
  /** A start that has not answered by then has failed. */
  timeoutMs: 60_000,
};

/** When each step of the start was done, in ms since the process started (server/main.ts logs it). */
export type StartupTimings = Partial<
  Record<'modulesLoaded' | 'databaseReady' | 'appModulesLoaded' | 'appBuilt' | 'listening', number>
>;

export type ColdStartRun = {
  /** Launch to the first 200 of `/`. */
  seconds: number;
  /** The server's own account of its start (null when its log line was not found). */
  startup: StartupTimings | null;
};

export type ColdStartBenchResult = {
  runs: ColdStartRun[];
  medianSeconds: number;
  fastestSeconds: number;
  slowestSeconds: number;
};

/** Prepares a seeded data folder, then times `runs` starts on it. */
export async function measureColdStart(): Promise<ColdStartBenchResult> {
  // The first start seeds the folder (and writes the compile cache): not timed.
  const prepared = await startShop();
  await stopShop(prepared, { keepData: true });
  const { dataDir } = prepared;
  try {
    const runs: ColdStartRun[] = [];
    let rebuilds = 0;
    for (let run = 1; run <= coldStartBench.runs; run += 1) {
      const measured = await timeOneStart(dataDir);
      if (measured.rebuiltWebApp) {
        // The web app's sources changed during the run (someone editing web/): the start built
        // it, which is not what a cold start measures. Timed again, a few times at most.
        rebuilds += 1;
        if (rebuilds > coldStartBench.runs)
          throw new Error('the web app was rebuilt at every start: its sources keep changing');
        process.stdout.write(`  start ${run}: built the web app (its sources changed): started again\n`);
        run -= 1;
        continue;
      }
      process.stdout.write(
        `  start ${run}: ${measured.seconds.toFixed(3)} s${measured.startup ? ` (${phasesText(measured.startup)})` : ''}\n`,
      );
      runs.push({ seconds: measured.seconds, startup: measured.startup });
    }
    const sorted = runs.map((run) => run.seconds).sort((a, b) => a - b);
    return {
      runs,
      medianSeconds: sorted[Math.floor(sorted.length / 2)] as number,
      fastestSeconds: sorted[0] as number,
      slowestSeconds: sorted[sorted.length - 1] as number,
    };
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function timeOneStart(dataDir: string): Promise<ColdStartRun & { rebuiltWebApp: boolean }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env: NodeJS.ProcessEnv = {
    ...throwawayShopEnv(dataDir, { password: 'bench-owner-password' }),
    PORT: String(port),
    HOST: '127.0.0.1',
    PUBLIC_URL: url,
    // The serving line, with the start's timings, is logged at info.
    LOG_LEVEL: 'info',
  };
  delete env.DATABASE_URL;
  const launched = performance.now();
  const child = startShopProcess(env, { stdout: 'pipe' });
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    // Only the start matters; the request log after it is dropped.
    if (log.length < 200_000) log += chunk;
  });
  try {
    const seconds = await firstPage(url, launched, () => hasExited(child));
    return { seconds, startup: startupTimings(log), rebuiltWebApp: log.includes('Building the web app') };
  } finally {
    await stopProcess(child);
  }
}

/** Seconds from `launched` to the first 200 of `GET /`, trying every `pollMs`. */
async function firstPage(url: string, launched: number, exited: () => boolean): Promise<number> {
  while (performance.now() - launched < coldStartBench.timeoutMs) {
    if (exited()) throw new Error('the shop exited before it served its first page');
    try {
      const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(10_000) });
      await response.arrayBuffer();
      if (response.status === 200) return Number(((performance.now() - launched) / 1000).toFixed(3));
    } catch {
      // Not listening yet.
    }
    await delay(coldStartBench.pollMs);
  }
  throw new Error(`the shop served no page within ${coldStartBench.timeoutMs / 1000} s`);
}

/** The `startup` field of the server's "serving" log line (pino's JSON). */
export function startupTimings(log: string): StartupTimings | null {
  for (const line of log.split('\n')) {
    if (!line.includes('"startup"')) continue;
    try {
      const parsed = JSON.parse(line) as { startup?: StartupTimings };
      if (parsed.startup) return parsed.startup;
    } catch {
      // Not a log line.
    }
  }
  return null;
}

function phasesText(startup: StartupTimings): string {
  const at = (value: number | undefined) => (value === undefined ? '?' : `${value} ms`);
  return [
    `main modules ${at(startup.modulesLoaded)}`,
    `app modules ${at(startup.appModulesLoaded)}`,
    `database ready ${at(startup.databaseReady)}`,
    `app built ${at(startup.appBuilt)}`,
    `listening ${at(startup.listening)}`,
  ].join(', ');
}

export function coldStartTargets(result: ColdStartBenchResult | null): Target[] {
  return [
    {
      name: `cold start (existing data folder, launch to the first 200 of /), median of ${coldStartBench.runs}`,
      goal: `≤ ${goals.coldStartSeconds} s`,
      actual: result
        ? `${result.medianSeconds} s (${result.fastestSeconds} – ${result.slowestSeconds} s)`
        : 'not measured',
      met: result !== null && result.medianSeconds <= goals.coldStartSeconds,
    },
  ];
}

export function coldStartText(result: ColdStartBenchResult): string {
  const medianRun = [...result.runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(result.runs.length / 2)];
  return [
    `Cold start: ${result.runs.map((run) => `${run.seconds} s`).join(', ')} (median ${result.medianSeconds} s)`,
    ...(medianRun?.startup
      ? [`  median start, since launch: ${phasesText(medianRun.startup)}, first page ${medianRun.seconds * 1000} ms`]
      : []),
    '',
  ].join('\n');
}
