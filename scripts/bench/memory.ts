/**
 * The shop's resident memory on PostgreSQL (the `memory-pg` section): the demo shop seeded into
 * a database of the benchmark's own (created, then dropped), the API load run against it as in
 * the `api` section, then its VmRSS at rest.
 */
import { browserHeaders, type LoadSettings, measureLoad } from './load.ts';
import { onServer, postgresServerUrl, withDatabase } from './postgres-shop.ts';
import { steadyRssReported } from './processes.ts';
import { assertShopRunning, startShop, stopShop } from './shop.ts';

const database = 'sw_bench_mem';

export async function measurePostgresMemory(
  endpoints: { name: string; path: string }[],
  load: LoadSettings,
): Promise<number> {
  await onServer(postgresServerUrl, async (client) => {
    await client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await client.query(`CREATE DATABASE ${database}`);
  });
  try {
    const shop = await startShop({ databaseUrl: withDatabase(postgresServerUrl, database) });
    try {
      const pid = shop.process.pid;
      if (pid === undefined) throw new Error('the shop has no process id');
      for (const endpoint of endpoints) {
        assertShopRunning(shop);
        const measured = await measureLoad(
          `${endpoint.name} (PostgreSQL)`,
          new URL(endpoint.path, shop.url).href,
          load,
          { headers: browserHeaders },
          pid,
        );
        const failed = measured.non2xx + measured.errors + measured.timeouts;
        if (failed > 0) throw new Error(`${endpoint.name}: ${failed} of ${measured.requests} requests failed`);
      }
      assertShopRunning(shop);
      return await steadyRssReported(pid, 'the shop on PostgreSQL after the load');
    } finally {
      await stopShop(shop);
    }
  } finally {
    await onServer(postgresServerUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`));
  }
}
