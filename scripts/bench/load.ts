/**
 * HTTP throughput and latency with autocannon, one target at a time (the machine has two cores:
 * the server in its child process on one, the load generator here on the other).
 */
import { createInterface } from 'node:readline';
import type { Request, Result } from 'autocannon';
import autocannon from 'autocannon';
import { nextClientAddress } from './client-address.ts';
import { startNodeScript, stopProcess } from './processes.ts';

export type LoadSettings = { durationSeconds: number; connections: number; warmupSeconds: number };

export type LoadResult = {
  name: string;
  url: string;
  /** Mean of the per-second samples. */
  requestsPerSecond: number;
  /** Latencies are of 2xx responses; null when there was none. */
  latencyMeanMs: number | null;
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  latencyMaxMs: number | null;
  /** Requests sent. */
  requests: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
};

// Each simulated client sends this many requests, well under the shop's 100 a minute per client.
const requestsPerClient = 50;

/**
 * Runs a short warm-up (so the JIT and caches are warm), then the measured run, each request
 * shaped by `request` (a signed-in shopper's cookie, a POST with its body).
 */
export async function measureLoad(
  name: string,
  url: string,
  settings: LoadSettings,
  request: RequestShape = {},
): Promise<LoadResult> {
  process.stdout.write(`  load ${name}: ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured\n`);
  await fire(url, settings.warmupSeconds, settings.connections, request);
  return toLoadResult(name, url, await fire(url, settings.durationSeconds, settings.connections, request));
}

/** What each request sends besides its client address. */
export type RequestShape = { headers?: Record<string, string>; method?: 'GET' | 'POST'; body?: string };

function fire(
  url: string,
  durationSeconds: number,
  connections: number,
  { headers = {}, method = 'GET', body }: RequestShape,
): Promise<Result> {
  let sent = 0;
  let client = nextClientAddress();
  const request: Request = {
    method,
    ...(body === undefined ? {} : { body }),
    setupRequest(next) {
      if (sent > 0 && sent % requestsPerClient === 0) client = nextClientAddress();
      sent += 1;
      return { ...next, headers: { ...next.headers, ...headers, 'x-forwarded-for': client } };
    },
  };
  return autocannon({ url, connections, duration: durationSeconds, pipelining: 1, requests: [request] });
}

function toLoadResult(name: string, url: string, result: Result): LoadResult {
  const answered = result['2xx'] > 0;
  return {
    name,
    url,
    requestsPerSecond: result.requests.mean,
    latencyMeanMs: answered ? result.latency.mean : null,
    latencyP50Ms: answered ? result.latency.p50 : null,
    latencyP99Ms: answered ? result.latency.p99 : null,
    latencyMaxMs: answered ? result.latency.max : null,
    requests: result.requests.sent,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats).map(([code, { count }]) => [code, count])),
  };
}

/** Runs `run` with the URL of the bare Fastify baseline, started in its own process and stopped after. */
export async function withBareServer<T>(run: (url: string) => Promise<T>): Promise<T> {
  const child = startNodeScript('scripts/bench/bare-server.ts', { stdout: 'pipe' });
  try {
    const url = await readBareServerUrl(child.stdout);
    return await run(url);
  } finally {
    await stopProcess(child);
  }
}

async function readBareServerUrl(stdout: NodeJS.ReadableStream | null): Promise<string> {
  if (!stdout) throw new Error('the bare server has no stdout');
  const lines = createInterface({ input: stdout });
  // A close after the first line is the normal end: rejecting a settled promise does nothing.
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    lines.once('close', () => reject(new Error('the bare server exited before it listened')));
  });
  const { port } = JSON.parse(line) as { port: number | null };
  if (!port) throw new Error(`the bare server did not report its port: ${line}`);
  return `http://127.0.0.1:${port}/`;
}
