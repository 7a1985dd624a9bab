/**
 * What the suites that start real processes share (server/cluster, server/crash): ports, waiting
 * for an answer or an exit, signals, log tails, and the `npx` that refuses to build.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

/** A port nothing listens on now (the OS's pick, released at once). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** The last lines of a log file, for failure messages. */
export function tail(file: string, lines: number): string {
  if (!existsSync(file)) return '(no log)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
}

/** Resolves once `url` answers 200; rejects when the process has exited or the time is up. */
export async function waitForAnswer(url: string, { alive, timeoutMs }: { alive: () => boolean; timeoutMs: number }) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!alive()) throw new Error(`the process serving ${url} exited`);
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2000) });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export const isRunning = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** Waits for the process to exit, up to `ms`; true when it did. */
export function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (!isRunning(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** Sends the signal to this one process; it may have gone already. */
export function signal(pid: number, name: NodeJS.Signals) {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/**
 * A production start builds the web app when its sources changed since build/ was made (with
 * npx): under other test files' feet, and for minutes. Put first on the PATH of the processes a
 * suite starts, this `npx` refuses instead, printing `marker`, so the start fails saying why.
 */
export async function writeRefusingNpx(bin: string, marker: string) {
  await writeFile(path.join(bin, 'npx'), `#!/bin/sh\necho "${marker}: $*" >&2\nexit 97\n`, { mode: 0o755 });
}
