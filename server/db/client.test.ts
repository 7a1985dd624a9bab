import { afterEach, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from './client.ts';

describe('the embedded database as opened', () => {
  let database: Database | null = null;
  afterEach(async () => {
    await database?.close();
    database = null;
  });

  it("starts with search's word-similarity threshold, which pg_trgm keeps once loaded", async () => {
    database = await openDatabase({ kind: 'pglite', dir: null });
    const pglite = database.pglite;
    if (!pglite) throw new Error('expected the embedded database');
    const threshold = async () =>
      (await pglite.query<{ value: string }>(`SELECT current_setting('pg_trgm.word_similarity_threshold') AS value`))
        .rows[0]?.value;
    expect(await threshold()).toBe('0.45');

    await pglite.exec('CREATE EXTENSION IF NOT EXISTS pg_trgm');
    // A one-letter typo in a short word scores about 0.55: found at 0.45, missed at the default 0.6.
    const { rows } = await pglite.query<{ found: boolean }>(`SELECT 'fontain' <% 'desktop fountain' AS found`);
    expect(rows).toEqual([{ found: true }]);
    expect(await threshold()).toBe('0.45');
  });
});
