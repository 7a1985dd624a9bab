/**
 * `npm run restore -- <backup file>`: puts a backup made by `npm run backup` in the place of the
 * embedded database (the shop must be stopped). The current database folder is kept beside it
 * (db.before-restore-<time>) until you remove it.
 */
import { ConfigError, loadConfig } from '../server/config.ts';
import { restoreEmbeddedBackup, runningServer } from '../server/db/embedded-backup.ts';

const [file] = process.argv.slice(2);
if (!file) {
  process.stdout.write('Usage: npm run restore -- data/backups/stillwater-db-<time>.tar.gz\n');
  process.exit(1);
}

try {
  const config = loadConfig();
  if (config.database.kind !== 'pglite' || !config.database.dir) {
    process.stderr.write('DATABASE_URL is set: restore PostgreSQL with pg_restore or psql (see docs/operations.md).\n');
    process.exit(1);
  }
  const pid = runningServer(config.dataDir);
  if (pid) {
    process.stderr.write(
      `The shop is running (process ${pid}): stop it first, since the restore replaces its database.\n`,
    );
    process.exit(1);
  }
  const { previous } = await restoreEmbeddedBackup(file, config.database.dir);
  process.stdout.write(`Restored ${file}.${previous ? ` The database it replaced is kept in ${previous}.` : ''}\n`);
} catch (error) {
  process.stderr.write(`Restore failed: ${error instanceof ConfigError ? error.message : (error as Error).message}\n`);
  process.exit(1);
}
