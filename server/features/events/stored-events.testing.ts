import { asc, sql } from 'drizzle-orm';
import type { Db } from '#server/db/client.ts';
import { liveEvents } from './events.tables.ts';

/**
 * The live events stored about one record (its data.id), oldest first, once at least `count` of
 * them are there: events are stored in the background after the write's answer. For the tests of
 * the features that publish them.
 */
export async function storedEventsAbout<Data = Record<string, unknown>>(
  db: Db,
  id: string,
  count: number,
  timeoutMs = 10_000,
) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await db
      .select({ type: liveEvents.type, collection: liveEvents.collection, data: liveEvents.data })
      .from(liveEvents)
      .where(sql`${liveEvents.data}->>'id' = ${id}`)
      .orderBy(asc(liveEvents.id));
    if (rows.length >= count) return rows as { type: string; collection: string; data: Data }[];
    if (Date.now() > deadline) throw new Error(`${rows.length} of ${count} live events about ${id} were stored`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
