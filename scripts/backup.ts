/**
 * `npm run backup`: a copy of the embedded database in DATA_DIR/backups (stillwater-db-<time>.tar.gz).
 * While the shop runs, the copy is the running shop's own (asked for with SIGUSR2: the database
 * is that process's alone); when it is stopped, the folder is opened and copied here. With
 * PostgreSQL (DATABASE_URL), use pg_dump (docs/operations.md).
 */
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../server/config.ts';
import { backupStoppedDatabase, runningServer } from '../server/db/embedded-backup.ts';

/** How long the running shop may take to write its copy (a large database, a busy machine). */
const WAIT_MS = 120_000;

function newestBackup(dir: string, after: number): string | null {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((name) => /^stillwater-db-.*\.tar\.gz$/.test(name));
  } catch {
    return null;
  }
  const fresh = names
    .map((name) => ({ name, at: statSync(path.join(dir, name)).mtimeMs }))
    .filter((file) => file.at >= after)
    .sort((a, b) => b.at - a.at);
  return fresh[0] ? path.join(dir, fresh[0].name) : null;
}

try {
  const config = loadConfig();
  if (config.database.kind !== 'pglite' || !config.database.dir) {
    process.stderr.write('DATABASE_URL is set: back PostgreSQL up with pg_dump (see docs/operations.md).\n');
    process.exit(1);
  }
  const backupsDir = path.join(config.dataDir, 'backups');
  const pid = runningServer(config.dataDir);
  let file: string | null;
  if (pid) {
    const asked = Date.now() - 1000;
    process.kill(pid, 'SIGUSR2');
    const until = Date.now() + WAIT_MS;
    file = newestBackup(backupsDir, asked);
    while (!file && Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      file = newestBackup(backupsDir, asked);
    }
    if (!file)
      throw new Error(`the running shop (process ${pid}) wrote no backup within ${WAIT_MS / 1000} s: see its log`);
  } else {
    file = await backupStoppedDatabase(config.database.dir, backupsDir);
  }
  process.stdout.write(`${file}\n`);
} catch (error) {
  process.stderr.write(`Backup failed: ${error instanceof ConfigError ? error.message : (error as Error).message}\n`);
  process.exit(1);
}
