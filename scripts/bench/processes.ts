/**
 * The child processes of the benchmark (the shop, the bare Fastify baseline). Each is started
 * in its own process group and remembered, so an interrupted run still stops what it started.
 */
import { type ChildProcess, type SpawnOptions, spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { readFile, realpath } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

export const root = fileURLToPath(new URL('../..', import.meta.url));

const running = new Set<ChildProcess>();

/** Starts a Node script (on this same Node 24) from the repository's root. */
export function startNodeScript(
  script: string,
  {
    env = process.env,
    stdout = 'inherit',
    nodeArgs = [],
  }: { env?: NodeJS.ProcessEnv; stdout?: 'inherit' | 'pipe'; nodeArgs?: string[] } = {},
): ChildProcess {
  const options: SpawnOptions = { cwd: root, env, stdio: ['ignore', stdout, 'inherit'], detached: true };
  const child = spawn(process.execPath, [...nodeArgs, script], options);
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * What `npm start` adds to a plain `node server/start.js`, read from package.json: its environment
 * (NODE_ENV, MALLOC_ARENA_MAX, the compile cache) and Node's flags (the young generation's size),
 * but not the .env file. The benchmarks' shops start with them, so they measure production's server.
 */
export function npmStartSettings(): { env: Record<string, string>; nodeArgs: string[] } {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const words = manifest.scripts.start.trim().split(/\s+/);
  const node = words.indexOf('node');
  if (node < 0) throw new Error(`npm start does not run node: ${manifest.scripts.start}`);
  const env = Object.fromEntries(
    words.slice(0, node).map((word) => {
      const [name = '', ...value] = word.split('=');
      return [name, value.join('=')];
    }),
  );
  const nodeArgs = words.slice(node + 1, -1).filter((word) => word.startsWith('--') && !word.startsWith('--env-file'));
  return { env, nodeArgs };
}

/** The benchmark's shop, started as `npm start` starts it (server/start.js, the server's bundle). */
export function startShopProcess(
  env: NodeJS.ProcessEnv,
  { stdout = 'inherit' }: { stdout?: 'inherit' | 'pipe' } = {},
): ChildProcess {
  const start = npmStartSettings();
  return startNodeScript('server/start.js', {
    env: { ...start.env, ...env },
    stdout,
    nodeArgs: start.nodeArgs,
  });
}

export function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/** SIGTERM, then SIGKILL to the child's whole group if it has not exited after the grace period. */
export async function stopProcess(child: ChildProcess, graceMs = 15_000): Promise<void> {
  if (hasExited(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const stopped = await Promise.race([exited.then(() => true), delay(graceMs).then(() => false)]);
  if (stopped || child.pid === undefined) return;
  process.stderr.write(`bench: process ${child.pid} ignored SIGTERM; killing its group\n`);
  try {
    process.kill(-child.pid, 'SIGKILL');
  } catch {
    // Already gone between the check and the kill.
  }
  await exited;
}

export async function stopAllProcesses(): Promise<void> {
  await Promise.all([...running].map((child) => stopProcess(child)));
}

/** A TCP port nothing listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const address = server.address();
  server.close();
  await once(server, 'close');
  if (!address || typeof address === 'string') throw new Error('could not find a free port');
  return address.port;
}

/** Waits for a started shop to answer /readyz (at most 180 s); stops it and throws when it does not. */
export async function waitUntilReady(child: ChildProcess, url: string): Promise<number> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (hasExited(child)) throw new Error(`the shop exited with code ${child.exitCode ?? child.signalCode}`);
    try {
      const response = await fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) });
      await response.body?.cancel();
      if (response.ok && child.pid) return child.pid;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stopProcess(child);
  throw new Error('the shop was not ready within 180 s');
}

/** A process's resident memory now, in bytes (Linux: /proc). */
export async function rss(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/^VmRSS:\s+(\d+) kB/m.exec(status)?.[1]);
  if (!Number.isFinite(kb)) throw new Error('no VmRSS in /proc');
  return kb * 1024;
}

/** V8 maps each page of its JavaScript heap on its own, 256 KiB apiece. */
const V8_PAGE_KIB = 256;

type RssPart = 'binary' | 'mallocHeap' | 'v8Pages' | 'anonymous' | 'other';

/** Which part a mapping of smaps is, by its name and size. */
function partOf(name: string, kib: number, executable: string): RssPart {
  if (name === executable) return 'binary';
  if (name === '[heap]') return 'mallocHeap';
  if (name !== '') return 'other';
  return kib === V8_PAGE_KIB ? 'v8Pages' : 'anonymous';
}

/**
 * Where a process's resident memory is, in MiB, from /proc/<pid>/smaps: the Node binary's own
 * pages, malloc's main heap, V8's heap pages (anonymous mappings of its page size), the other
 * anonymous mappings (V8's code and young generation, WebAssembly memory, malloc's other arenas
 * and large blocks), and the rest. A memory figure far off its usual value says which part grew.
 */
export async function rssBreakdown(pid: number): Promise<Record<RssPart, number>> {
  const text = await readFile(`/proc/${pid}/smaps`, 'utf8');
  const sums: Record<RssPart, number> = { binary: 0, mallocHeap: 0, v8Pages: 0, anonymous: 0, other: 0 };
  const executable = await realpath(`/proc/${pid}/exe`);
  let part: RssPart = 'other';
  for (const line of text.split('\n')) {
    const mapping = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (mapping) {
      const name = mapping[3] ?? '';
      const kib = (Number.parseInt(mapping[2] ?? '0', 16) - Number.parseInt(mapping[1] ?? '0', 16)) / 1024;
      part = partOf(name, kib, executable);
      continue;
    }
    const kb = /^Rss:\s+(\d+) kB/.exec(line)?.[1];
    if (kb) sums[part] += Number(kb) / 1024;
  }
  return {
    binary: Math.round(sums.binary),
    mallocHeap: Math.round(sums.mallocHeap),
    v8Pages: Math.round(sums.v8Pages),
    anonymous: Math.round(sums.anonymous),
    other: Math.round(sums.other),
  };
}

/** A process's resident memory at rest: the median of five readings, a quarter of a second apart. */
export async function steadyRss(pid: number): Promise<number> {
  const readings: number[] = [];
  for (let n = 0; n < 5; n += 1) {
    readings.push(await rss(pid));
    await delay(250);
  }
  readings.sort((a, b) => a - b);
  return readings[2] as number;
}

/** steadyRss, with where the memory is printed beside it (the report keeps the figure alone). */
export async function steadyRssReported(pid: number, label: string): Promise<number> {
  const bytes = await steadyRss(pid);
  const parts = await rssBreakdown(pid);
  process.stdout.write(
    `  ${label}: RSS ${Math.round(bytes / 2 ** 20)} MiB (Node binary ${parts.binary}, malloc heap ${parts.mallocHeap}, V8 heap pages ${parts.v8Pages}, other anonymous ${parts.anonymous}, other ${parts.other})\n`,
  );
  return bytes;
}
