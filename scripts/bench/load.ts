/**
 * HTTP throughput and latency with autocannon, one target at a time (the machine has two cores:
 * the server in its child process on one, the load generator here on the other).
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
  /** The server's CPU time per answered request, in µs; null when not measured. */
  serverCpuMicrosPerRequest: number | null;
};

// Each simulated client sends this many requests, well under the shop's 100 a minute per client.
const requestsPerClient = 50;

/**
 * Runs a short warm-up (so the JIT and caches are warm), then the measured run, each request
 * shaped by `request` (a signed-in shopper's cookie, a POST with its body). With the server's
 * process id, also the server's CPU time per answered request.
 */
export async function measureLoad(
  name: string,
  url: string,
  settings: LoadSettings,
  request: RequestShape = {},
  serverPid?: number,
): Promise<LoadResult> {
  process.stdout.write(`  load ${name}: ${settings.warmupSeconds} s warm-up, ${settings.durationSeconds} s measured\n`);
  await fire(url, settings.warmupSeconds, settings.connections, request);
  const cpuBefore = cpuMicroseconds(serverPid);
  const measured = await fire(url, settings.durationSeconds, settings.connections, request);
  const cpuAfter = cpuMicroseconds(serverPid);
  const answered = measured.requests.sent - measured.errors - measured.timeouts;
  const cpuPerRequest =
    cpuBefore === null || cpuAfter === null || answered <= 0 ? null : (cpuAfter - cpuBefore) / answered;
  return { ...toLoadResult(name, url, measured), serverCpuMicrosPerRequest: cpuPerRequest };
}

/**
 * A process's CPU time so far (user and system, every thread), in microseconds, from Linux's
 * /proc; null elsewhere. Unlike requests a second, CPU per request hardly depends on how the
 * scheduler shares the cores between the server and the load generator.
 */
function cpuMicroseconds(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command's closing parenthesis; utime and stime are the 12th and 13th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / clockTicksPerSecond();
  } catch {
    return null;
  }
}

let clockTicks: number | null = null;
function clockTicksPerSecond(): number {
  if (clockTicks === null) {
    const answer = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout);
    clockTicks = Number.isFinite(answer) && answer > 0 ? answer : 100;
  }
  return clockTicks;
}

/**
 * What a browser sends that changes the answer: Chrome's Accept-Encoding. A storefront's JSON
 * reaches shoppers compressed, so the targets are measured as they fetch it (the bare route's
 * constant is under any compression threshold, so it answers the same either way).
 */
export const browserHeaders: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br, zstd' };

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
    serverCpuMicrosPerRequest: null,
  };
}

/** An answer for the bare route to send instead of its constant: an endpoint's bytes as a browser gets them. */
export type BareAnswer = { body: Buffer; encoding: string | null };

/**
 * Runs `run` with the URL (and process id) of the bare Fastify baseline, started in its own
 * process and stopped after; with `answer`, the bare route sends those bytes.
 */
export async function withBareServer<T>(
  run: (url: string, pid: number | undefined) => Promise<T>,
  answer?: BareAnswer,
): Promise<T> {
  const folder = answer ? await mkdtemp(path.join(tmpdir(), 'stillwater-bare-')) : null;
  const env: NodeJS.ProcessEnv = { ...process.env };
  if (answer && folder) {
    env.BARE_ANSWER_FILE = path.join(folder, 'answer');
    await writeFile(env.BARE_ANSWER_FILE, answer.body);
    if (answer.encoding) env.BARE_ANSWER_ENCODING = answer.encoding;
  }
  const child = startNodeScript('scripts/bench/bare-server.ts', { stdout: 'pipe', env });
  try {
    const url = await readBareServerUrl(child.stdout);
    return await run(url, child.pid);
  } finally {
    await stopProcess(child);
    if (folder) await rm(folder, { recursive: true, force: true });
  }
}

/** What a browser receives from `url`: the answer's bytes as sent (compressed, unlike fetch's) and their coding. */
export function fetchAnswer(url: string): Promise<BareAnswer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: browserHeaders }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('error', reject);
      response.on('end', () => {
        if (response.statusCode !== 200) return reject(new Error(`${url} answered ${response.statusCode}`));
        const encoding = response.headers['content-encoding'];
        resolve({ body: Buffer.concat(chunks), encoding: encoding ?? null });
      });
    }).on('error', reject);
  });
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
