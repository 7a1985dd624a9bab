import { createHmac } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { sameText, signRequest, verifyWebhookSignature, webhookSignature } from './tiktok-shop-signing.ts';

const appSecret = 'e59af819cc';
const hmac = (text: string) => createHmac('sha256', appSecret).update(text, 'utf8').digest('hex');

describe('signRequest', () => {
  test('follows the recipe: secret + path + sorted key/value pairs + body + secret, HMAC-SHA256 hex', () => {
    const body = '{"address":"https://partner.tiktokshop.com","event_type":"PACKAGE_UPDATE"}';
    const sign = signRequest({
      appSecret,
      path: '/event/202309/webhooks',
      query: { timestamp: 1696909648, shop_cipher: 'ROW_xkMbgAAAeVAQra0eZWebFQq5aIK', app_key: '68xu9ks5p4i8' },
      body,
    });
    const expected = hmac(
      `${appSecret}/event/202309/webhooks` +
        'app_key68xu9ks5p4i8shop_cipherROW_xkMbgAAAeVAQra0eZWebFQq5aIKtimestamp1696909648' +
        body +
        appSecret,
    );
    expect(sign).toBe(expected);
    expect(sign).toMatch(/^[0-9a-f]{64}$/);
  });

  test('a fixed vector, so that a change to the recipe shows', () => {
    expect(
      signRequest({
        appSecret: 'secret',
        path: '/authorization/202309/shops',
        query: { app_key: 'key', timestamp: '1700000000' },
        body: null,
      }),
    ).toBe(
      createHmac('sha256', 'secret')
        .update('secret/authorization/202309/shopsapp_keykeytimestamp1700000000secret')
        .digest('hex'),
    );
  });

  test('key order of the query does not matter; keys sort by code unit (upper case before lower)', () => {
    const a = signRequest({ appSecret, path: '/p', query: { b: '2', a: '1', Z: '0' }, body: null });
    const b = signRequest({ appSecret, path: '/p', query: { Z: '0', a: '1', b: '2' }, body: null });
    expect(a).toBe(b);
    expect(a).toBe(hmac(`${appSecret}/pZ0a1b2${appSecret}`));
  });

  test('leaves out sign, access_token and empty values', () => {
    const plain = signRequest({ appSecret, path: '/p', query: { app_key: 'k' }, body: null });
    const noisy = signRequest({
      appSecret,
      path: '/p',
      query: { app_key: 'k', sign: 'abc', access_token: 'tok', page_token: '', cursor: undefined, other: null },
      body: null,
    });
    expect(noisy).toBe(plain);
  });

  test('the body is signed as given, byte for byte, and only when given', () => {
    const query = { app_key: 'k', timestamp: 1 };
    const compact = signRequest({ appSecret, path: '/p', query, body: '{"a":1,"b":2}' });
    const reordered = signRequest({ appSecret, path: '/p', query, body: '{"b":2,"a":1}' });
    const none = signRequest({ appSecret, path: '/p', query, body: null });
    expect(compact).not.toBe(reordered);
    expect(compact).not.toBe(none);
    expect(none).toBe(hmac(`${appSecret}/papp_keyktimestamp1${appSecret}`));
  });
});

describe('webhook signature', () => {
  const rawBody = '{"type":1,"tts_notification_id":"7327","shop_id":"7494","timestamp":1700000000,"data":{}}';

  test('is hex HMAC-SHA256 keyed with the app secret over app key + raw body', () => {
    expect(webhookSignature('appkey', appSecret, rawBody)).toBe(hmac(`appkey${rawBody}`));
  });

  test('verifies the right header and refuses a wrong, short, empty or tampered one', () => {
    const good = webhookSignature('appkey', appSecret, rawBody);
    expect(verifyWebhookSignature('appkey', appSecret, rawBody, good)).toBe(true);
    expect(verifyWebhookSignature('appkey', appSecret, rawBody, good.toUpperCase())).toBe(true);
    const flipped = good.slice(0, -1) + (good.endsWith('0') ? '1' : '0');
    expect(verifyWebhookSignature('appkey', appSecret, rawBody, flipped)).toBe(false);
    expect(verifyWebhookSignature('appkey', appSecret, rawBody, good.slice(0, 10))).toBe(false);
    expect(verifyWebhookSignature('appkey', appSecret, rawBody, '')).toBe(false);
    expect(verifyWebhookSignature('appkey', appSecret, rawBody, undefined)).toBe(false);
    expect(verifyWebhookSignature('appkey', appSecret, rawBody.replace('7494', '7495'), good)).toBe(false);
    expect(verifyWebhookSignature('other', appSecret, rawBody, good)).toBe(false);
  });

  test('sameText compares texts of any length', () => {
    expect(sameText('abc', 'abc')).toBe(true);
    expect(sameText('abc', 'abcd')).toBe(false);
    expect(sameText('é', 'e')).toBe(false);
  });
});
