import { inArray } from 'drizzle-orm';
import {
  type AdminSettings,
  isMaskedSecret,
  maskSecret,
  type SecretSettingName,
  SettingsChanges,
  SystemSettings as SettingsSchema,
  type SystemSettings,
  secretSettingNames,
  stripeKeyMode,
} from '#common/contracts/settings.ts';
import type { SavedKeys } from '#server/adapters/adapters.ts';
import type { Db } from '#server/db/client.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { invalid } from '#server/http/errors.ts';
import { createSecretBox } from './secret-box.ts';
import { settings } from './settings.tables.ts';

/**
 * How the instances tell each other that the settings changed (the cross-instance signal is
 * connected in app.ts). A save publishes; a signal from another instance reloads at once.
 */
export type SettingsSignal = {
  publish(): void;
  /** Returns the function that stops listening. */
  subscribe(onChange: () => void): () => void;
};

type Secrets = Record<SecretSettingName, string | null>;
type Snapshot = { value: SystemSettings; secrets: Secrets; at: number };

const isSecretName = (key: string): key is SecretSettingName => (secretSettingNames as readonly string[]).includes(key);

/**
 * The system settings with their defaults, and the secret ones decrypted. Reads are served from
 * memory (the rate limiter asks on every request): a save reloads them here at once and, through
 * the signal, on every other instance; after `maxAgeMs` they are read again anyway, as a safety
 * net for a lost signal. `keyMaterial` (SESSION_SECRET or the instance secret) encrypts the secrets.
 */
export function createSettingsService({
  db,
  keyMaterial,
  maxAgeMs = 5000,
  signal,
  log = () => {},
}: {
  db: Db;
  keyMaterial: string;
  maxAgeMs?: number;
  signal?: SettingsSignal;
  /** Problems with stored values (a secret that no longer decrypts); never a value. */
  log?: (message: string, error?: unknown) => void;
}) {
  const box = createSecretBox(keyMaterial);
  let cached: Snapshot | null = null;
  // Loads are numbered: a slow load never replaces a newer one, and after a change only loads
  // started after it count as fresh.
  let issued = 0;
  let applied = 0;
  let freshFrom = 0;
  let inFlight: Promise<Snapshot> | null = null;
  // Each unreadable stored secret is reported once, not on every reload.
  const reported = new Set<string>();

  async function read(): Promise<Snapshot> {
    const ticket = ++issued;
    const rows = await db.select({ key: settings.key, value: settings.value }).from(settings);
    const stored: Record<string, unknown> = {};
    const secrets: Secrets = { stripeSecretKey: null, aliexpressApiKey: null, aiApiKey: null };
    for (const row of rows) {
      if (isSecretName(row.key)) secrets[row.key] = openSecret(row.key, row.value);
      else stored[row.key] = row.value;
    }
    const parsed = SettingsSchema.safeParse(stored);
    // A stored value that no longer fits the schema falls back to the defaults, key by key.
    const value = parsed.success ? parsed.data : SettingsSchema.parse(withoutInvalidKeys(stored));
    if (ticket > applied) {
      applied = ticket;
      cached = { value, secrets, at: Date.now() };
    }
    return cached ?? { value, secrets, at: Date.now() };
  }

  function openSecret(name: SecretSettingName, stored: unknown): string | null {
    const plaintext = box.open(name, stored);
    if (plaintext !== null) return plaintext;
    const id = `${name}:${JSON.stringify(stored)}`;
    if (!reported.has(id)) {
      reported.add(id);
      log(
        `The saved ${name} cannot be decrypted (SESSION_SECRET or the instance secret changed?): it is treated as not set until it is saved again`,
      );
    }
    return null;
  }

  /** A new load, which will replace what is cached unless a newer one finishes first. */
  function refresh(): Promise<Snapshot> {
    const started = read().finally(() => {
      if (inFlight === started) inFlight = null;
    });
    inFlight = started;
    return started;
  }

  /** What is cached no longer counts; the load started now does. */
  function invalidate(): Promise<Snapshot> {
    freshFrom = issued + 1;
    return refresh();
  }

  const isFresh = (): boolean => cached !== null && applied >= freshFrom && Date.now() - cached.at < maxAgeMs;

  async function snapshot(): Promise<Snapshot> {
    if (cached && isFresh()) return cached;
    return inFlight ?? refresh();
  }

  /** The cached snapshot without waiting; a stale one is refreshed in the background. */
  function cachedSnapshot(): Snapshot | null {
    if (!isFresh() && !inFlight) refresh().catch((error) => log('reading the settings failed', error));
    return cached;
  }

  const unsubscribe = signal?.subscribe(() => {
    invalidate().catch((error) => log('reading the settings failed', error));
  });

  /** The settings, read fresh from the database (the back office: another instance may have saved a moment ago). */
  async function load(): Promise<SystemSettings> {
    return (await refresh()).value;
  }

  async function get(): Promise<SystemSettings> {
    return (await snapshot()).value;
  }

  /** The last known settings without waiting; refreshes in the background when stale. */
  function current(): SystemSettings | null {
    return cachedSnapshot()?.value ?? null;
  }

  /** A saved secret in full, for the adapter that uses it (never for an answer or a log). */
  function secret(name: SecretSettingName): string | null {
    return cachedSnapshot()?.secrets[name] ?? null;
  }

  const keys: SavedKeys = {
    aiApiKey: () => secret('aiApiKey'),
    marketplaceApiKey: () => secret('aliexpressApiKey'),
    stripeKeys() {
      const now = cachedSnapshot();
      const secretKey = now?.secrets.stripeSecretKey ?? null;
      const publishableKey = now?.value.stripePublishableKey ?? null;
      return secretKey && publishableKey ? { secretKey, publishableKey } : null;
    },
  };

  /** The settings tab's view: every setting, and each secret masked. */
  async function adminView(): Promise<AdminSettings> {
    return toAdminView(await refresh());
  }

  /**
   * Saves the changed settings and secrets; with an actor (the back office), the audit record of
   * what changed (before and after, secrets masked) is written in the same transaction. Takes
   * effect here at once and, through the signal, on the other instances.
   */
  async function update(changes: SettingsChanges, actor?: { userId: string; ip: string }): Promise<AdminSettings> {
    // Checked here too (the route already did): trimmed keys, whoever calls.
    const checked = SettingsChanges.parse(changes);
    const before = await refresh();
    const plain: Record<string, unknown> = {};
    const nextSecrets: Secrets = { ...before.secrets };
    for (const [key, given] of Object.entries(checked)) {
      if (given === undefined) continue;
      if (!isSecretName(key)) {
        // '' removes the publishable key, as it does a secret.
        plain[key] = key === 'stripePublishableKey' && given === '' ? null : given;
        continue;
      }
      const value = given as string | null;
      // The mask sent back as it was shown keeps the saved key.
      if (value !== null && isMaskedSecret(value)) continue;
      nextSecrets[key] = value === null || value === '' ? null : value;
    }
    const next = SettingsSchema.parse({ ...before.value, ...plain });
    const changed = (Object.keys(plain) as (keyof SystemSettings)[]).filter((key) => next[key] !== before.value[key]);
    const changedSecrets = secretSettingNames.filter((name) => nextSecrets[name] !== before.secrets[name]);
    if (changed.includes('stripePublishableKey') || changedSecrets.includes('stripeSecretKey')) {
      checkStripePair(nextSecrets.stripeSecretKey, next.stripePublishableKey);
    }
    if (changed.length === 0 && changedSecrets.length === 0) return toAdminView(before);

    await db.transaction(async (tx) => {
      const removed: string[] = [];
      for (const key of changed) {
        const value = next[key];
        if (value === null) removed.push(key);
        else
          await tx.insert(settings).values({ key, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
      }
      for (const name of changedSecrets) {
        const plaintext = nextSecrets[name];
        if (plaintext === null) {
          removed.push(name);
          continue;
        }
        const value = box.seal(name, plaintext);
        await tx
          .insert(settings)
          .values({ key: name, value })
          .onConflictDoUpdate({ target: settings.key, set: { value } });
      }
      if (removed.length > 0) await tx.delete(settings).where(inArray(settings.key, removed));
      if (actor) {
        await tx.insert(auditLog).values({
          actorUserId: actor.userId,
          action: 'settings.updated',
          entityType: 'settings',
          entityId: null,
          details: {
            before: {
              ...Object.fromEntries(changed.map((key) => [key, before.value[key]])),
              ...Object.fromEntries(changedSecrets.map((name) => [name, maskSecret(before.secrets[name])])),
            },
            after: {
              ...Object.fromEntries(changed.map((key) => [key, next[key]])),
              ...Object.fromEntries(changedSecrets.map((name) => [name, maskSecret(nextSecrets[name])])),
            },
          },
          ip: actor.ip,
        });
      }
    });
    const saved = await invalidate();
    signal?.publish();
    return toAdminView(saved);
  }

  /** Stops listening to the other instances. */
  function close() {
    unsubscribe?.();
  }

  return { get, current, load, update, adminView, secret, keys, close };
}

function toAdminView({ value, secrets }: Snapshot): AdminSettings {
  return {
    ...value,
    stripeSecretKey: maskSecret(secrets.stripeSecretKey),
    aliexpressApiKey: maskSecret(secrets.aliexpressApiKey),
    aiApiKey: maskSecret(secrets.aiApiKey),
  };
}

/** Stripe's two keys go together, from the same mode: one without the other cannot take a payment. */
function checkStripePair(secretKey: string | null, publishableKey: string | null) {
  if (secretKey && !publishableKey) {
    throw invalid('stripePublishableKey', 'Set the card-payment public key with the secret key');
  }
  if (publishableKey && !secretKey) {
    throw invalid('stripeSecretKey', 'Set the card-payment secret key with the public key');
  }
  if (secretKey && publishableKey && stripeKeyMode(secretKey) !== stripeKeyMode(publishableKey)) {
    throw invalid(
      'stripePublishableKey',
      `The card-payment public key must be a ${stripeKeyMode(secretKey)} key, as the secret key is`,
    );
  }
}

function withoutInvalidKeys(stored: Record<string, unknown>): Record<string, unknown> {
  const shape = SettingsSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  return Object.fromEntries(Object.entries(stored).filter(([key, value]) => shape[key]?.safeParse(value).success));
}

export type SettingsService = ReturnType<typeof createSettingsService>;
