import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/** A secret setting as stored (the settings table's jsonb value): AES-256-GCM, base64 parts. */
export type SealedSecret = { v: 1; iv: string; tag: string; data: string };

const IV_BYTES = 12;
const TAG_BYTES = 16;
// The key is derived for this one use, so the signing key it comes from is never used twice.
const HKDF_SALT = 'stillwater';
const HKDF_INFO = 'stillwater/settings-secrets/v1';

/**
 * Encrypts and decrypts the secret settings with AES-256-GCM under a key derived (HKDF-SHA256)
 * from the key material given: SESSION_SECRET, or the instance's generated secret. Each value has
 * its own random 12-byte IV; the setting's name is authenticated with it, so a stored value moved
 * to another setting does not decrypt.
 */
export function createSecretBox(keyMaterial: string) {
  if (keyMaterial.length < 32) throw new Error('the settings encryption needs at least 32 characters of key material');
  const key = Buffer.from(hkdfSync('sha256', keyMaterial, HKDF_SALT, HKDF_INFO, 32));

  function seal(name: string, plaintext: string): SealedSecret {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(name, 'utf8'));
    const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return {
      v: 1,
      iv: iv.toString('base64'),
      tag: cipher.getAuthTag().toString('base64'),
      data: data.toString('base64'),
    };
  }

  /** The plaintext, or null when the value is not ours to read (another key, altered, malformed). */
  function open(name: string, stored: unknown): string | null {
    if (!isSealed(stored)) return null;
    const iv = Buffer.from(stored.iv, 'base64');
    const tag = Buffer.from(stored.tag, 'base64');
    if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(name, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(Buffer.from(stored.data, 'base64')), decipher.final()]).toString('utf8');
    } catch {
      // final() throws when the tag does not match: a changed key or an altered value.
      return null;
    }
  }

  return { seal, open };
}

export type SecretBox = ReturnType<typeof createSecretBox>;

function isSealed(value: unknown): value is SealedSecret {
  const v = value as Partial<SealedSecret> | null;
  return (
    typeof v === 'object' &&
    v !== null &&
    v.v === 1 &&
    typeof v.iv === 'string' &&
    typeof v.tag === 'string' &&
    typeof v.data === 'string'
  );
}
