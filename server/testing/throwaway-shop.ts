import path from 'node:path';
import { testMediaDir } from './test-environment.ts';

/**
 * The environment of a production server on a throwaway data folder, seeded with the demo shop,
 * as the browser tests and the benchmarks run it. Rendered demo images come from the tests' cache.
 */
export function throwawayShopEnv(dataDir: string, owner: { password: string }): Record<string, string | undefined> {
  return {
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: path.resolve(dataDir),
    UPLOADS_DIR: testMediaDir,
    SEED_DEMO_DATA: 'true',
    OWNER_EMAIL: 'owner@stillwater.test',
    OWNER_PASSWORD: owner.password,
    LOG_LEVEL: 'warn',
  };
}
