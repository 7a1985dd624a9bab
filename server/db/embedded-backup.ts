import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createPglite } from './client.ts';

/*
 * Backups of the embedded database (issue 16): a consistent copy taken while the shop runs, and
 * its restore. PGlite's dumpDataDir holds the database's query lock while it copies, so no
 * statement runs in between: the copy is the database between two statements, which PostgreSQL
 * opens as after a clean stop. Uploaded images are files written once under their own names:
 * they are copied as files (docs/operations.md).
 */

const FILE_PATTERN = /^stillwater-db-\d{8}T\d{6}Z\.tar\.gz$/;
/** The file holding the process id of the shop serving the data folder (so the backup command can ask it). */
export const SERVER_PID_FILE = 'server.pid';

export function backupFileName(at: Date): string {
  return `stillwater-db-${at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')}.tar.gz`;
}

/** Writes the database's copy into `backupsDir` (whole or not at all: written aside, then renamed); answers its path. */
export async function writeEmbeddedBackup(pglite: PGlite, backupsDir: string, at = new Date()): Promise<string> {
  mkdirSync(backupsDir, { recursive: true });
  const file = path.join(backupsDir, backupFileName(at));
  const dump = await pglite.dumpDataDir('gzip');
  const partial = `${file}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return file;
}

/** Opens a database folder just long enough to copy it (the shop is not running). */
export async function backupStoppedDatabase(dbDir: string, backupsDir: string): Promise<string> {
  if (!existsSync(path.join(dbDir, 'PG_VERSION'))) throw new Error(`No database in ${dbDir}`);
  const pglite = await createPglite({ dataDir: dbDir });
  try {
    return await writeEmbeddedBackup(pglite, backupsDir);
  } finally {
    await pglite.close();
  }
}

/**
 * Replaces the database folder with a backup's copy (the shop must be stopped). The copy is
 * opened and checked in a folder beside the database first; only then is the current folder
 * moved aside (kept, named after the time) and the copy put in its place.
 */
export async function restoreEmbeddedBackup(
  file: string,
  dbDir: string,
  at = new Date(),
): Promise<{ previous: string | null }> {
  if (!FILE_PATTERN.test(path.basename(file))) {
    throw new Error(`${path.basename(file)} is not a backup of this shop (stillwater-db-<time>.tar.gz)`);
  }
  const bytes = readFileSync(file);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) throw new Error(`${file} is not a gzip file`);
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  const staging = `${dbDir}.restoring-${stamp}`;
  rmSync(staging, { recursive: true, force: true });
  const pglite = await createPglite({ dataDir: staging, loadDataDir: new Blob([bytes]) });
  try {
    // The copy is a database of this shop: its migrations are recorded.
    await pglite.query('SELECT count(*) FROM drizzle.__drizzle_migrations');
  } catch (error) {
    await pglite.close();
    rmSync(staging, { recursive: true, force: true });
    throw new Error(`${file} does not hold a database of this shop (${(error as Error).message})`);
  }
  await pglite.close();
  let previous: string | null = null;
  if (existsSync(dbDir)) {
    previous = `${dbDir}.before-restore-${stamp}`;
    renameSync(dbDir, previous);
  }
  renameSync(staging, dbDir);
  return { previous };
}

/** The process id of the shop serving this data folder, when one is running. */
export function runningServer(dataDir: string): number | null {
  const file = path.join(dataDir, SERVER_PID_FILE);
  if (!existsSync(file)) return null;
  const pid = Number(readFileSync(file, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch {
    return null;
  }
}
