import { execFile } from 'node:child_process';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { commandEnv } from '#server/testing/test-environment.ts';
import { BUILD_LOCK_FILE, ensureWebBuild } from './web-build.ts';

/**
 * Every test works in a checkout of its own under the system's temporary folder, with a stand-in
 * for the build: the real one is slow, and the repository's build/ may be in use.
 */
const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function checkout(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'stillwater-web-build-'));
  roots.push(root);
  mkdirSync(path.join(root, 'web'));
  writeFileSync(path.join(root, 'web/root.tsx'), 'export default function Root() {}\n');
  return root;
}

/** Does what the real build does to build/ (React Router empties it first), and counts its runs. */
function standInBuild(root: string): void {
  rmSync(path.join(root, 'build'), { recursive: true, force: true });
  mkdirSync(path.join(root, 'build/server'), { recursive: true });
  mkdirSync(path.join(root, 'build/client/assets'), { recursive: true });
  writeFileSync(path.join(root, 'build/server/index.js'), 'export {};\n');
  writeFileSync(path.join(root, 'build/client/assets/app.js'), 'console.log(1);\n');
  appendFileSync(path.join(root, 'builds.log'), `${process.pid}\n`);
}

const buildCount = (root: string) =>
  existsSync(path.join(root, 'builds.log'))
    ? readFileSync(path.join(root, 'builds.log'), 'utf8').split('\n').length - 1
    : 0;
const lockPath = (root: string) => path.join(root, BUILD_LOCK_FILE);
/** A process id no process has (beyond Linux's largest). */
const GONE_PID = 2_147_483_646;

describe('one process', () => {
  test('builds when the sources changed, and only then', () => {
    const root = checkout();
    expect(ensureWebBuild({ root, build: standInBuild })).toBe(true);
    expect(buildCount(root)).toBe(1);
    expect(ensureWebBuild({ root, build: standInBuild })).toBe(false);
    expect(buildCount(root)).toBe(1);
    writeFileSync(path.join(root, 'web/root.tsx'), 'export default function Root() { return null; }\n');
    expect(ensureWebBuild({ root, build: standInBuild })).toBe(true);
    expect(ensureWebBuild({ root, build: standInBuild, force: true })).toBe(true);
    expect(buildCount(root)).toBe(3);
    expect(existsSync(lockPath(root))).toBe(false);
  });

  test('a build that fails releases the lock and leaves no stamp, so the next start builds again', () => {
    const root = checkout();
    const failing = () => {
      throw new Error('the web build failed (exit code 1)');
    };
    expect(() => ensureWebBuild({ root, build: failing })).toThrow('exit code 1');
    expect(existsSync(lockPath(root))).toBe(false);
    expect(ensureWebBuild({ root, build: standInBuild })).toBe(true);
  });

  test('a lock left by a process that is gone is taken over', () => {
    const root = checkout();
    writeFileSync(lockPath(root), `${GONE_PID}\n`);
    expect(ensureWebBuild({ root, build: standInBuild, waitLimitMs: 0 })).toBe(true);
    expect(existsSync(lockPath(root))).toBe(false);
  });

  test('a take-over left half done by a process that died in it is cleared, and the stale lock then taken over', () => {
    const root = checkout();
    writeFileSync(lockPath(root), `${GONE_PID}\n`);
    writeFileSync(`${lockPath(root)}.takeover`, `${GONE_PID}\n`);
    expect(ensureWebBuild({ root, build: standInBuild, waitLimitMs: 0 })).toBe(true);
    expect(readdirSync(root).filter((name) => name.startsWith(BUILD_LOCK_FILE))).toEqual([]);
  });

  test("a lock holding this process's own id was left by an earlier process with that id, and is taken over", () => {
    const root = checkout();
    writeFileSync(lockPath(root), `${process.pid}\n`);
    expect(ensureWebBuild({ root, build: standInBuild, waitLimitMs: 0 })).toBe(true);
  });

  test('a lock held by a live process is waited for, up to the limit, and then left alone', () => {
    const root = checkout();
    // The test runner's own process: alive, and not this one.
    writeFileSync(lockPath(root), `${process.ppid}\n`);
    const started = Date.now();
    expect(() => ensureWebBuild({ root, build: standInBuild, waitLimitMs: 600 })).toThrow(
      `process ${process.ppid} has been building the web app`,
    );
    expect(Date.now() - started).toBeGreaterThanOrEqual(600);
    expect(buildCount(root)).toBe(0);
    expect(readFileSync(lockPath(root), 'utf8')).toBe(`${process.ppid}\n`);
  });

  test('a lock without an id is being written (waited for) while new, and was abandoned when old', () => {
    const root = checkout();
    writeFileSync(lockPath(root), '');
    expect(() => ensureWebBuild({ root, build: standInBuild, waitLimitMs: 300 })).toThrow(
      'another process has been building the web app',
    );
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(lockPath(root), minuteAgo, minuteAgo);
    expect(ensureWebBuild({ root, build: standInBuild, waitLimitMs: 0 })).toBe(true);
  });
});

/**
 * Issue 16: instances started together from one checkout after a source change. Each is a Node
 * process whose build takes a while and empties build/ as the real one does.
 */
describe('processes starting together', { timeout: 90_000 }, () => {
  const INSTANCES = 3;
  const instance = `
    import { appendFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
    import path from 'node:path';
    import { ensureWebBuild } from ${JSON.stringify(new URL('./web-build.ts', import.meta.url).href)};
    const root = process.env.WEB_BUILD_ROOT;
    // Ready, then all go at one signal: Node's own start takes uneven times on a loaded machine.
    writeFileSync(path.join(root, 'ready-' + process.pid), '');
    const giveUp = Date.now() + 60_000;
    while (!existsSync(path.join(root, 'go'))) {
      if (Date.now() > giveUp) process.exit(1);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
    }
    const built = ensureWebBuild({
      root,
      build(root) {
        rmSync(path.join(root, 'build'), { recursive: true, force: true });
        mkdirSync(path.join(root, 'build/server'), { recursive: true });
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(process.env.BUILD_MS));
        writeFileSync(path.join(root, 'build/server/index.js'), 'export {};\\n');
        appendFileSync(path.join(root, 'builds.log'), process.pid + '\\n');
      },
    });
    process.stdout.write(JSON.stringify({ built }) + '\\n');
  `;

  /**
   * The stand-in build takes `buildMs`: long enough that the others, going at the same signal,
   * reach the lock while it is held (on a loaded machine, hashing the sources took them over a
   * second once, and none was seen waiting).
   */
  function startInstance(root: string, buildMs: number) {
    return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        process.execPath,
        ['--input-type=module', '-e', instance],
        { env: commandEnv({ WEB_BUILD_ROOT: root, BUILD_MS: String(buildMs) }) },
        (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  }

  async function startTogether(root: string, buildMs = 1000) {
    rmSync(path.join(root, 'go'), { force: true });
    const started = Array.from({ length: INSTANCES }, () => startInstance(root, buildMs));
    const readyCount = () => readdirSync(root).filter((name) => name.startsWith('ready-')).length;
    const allReady = readyCount() + INSTANCES;
    while (readyCount() < allReady) await new Promise((resolve) => setTimeout(resolve, 20));
    writeFileSync(path.join(root, 'go'), '');
    const results = await Promise.all(started);
    expect(results.map((result) => [result.code, result.stderr])).toEqual(
      Array.from({ length: INSTANCES }, () => [0, '']),
    );
    return results.map((result) => result.stdout);
  }

  test('one builds, the others wait for it and find the build done', async () => {
    const root = checkout();
    const outputs = await startTogether(root, 4000);
    expect(buildCount(root)).toBe(1);
    expect(outputs.filter((output) => output.includes('{"built":true}'))).toHaveLength(1);
    expect(outputs.filter((output) => output.includes('{"built":false}'))).toHaveLength(INSTANCES - 1);
    expect(outputs.filter((output) => output.includes('Building the web app'))).toHaveLength(1);
    expect(outputs.filter((output) => output.includes('Waiting for process')).length).toBeGreaterThan(0);
    expect(existsSync(lockPath(root))).toBe(false);
    // Started again with the same sources, none builds.
    expect(await startTogether(root)).toEqual(Array.from({ length: INSTANCES }, () => '{"built":false}\n'));
  });

  // Rounds, since the race this guards (two finding the stale lock at once) takes a close start.
  test.each([1, 2, 3, 4, 5])(
    'after a crash mid-build (its lock left behind), one of them takes the lock over and builds (round %i)',
    async () => {
      const root = checkout();
      writeFileSync(lockPath(root), `${GONE_PID}\n`);
      await startTogether(root);
      expect(buildCount(root)).toBe(1);
      expect(readdirSync(root).filter((name) => name.startsWith(BUILD_LOCK_FILE))).toEqual([]);
    },
  );
});
