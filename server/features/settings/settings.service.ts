import { SystemSettings as SettingsSchema, type SystemSettings } from '#common/contracts/settings.ts';
import type { Db } from '#server/db/client.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { settings } from './settings.tables.ts';

/**
 * Reads the system settings with their defaults. Reads are served from memory (the rate
 * limiter asks on every request) and refreshed after a write or after a short time, so an
 * edit made on another instance is seen within seconds.
 */
export function createSettingsService({ db, maxAgeMs = 5000 }: { db: Db; maxAgeMs?: number }) {
  let cached: { value: SystemSettings; at: number } | null = null;

  async function load(): Promise<SystemSettings> {
    const rows = await db.select({ key: settings.key, value: settings.value }).from(settings);
    const stored = Object.fromEntries(rows.map((row) => [row.key, row.value]));
    const parsed = SettingsSchema.safeParse(stored);
    // A stored value that no longer fits the schema falls back to the defaults, key by key.
    const value = parsed.success ? parsed.data : SettingsSchema.parse(withoutInvalidKeys(stored));
    cached = { value, at: Date.now() };
    return value;
  }

  async function get(): Promise<SystemSettings> {
    if (cached && Date.now() - cached.at < maxAgeMs) return cached.value;
    return load();
  }

  /** The last known settings without waiting; refreshes in the background when stale. */
  function current(): SystemSettings | null {
    if (cached && Date.now() - cached.at >= maxAgeMs) void load().catch(() => {});
    return cached?.value ?? null;
  }

  /**
   * Saves the changed settings; with an actor (the back office), the audit record of what changed
   * (before and after) is written in the same transaction.
   */
  async function update(
    changes: Partial<SystemSettings>,
    actor?: { userId: string; ip: string },
  ): Promise<SystemSettings> {
    const before = await load();
    const next = SettingsSchema.parse({ ...before, ...changes });
    const changed = (Object.keys(changes) as (keyof SystemSettings)[]).filter((key) => next[key] !== before[key]);
    await db.transaction(async (tx) => {
      for (const key of changed) {
        const value = next[key];
        await tx.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
      }
      if (actor && changed.length > 0) {
        await tx.insert(auditLog).values({
          actorUserId: actor.userId,
          action: 'settings.updated',
          entityType: 'settings',
          entityId: null,
          details: {
            before: Object.fromEntries(changed.map((key) => [key, before[key]])),
            after: Object.fromEntries(changed.map((key) => [key, next[key]])),
          },
          ip: actor.ip,
        });
      }
    });
    return load();
  }

  return { get, current, update, load };
}

function withoutInvalidKeys(stored: Record<string, unknown>): Record<string, unknown> {
  const shape = SettingsSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  return Object.fromEntries(Object.entries(stored).filter(([key, value]) => shape[key]?.safeParse(value).success));
}

export type SettingsService = ReturnType<typeof createSettingsService>;
