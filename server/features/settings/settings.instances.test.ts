import { afterAll, describe, expect, test } from 'vitest';
import { openDatabase } from '#server/db/client.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { postgresUrl } from '#server/testing/test-environment.ts';

/**
 * Issue 11: a settings save takes effect on every instance at once, not after the periodic
 * refresh: the saving instance signals the others (app.ts wires the settings to the live events'
 * internal signal, LISTEN/NOTIFY here).
 */
describe.skipIf(!postgresUrl)('two instances on one PostgreSQL database', () => {
  const closing: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const close of closing.reverse()) await close();
  });

  test('closing registration on one instance closes it on the other within a second', async () => {
    const first = await buildTestApp();
    closing.push(() => first.app.close());
    const url = first.database.pool?.options.connectionString;
    if (!url) throw new Error('not a PostgreSQL database');
    const secondDatabase = await openDatabase({ kind: 'postgres', url });
    const second = await buildTestApp({ database: secondDatabase });
    closing.push(
      () => secondDatabase.close(),
      () => second.app.close(),
    );

    let counter = 0;
    const registration = () => {
      counter += 1;
      const name = `${Date.now().toString(36)}${counter}`;
      return testClient(second.app, { remoteAddress: `10.91.0.${counter}` }).post('/api/auth/register', {
        username: `calm_${name}`,
        email: `calm.${name}@example.com`,
        password: 'Quiet-Water-42',
      });
    };
    expect((await registration()).statusCode).toBe(201);

    const { browser } = await signedInAs(first.app, first.database.db, 'owner');
    expect((await browser.post('/api/admin/settings', { allowRegistration: false })).statusCode).toBe(200);
    // The periodic refresh is 5 s: within one second, only the signal can have told the other.
    await expect.poll(async () => (await registration()).statusCode, { timeout: 1000, interval: 50 }).toBe(403);

    expect((await browser.post('/api/admin/settings', { allowRegistration: true })).statusCode).toBe(200);
    await expect.poll(async () => (await registration()).statusCode, { timeout: 1000, interval: 50 }).toBe(201);
  });
});
