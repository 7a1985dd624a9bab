import { createHmac, timingSafeEqual } from 'node:crypto';

/*
 * TikTok Shop's request and webhook signatures (shared/integrations.md 3.3 and 3.5), as pure
 * functions: the client signs with them, the sandbox stand-in checks with them.
 */

/** Query parameters left out of the signed text. */
const UNSIGNED_PARAMETERS = new Set(['sign', 'access_token']);

export type SignableRequest = {
  appSecret: string;
  /** The API path without host or query, e.g. /product/202309/products. */
  path: string;
  query: Readonly<Record<string, string | number | null | undefined>>;
  /**
   * The body exactly as sent; null for GET and multipart requests, whose bodies are not signed
   * (the caller decides, since only it knows what it sends).
   */
  body: string | null;
};

/**
 * The request's `sign`: app_secret + path + every query parameter but `sign` and `access_token`
 * with a value, sorted by key in code-unit order and written key+value without separators, + the
 * raw body (JSON calls only) + app_secret, as HMAC-SHA256 keyed with the app secret, lower-case hex.
 */
export function signRequest({ appSecret, path, query, body }: SignableRequest): string {
  const keys = Object.keys(query)
    .filter((key) => !UNSIGNED_PARAMETERS.has(key) && query[key] !== undefined && query[key] !== null)
    .filter((key) => String(query[key]) !== '')
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  let text = appSecret + path;
  for (const key of keys) text += key + String(query[key]);
  if (body !== null) text += body;
  text += appSecret;
  return createHmac('sha256', appSecret).update(text, 'utf8').digest('hex');
}

/** The `Authorization` header TikTok puts on a webhook: hex HMAC-SHA256(app_secret, app_key + raw body). */
export function webhookSignature(appKey: string, appSecret: string, rawBody: string): string {
  return createHmac('sha256', appSecret)
    .update(appKey + rawBody, 'utf8')
    .digest('hex');
}

/** Whether `authorization` is the webhook's signature, compared in constant time (any length is safe). */
export function verifyWebhookSignature(
  appKey: string,
  appSecret: string,
  rawBody: string,
  authorization: string | null | undefined,
): boolean {
  if (!authorization) return false;
  return sameText(authorization.trim().toLowerCase(), webhookSignature(appKey, appSecret, rawBody));
}

/** Equality of two texts in time independent of where they differ; a length mismatch is simply false. */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}
