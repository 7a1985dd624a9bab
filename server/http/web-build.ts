/**
 * Builds the web app when its sources changed since the last build. `npm start` calls it, so a
 * fresh clone builds on its first start and a restart with unchanged sources costs a hash.
 * Instances started together from one checkout take turns through a lock file: one builds, the
 * others wait for it and then find the build done.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  closeSync,
  existsSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { precompress } from './precompress.ts';

const appRoot = fileURLToPath(new URL('../..', import.meta.url));
const inputs = [
  'web',
  'common',
  'public',
  'server/react-router-entry.ts',
  'vite.config.ts',
  'react-router.config.ts',
  'package-lock.json',
];

/** Beside build/, not in it: React Router's build deletes the whole build folder first. */
export const BUILD_LOCK_FILE = '.web-build.lock';
/** A real build takes a minute or two; a holder still alive after this long is taken to be stuck. */
const WAIT_LIMIT_MS = 15 * 60_000;
const POLL_MS = 250;
/** A lock file still without a process id this long after it was made belongs to a process that died making it. */
const UNWRITTEN_LOCK_GRACE_MS = 10_000;

type WebBuildOptions = {
  /** Builds even when the sources are unchanged (`npm run build`). */
  force?: boolean;
  /** The checkout whose web app is built; tests pass a folder of their own. */
  root?: string;
  /** Builds `root`'s web app into `root/build`; tests pass a stand-in. */
  build?: (root: string) => void;
  waitLimitMs?: number;
};

function listFiles(root: string, entry: string): string[] {
  const full = path.join(root, entry);
  if (!existsSync(full)) return [];
  if (!statSync(full).isDirectory()) return [entry];
  return readdirSync(full)
    .sort()
    .flatMap((name) => listFiles(root, path.join(entry, name)));
}

function sourceHash(root: string): string {
  const hash = createHash('sha256');
  for (const file of inputs.flatMap((entry) => listFiles(root, entry))) {
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)))
      .update('\0');
  }
  return hash.digest('hex');
}

/** The source hash the present build was made from, or null when there is no complete build. */
function builtHash(root: string): string | null {
  const stampFile = path.join(root, 'build/.source-hash');
  if (!existsSync(stampFile) || !existsSync(path.join(root, 'build/server/index.js'))) return null;
  return readFileSync(stampFile, 'utf8').trim();
}

function buildWithReactRouter(root: string): void {
  const result = spawnSync('npx', ['react-router', 'build'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) throw new Error(`the web build failed (exit code ${result.status})`);
  precompress(path.join(root, 'build/client'));
}

/** Builds when the sources differ from the last build's (or always, with force); returns whether it built. */
export function ensureWebBuild({
  force = false,
  root = appRoot,
  build = buildWithReactRouter,
  waitLimitMs = WAIT_LIMIT_MS,
}: WebBuildOptions = {}): boolean {
  const current = sourceHash(root);
  if (!force && builtHash(root) === current) return false;
  const release = takeBuildLock(path.join(root, BUILD_LOCK_FILE), waitLimitMs);
  try {
    // The instance that held the lock may have built these very sources meanwhile.
    if (!force && builtHash(root) === current) return false;
    if (!force) process.stdout.write('Building the web app (its sources changed since the last build)…\n');
    build(root);
    writeFileSync(path.join(root, 'build/.source-hash'), `${current}\n`);
    return true;
  } finally {
    release();
  }
}

/**
 * Takes the lock file (it holds this process's id), waiting while a live process holds it; a
 * lock left by a process that is gone is taken over. Returns the function that releases it.
 */
function takeBuildLock(lockFile: string, waitLimitMs: number): () => void {
  const deadline = Date.now() + waitLimitMs;
  let announced = false;
  for (;;) {
    if (tryCreateLock(lockFile)) {
      return () => {
        if (readLock(lockFile)?.pid === process.pid) rmSync(lockFile, { force: true });
      };
    }
    const lock = readLock(lockFile);
    if (!lock) continue; // released just now
    if (!isHeld(lock)) {
      removeStaleLock(lockFile);
      continue;
    }
    const holder = lock.pid === null ? 'another process' : `process ${lock.pid}`;
    if (Date.now() >= deadline) {
      throw new Error(
        `${holder} has been building the web app for over ${Math.round(waitLimitMs / 1000)} s (${lockFile}); stop it, or remove the file if no build runs`,
      );
    }
    if (!announced) {
      process.stdout.write(`Waiting for ${holder} building the web app…\n`);
      announced = true;
    }
    sleepSync(POLL_MS);
  }
}

/**
 * Removes a lock whose holder is gone. Only the holder of the take-over file removes one, and it
 * looks again once it holds that file: two processes that found the same stale lock cannot then
 * remove the fresh lock one of them made meanwhile (checking, then removing, could).
 */
function removeStaleLock(lockFile: string): void {
  const takeover = `${lockFile}.takeover`;
  if (!tryCreateLock(takeover)) {
    // Held for microseconds; one whose holder died in them is cleared.
    const left = readLock(takeover);
    if (left && !isHeld(left)) rmSync(takeover, { force: true });
    return;
  }
  try {
    const lock = readLock(lockFile);
    if (lock && !isHeld(lock)) rmSync(lockFile, { force: true });
  } finally {
    rmSync(takeover, { force: true });
  }
}

function tryCreateLock(lockFile: string): boolean {
  let fd: number;
  try {
    fd = openSync(lockFile, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

type Lock = { pid: number | null; ageMs: number };

/** The lock file's holder (null pid while its maker has yet to write it), or null when there is no lock. */
function readLock(lockFile: string): Lock | null {
  try {
    const text = readFileSync(lockFile, 'utf8').trim();
    const pid = /^\d+$/.test(text) ? Number(text) : null;
    return { pid, ageMs: Date.now() - statSync(lockFile).mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

function isHeld(lock: Lock): boolean {
  if (lock.pid === null) return lock.ageMs < UNWRITTEN_LOCK_GRACE_MS;
  // This process holds the lock only inside ensureWebBuild: its own id is a lock left by an
  // earlier process that had the same id (process ids repeat across container restarts).
  if (lock.pid === process.pid) return false;
  return isAlive(lock.pid);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** ensureWebBuild runs before the server listens, with nothing else to do meanwhile. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
