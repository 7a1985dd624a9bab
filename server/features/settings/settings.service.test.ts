import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { defaultSettings } from '#common/contracts/settings.ts';
import type { Database } from '#server/db/client.ts';
import { auditLog } from '#server/features/audit/audit.tables.ts';
import { createMigratedTestDatabase } from '#server/testing/test-database.ts';
import { createSecretBox, type SealedSecret } from './secret-box.ts';
import { createSettingsService, type SettingsSignal } from './settings.service.ts';
import { settings } from './settings.tables.ts';

const KEY_MATERIAL = 'settings-test-key-material-0123456789abcdef';
const OTHER_KEY_MATERIAL = 'another-secret-altogether-0123456789abcdef';
const STRIPE = {
  secret: 'sk_test_51SecretKeyForTheSettingsTest9xYz',
  publishable: 'pk_test_51PublicKeyForTheSettingsTest',
};
const AI_KEY = 'sk-proj-ai-key-for-the-settings-test-Qr7w';

let database: Database;
beforeAll(async () => {
  database = await createMigratedTestDatabase();
});
afterAll(() => database.close());

async function stored(key: string) {
  const [row] = await database.db.select().from(settings).where(eq(settings.key, key));
  return row?.value;
}

/** An in-memory stand-in of the cross-instance signal: a publish reaches every other subscriber. */
function memorySignal() {
  const listeners = new Set<() => void>();
  const port = (): SettingsSignal & { published: number } => {
    let mine: (() => void) | null = null;
    return {
      published: 0,
      publish() {
        this.published += 1;
        for (const listener of listeners) if (listener !== mine) listener();
      },
      subscribe(onChange) {
        mine = onChange;
        listeners.add(onChange);
        return () => listeners.delete(onChange);
      },
    };
  };
  return { port, listeners };
}

describe('the secret box (AES-256-GCM, key from HKDF-SHA256)', () => {
  const box = createSecretBox(KEY_MATERIAL);

  test('a value opens with the same key and name; each seal has its own 12-byte IV and a 16-byte tag', () => {
    const one = box.seal('aiApiKey', AI_KEY);
    const two = box.seal('aiApiKey', AI_KEY);
    expect(box.open('aiApiKey', one)).toBe(AI_KEY);
    expect(one.iv).not.toBe(two.iv);
    expect(one.data).not.toBe(two.data);
    expect(Buffer.from(one.iv, 'base64')).toHaveLength(12);
    expect(Buffer.from(one.tag, 'base64')).toHaveLength(16);
    expect(JSON.stringify(one)).not.toContain(AI_KEY);
    expect(Buffer.from(one.data, 'base64').toString('utf8')).not.toContain('ai-key');
  });

  test('another key, another setting’s name, an altered value, tag or IV, or a malformed value: not readable', () => {
    const sealed = box.seal('aiApiKey', AI_KEY);
    const flip = (base64: string) => {
      const bytes = Buffer.from(base64, 'base64');
      bytes[0] = (bytes[0] ?? 0) ^ 1;
      return bytes.toString('base64');
    };
    expect(createSecretBox(OTHER_KEY_MATERIAL).open('aiApiKey', sealed)).toBeNull();
    expect(box.open('stripeSecretKey', sealed)).toBeNull();
    expect(box.open('aiApiKey', { ...sealed, data: flip(sealed.data) })).toBeNull();
    expect(box.open('aiApiKey', { ...sealed, tag: flip(sealed.tag) })).toBeNull();
    expect(box.open('aiApiKey', { ...sealed, iv: flip(sealed.iv) })).toBeNull();
    // A tag cut short is refused, not checked on fewer bytes.
    expect(
      box.open('aiApiKey', { ...sealed, tag: Buffer.from(sealed.tag, 'base64').subarray(0, 4).toString('base64') }),
    ).toBeNull();
    for (const malformed of [null, 'plain text', 42, { ...sealed, v: 2 }, { iv: sealed.iv }]) {
      expect(box.open('aiApiKey', malformed)).toBeNull();
    }
  });

  test('refuses key material too short to derive a key from', () => {
    expect(() => createSecretBox('short')).toThrow(/32 characters/);
  });
});

describe('secret settings', () => {
  test('stored encrypted, read back in full only by the adapters’ getters, masked in the view and the audit', async () => {
    const service = createSettingsService({ db: database.db, keyMaterial: KEY_MATERIAL });
    const view = await service.update(
      {
        stripeSecretKey: STRIPE.secret,
        stripePublishableKey: STRIPE.publishable,
        aiApiKey: `  ${AI_KEY}  `,
        aliexpressApiKey: '501234',
      },
      { userId: 'owner-id', ip: '10.0.0.1' },
    );
    expect(view).toMatchObject({
      stripeSecretKey: '••••9xYz',
      stripePublishableKey: STRIPE.publishable,
      aiApiKey: '••••Qr7w',
      // Too short for its last 4 characters to be shown.
      aliexpressApiKey: '••••',
    });
    const sealed = (await stored('aiApiKey')) as SealedSecret;
    expect(Object.keys(sealed).sort()).toEqual(['data', 'iv', 'tag', 'v']);
    expect(JSON.stringify(sealed)).not.toContain(AI_KEY);
    // Trimmed before it is saved.
    expect(service.keys.aiApiKey()).toBe(AI_KEY);
    expect(service.keys.stripeKeys()).toEqual({ secretKey: STRIPE.secret, publishableKey: STRIPE.publishable });
    expect(service.keys.marketplaceApiKey()).toBe('501234');
    // Nothing of a secret in what the rest of the server reads as settings.
    expect(JSON.stringify(await service.get())).not.toMatch(/sk_test|sk-proj|501234/);

    const [record] = await database.db.select().from(auditLog).where(eq(auditLog.actorUserId, 'owner-id'));
    expect(record?.details).toEqual({
      before: { stripePublishableKey: null, stripeSecretKey: null, aiApiKey: null, aliexpressApiKey: null },
      after: {
        stripePublishableKey: STRIPE.publishable,
        stripeSecretKey: '••••9xYz',
        aiApiKey: '••••Qr7w',
        aliexpressApiKey: '••••',
      },
    });
    expect(JSON.stringify(record)).not.toMatch(/sk_test_51Secret|sk-proj|501234/);

    // The masks sent back keep the keys: nothing written, nothing audited.
    const again = await service.update(
      { stripeSecretKey: view.stripeSecretKey, aiApiKey: view.aiApiKey, aliexpressApiKey: '••••' },
      { userId: 'owner-id', ip: '10.0.0.1' },
    );
    expect(again).toEqual(view);
    expect(await stored('aiApiKey')).toEqual(sealed);
    expect(await database.db.select().from(auditLog).where(eq(auditLog.actorUserId, 'owner-id'))).toHaveLength(1);

    // A new key replaces it; '' and null remove them (the pair together).
    await service.update({ aiApiKey: `${AI_KEY}-rotated-9Zz1` });
    expect(service.keys.aiApiKey()).toBe(`${AI_KEY}-rotated-9Zz1`);
    const cleared = await service.update({
      aiApiKey: '',
      aliexpressApiKey: null,
      stripeSecretKey: null,
      stripePublishableKey: '',
    });
    expect(cleared).toMatchObject({
      aiApiKey: null,
      aliexpressApiKey: null,
      stripeSecretKey: null,
      stripePublishableKey: null,
    });
    expect(service.keys.aiApiKey()).toBeNull();
    expect(service.keys.stripeKeys()).toBeNull();
    expect(await stored('aiApiKey')).toBeUndefined();
    expect(await stored('stripePublishableKey')).toBeUndefined();
  });

  test.each([
    [{ stripeSecretKey: STRIPE.secret }, 'stripePublishableKey', /public key with the secret key/],
    [{ stripePublishableKey: STRIPE.publishable }, 'stripeSecretKey', /secret key with the public key/],
    [
      { stripeSecretKey: STRIPE.secret, stripePublishableKey: 'pk_live_51PublicKeyLiveMode' },
      'stripePublishableKey',
      /must be a test key/,
    ],
  ])('Stripe’s keys go as a pair of one mode: %j is refused, nothing saved', async (changes, field, message) => {
    const service = createSettingsService({ db: database.db, keyMaterial: KEY_MATERIAL });
    await expect(service.update(changes)).rejects.toMatchObject({
      statusCode: 400,
      field,
      message: expect.stringMatching(message),
    });
    expect(await stored('stripeSecretKey')).toBeUndefined();
    expect(await stored('stripePublishableKey')).toBeUndefined();
  });

  test('a secret that no longer decrypts (the key material changed) is not set, and said once without the value', async () => {
    const before = createSettingsService({ db: database.db, keyMaterial: KEY_MATERIAL });
    await before.update({ aiApiKey: AI_KEY });
    const lines: string[] = [];
    const after = createSettingsService({
      db: database.db,
      keyMaterial: OTHER_KEY_MATERIAL,
      log: (message) => lines.push(message),
    });
    await after.load();
    await after.load();
    expect(after.keys.aiApiKey()).toBeNull();
    expect((await after.adminView()).aiApiKey).toBeNull();
    expect(lines).toEqual([expect.stringMatching(/^The saved aiApiKey cannot be decrypted .* treated as not set/)]);
    expect(lines.join()).not.toContain(AI_KEY);
    // Saving it again under the new key makes it readable again.
    await after.update({ aiApiKey: AI_KEY });
    expect(after.keys.aiApiKey()).toBe(AI_KEY);
    await after.update({ aiApiKey: null });
  });
});

describe('a save takes effect on every instance at once', () => {
  test('two instances on one database: a save on one is read by the other on the next request', async () => {
    const signal = memorySignal();
    // An hour of cache: only the signal can explain the other instance seeing the change.
    const one = createSettingsService({
      db: database.db,
      keyMaterial: KEY_MATERIAL,
      maxAgeMs: 3_600_000,
      signal: signal.port(),
    });
    const twoPort = signal.port();
    const two = createSettingsService({
      db: database.db,
      keyMaterial: KEY_MATERIAL,
      maxAgeMs: 3_600_000,
      signal: twoPort,
    });
    await one.load();
    await two.load();
    expect(two.current()?.maintenanceMode).toBe(false);

    await one.update({ maintenanceMode: true, aiApiKey: AI_KEY });
    expect((await two.get()).maintenanceMode).toBe(true);
    await vi.waitFor(() => expect(two.current()?.maintenanceMode).toBe(true));
    expect(two.keys.aiApiKey()).toBe(AI_KEY);
    // The instance that saved did not hear its own signal back.
    expect(twoPort.published).toBe(0);

    await two.update({ maintenanceMode: false, aiApiKey: null });
    expect((await one.get()).maintenanceMode).toBe(false);
    expect(one.keys.aiApiKey()).toBeNull();

    one.close();
    two.close();
    expect(signal.listeners.size).toBe(0);
  });

  test('without a signal, the periodic refresh still brings another instance’s save', async () => {
    const one = createSettingsService({ db: database.db, keyMaterial: KEY_MATERIAL, maxAgeMs: 0 });
    const two = createSettingsService({ db: database.db, keyMaterial: KEY_MATERIAL, maxAgeMs: 0 });
    await two.load();
    await one.update({ siteName: 'Stillwater Periodic' });
    expect((await two.get()).siteName).toBe('Stillwater Periodic');
    await one.update({ siteName: defaultSettings.siteName });
  });

  test('a slow read started before a save never brings back the old value', async () => {
    const signal = memorySignal();
    const reader = createSettingsService({
      db: database.db,
      keyMaterial: KEY_MATERIAL,
      maxAgeMs: 3_600_000,
      signal: signal.port(),
    });
    const writer = createSettingsService({ db: database.db, keyMaterial: KEY_MATERIAL, signal: signal.port() });
    await reader.load();
    // A read in flight, then a save elsewhere; whichever finishes last, the reader ends on the save.
    const early = reader.load();
    await writer.update({ siteName: 'Stillwater Ordered' });
    await early;
    expect((await reader.get()).siteName).toBe('Stillwater Ordered');
    await vi.waitFor(() => expect(reader.current()?.siteName).toBe('Stillwater Ordered'));
    await writer.update({ siteName: defaultSettings.siteName });
    reader.close();
    writer.close();
  });
});
