import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, test } from 'vitest';
import { commandEnv } from '#server/testing/test-environment.ts';
import { openDatabase } from './client.ts';
import {
  backupFileName,
  backupStoppedDatabase,
  restoreEmbeddedBackup,
  runningServer,
  SERVER_PID_FILE,
  writeEmbeddedBackup,
} from './embedded-backup.ts';
import { migrateDatabase } from './migrate.ts';

const run = promisify(execFile);
const root = mkdtempSync(path.join(tmpdir(), 'stillwater-backup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const scripts = path.resolve(import.meta.dirname, '../../scripts');

/** A migrated embedded database in a folder of its own, with a table of numbered rows. */
async function shopDatabase(name: string) {
  const dir = path.join(root, name, 'db');
  const database = await openDatabase({ kind: 'pglite', dir });
  await migrateDatabase(database);
  await database.pglite?.exec('CREATE TABLE backup_probe (n integer PRIMARY KEY)');
  return { dir, database, dataDir: path.join(root, name) };
}

async function probeCount(dir: string): Promise<number> {
  const database = await openDatabase({ kind: 'pglite', dir });
  try {
    const result = await database.pglite?.query<{ n: number }>('SELECT count(*)::int AS n FROM backup_probe');
    return result?.rows[0]?.n ?? -1;
  } finally {
    await database.close();
  }
}

// Each copy and restore migrates and reopens a database: seconds alone, far more on a loaded machine.
describe('embedded database backups', { timeout: 60_000 }, () => {
  test('a copy taken while writes go on holds every write acknowledged before it, and restores', async () => {
    const { dir, database, dataDir } = await shopDatabase('busy');
    const pglite = database.pglite;
    if (!pglite) throw new Error('not embedded');
    for (let n = 1; n <= 100; n++) await pglite.query('INSERT INTO backup_probe VALUES ($1)', [n]);
    // Writes keep coming while the copy is taken.
    let next = 101;
    let writing = true;
    const writer = (async () => {
      while (writing) await pglite.query('INSERT INTO backup_probe VALUES ($1)', [next++]);
    })();
    const file = await writeEmbeddedBackup(pglite, path.join(dataDir, 'backups'));
    const acknowledgedAfter = next - 1;
    writing = false;
    await writer;
    await database.close();
    expect(path.basename(file)).toMatch(/^stillwater-db-\d{8}T\d{6}Z\.tar\.gz$/);
    expect(readdirSync(path.dirname(file)).filter((name) => name.endsWith('.partial'))).toEqual([]);

    const { previous } = await restoreEmbeddedBackup(file, dir);
    expect(previous && existsSync(previous)).toBe(true);
    const restored = await probeCount(dir);
    // Every row written before the copy began is in it; none after it finished.
    expect(restored).toBeGreaterThanOrEqual(100);
    expect(restored).toBeLessThanOrEqual(acknowledgedAfter);
    // The database it replaced is kept whole beside it.
    expect(await probeCount(previous ?? '')).toBe(next - 1);
  });

  test('a restore refuses what is not a backup of this shop, and changes nothing', async () => {
    const { dir, database, dataDir } = await shopDatabase('refusals');
    await database.pglite?.query('INSERT INTO backup_probe VALUES (1)');
    await database.close();
    const other = path.join(dataDir, 'notes.tar.gz');
    writeFileSync(other, 'hello');
    await expect(restoreEmbeddedBackup(other, dir)).rejects.toThrow('is not a backup of this shop');
    const notGzip = path.join(dataDir, backupFileName(new Date()));
    writeFileSync(notGzip, 'plain text, not a database');
    await expect(restoreEmbeddedBackup(notGzip, dir)).rejects.toThrow('is not a gzip file');
    expect(await probeCount(dir)).toBe(1);
    expect(readdirSync(dataDir).filter((name) => name.includes('restoring'))).toEqual([]);
  });

  test('the running shop is found by the process id in its data folder', async () => {
    const dataDir = mkdtempSync(path.join(root, 'pid-'));
    expect(runningServer(dataDir)).toBeNull();
    writeFileSync(path.join(dataDir, SERVER_PID_FILE), `${process.pid}\n`);
    expect(runningServer(dataDir)).toBe(process.pid);
    // A process that is gone (its file left by a crash) is not running.
    writeFileSync(path.join(dataDir, SERVER_PID_FILE), '2147483646\n');
    expect(runningServer(dataDir)).toBeNull();
  });
});

// Each test starts Node processes that open the database: seconds alone, far more on a loaded CI machine.
describe('npm run backup and npm run restore', { timeout: 90_000 }, () => {
  const node = process.execPath;

  test('with the shop stopped: the folder is copied, then restored; a running shop refuses the restore', async () => {
    const { dir, database, dataDir } = await shopDatabase('stopped');
    await database.pglite?.query('INSERT INTO backup_probe VALUES (1), (2), (3)');
    await database.close();
    const env = commandEnv({ DATA_DIR: dataDir, NODE_ENV: 'test', DATABASE_URL: undefined });
    const backup = await run(node, [path.join(scripts, 'backup.ts')], { env });
    const file = backup.stdout.trim();
    expect(path.dirname(file)).toBe(path.join(dataDir, 'backups'));

    const restore = await run(node, [path.join(scripts, 'restore.ts'), file], { env });
    expect(restore.stdout).toContain(`Restored ${file}. The database it replaced is kept in ${dir}.before-restore-`);
    expect(await probeCount(dir)).toBe(3);

    writeFileSync(path.join(dataDir, SERVER_PID_FILE), `${process.pid}\n`);
    const refused = await run(node, [path.join(scripts, 'restore.ts'), file], { env }).catch((error) => error);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('The shop is running');
  });

  test('with the shop running: the shop writes the copy itself when asked', async () => {
    const { dir, database, dataDir } = await shopDatabase('running');
    await database.pglite?.query('INSERT INTO backup_probe VALUES (7)');
    await database.close();
    // A process serving the folder as main.ts does: the database open, its id in the folder, SIGUSR2 answered.
    const server = spawn(
      node,
      [
        '--input-type=module',
        '-e',
        `import { openDatabase } from ${JSON.stringify(path.resolve(import.meta.dirname, 'client.ts'))};
         import { writeEmbeddedBackup } from ${JSON.stringify(path.resolve(import.meta.dirname, 'embedded-backup.ts'))};
         import { writeFileSync } from 'node:fs';
         const database = await openDatabase({ kind: 'pglite', dir: ${JSON.stringify(dir)} });
         process.on('SIGUSR2', () => void writeEmbeddedBackup(database.pglite, ${JSON.stringify(path.join(dataDir, 'backups'))}));
         writeFileSync(${JSON.stringify(path.join(dataDir, SERVER_PID_FILE))}, String(process.pid));
         process.stdout.write('ready\\n');
         setInterval(() => {}, 1000);`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve) => server.stdout.on('data', () => resolve()));
      const env = commandEnv({ DATA_DIR: dataDir, NODE_ENV: 'test', DATABASE_URL: undefined });
      const backup = await run(node, [path.join(scripts, 'backup.ts')], { env });
      const file = backup.stdout.trim();
      expect(path.basename(file)).toMatch(/^stillwater-db-/);
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
      await restoreEmbeddedBackup(file, dir);
      expect(await probeCount(dir)).toBe(1);
    } finally {
      server.kill('SIGKILL');
    }
  });

  test('a stopped database folder that holds nothing is said so', async () => {
    await expect(backupStoppedDatabase(path.join(root, 'nowhere'), path.join(root, 'nowhere-backups'))).rejects.toThrow(
      'No database in',
    );
  });
});
