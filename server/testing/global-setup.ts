import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { createDiskObjectStorage } from '#server/adapters/storage/disk-object-storage.ts';
import { openDatabase } from '#server/db/client.ts';
import { migrateDatabase } from '#server/db/migrate.ts';
import { seedDemoContent } from '#server/db/seed.ts';
import { databaseUrl, postgresUrl, testMediaDir } from './test-environment.ts';

/** Migrates and seeds one database per run; each test file then starts from a copy of it. */
export default async function setup(project: TestProject) {
  const storage = createDiskObjectStorage(testMediaDir);
  const scratch = await mkdtemp(path.join(tmpdir(), 'stillwater-test-'));

  const seeded = await openDatabase({ kind: 'pglite', dir: null });
  await migrateDatabase(seeded);
  await seedDemoContent({ db: seeded.db, storage });
  const dump = path.join(scratch, 'seeded.tar');
  const pglite = seeded.pglite as NonNullable<typeof seeded.pglite>;
  await writeFile(dump, Buffer.from(await (await pglite.dumpDataDir('none')).arrayBuffer()));
  await seeded.close();
  project.provide('pgliteSeedDump', dump);

  let template: string | null = null;
  if (postgresUrl) {
    template = `sw_template_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${template}`);
    const database = await openDatabase({ kind: 'postgres', url: databaseUrl(template) });
    await migrateDatabase(database);
    await seedDemoContent({ db: database.db, storage });
    await database.close();
    await admin.end();
  }
  project.provide('postgresTemplate', template);

  return async () => {
    await rm(scratch, { recursive: true, force: true });
    if (template) {
      const admin = new pg.Client({ connectionString: postgresUrl ?? undefined });
      await admin.connect();
      await admin.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
      await admin.end();
    }
  };
}
