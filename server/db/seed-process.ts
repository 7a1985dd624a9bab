/**
 * The first start's demo seed, in a process of its own (server/main.ts runs it on an empty,
 * migrated database): drawing the pictures (sharp's threads) and the seed's one big transaction
 * leave a few hundred MB of native memory in malloc's arenas, never handed back. Here it goes
 * with the process; the shop starts serving without it (docs/performance.md, "Memory").
 */
import { createStorage } from '#server/adapters/adapters.ts';
import { loadConfig } from '#server/config.ts';
import { openDatabase } from './client.ts';
import { seedDemoContent } from './seed.ts';

const config = loadConfig();
const database = await openDatabase(config.database);
try {
  await seedDemoContent({ db: database.db, storage: createStorage(config) });
} finally {
  await database.close();
}
