/**
 * The lock file of a build made at start (the web app's, the server's bundle): instances started
 * together from one checkout take turns, one builds and the others wait for it and then find
 * the build done. A lock whose holder died is taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

const POLL_MS = 250;
/** A lock file still without a process id this long after it was made belongs to a process that died making it. */
const UNWRITTEN_LOCK_GRACE_MS = 10_000;

/**
 * Takes the lock file (it holds this process's id), waiting while a live process holds it; a
 * lock left by a process that is gone is taken over. Returns the function that releases it.
 */
export function takeBuildLock(
  lockFile: string,
  { waitLimitMs, building }: { waitLimitMs: number; building: string },
): () => void {
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
        `${holder} has been building ${building} for over ${Math.round(waitLimitMs / 1000)} s (${lockFile}); stop it, or remove the file if no build runs`,
      );
    }
    if (!announced) {
      process.stdout.write(`Waiting for ${holder} building ${building}…\n`);
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
  // This process holds the lock only while it builds: its own id is a lock left by an
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

/** The builds run before the server listens, with nothing else to do meanwhile. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}
