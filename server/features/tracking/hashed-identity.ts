import { createHash } from 'node:crypto';

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const isHashed = (value: string) => /^[0-9a-f]{64}$/.test(value);

/**
 * The ad service matches visitors by SHA-256 of normalised values (integrations 4.1): email
 * trimmed and lowercased, phone as its digits with a leading +, external id trimmed. Values the
 * browser hashed already are kept as they are.
 */
export function hashedIdentity(user: { email?: string; phone?: string; external_id?: string }) {
  const hashed: Record<string, string> = {};
  const put = (key: string, raw: string | undefined, normalise: (value: string) => string) => {
    const value = raw?.trim();
    if (!value) return;
    const lower = value.toLowerCase();
    if (isHashed(lower)) hashed[key] = lower;
    else {
      const normalised = normalise(value);
      if (normalised) hashed[key] = sha256(normalised);
    }
  };
  put('email', user.email, (value) => value.toLowerCase());
  put('phone', user.phone, (value) => {
    const digits = value.replace(/\D/g, '');
    return digits ? `+${digits}` : '';
  });
  put('external_id', user.external_id, (value) => value);
  return hashed;
}
