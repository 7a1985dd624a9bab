import { afterAll, describe, expect, test } from 'vitest';
import { AdEventsApiError, createTikTokEventsApi } from './ad-events-api.ts';
import { startTikTokEventsStandIn } from './tiktok-events-stand-in.ts';

const accessToken = 'events-token-0123456789';
const pixelId = 'CSTANDIN0PIXEL00001';
const standIn = await startTikTokEventsStandIn({ accessToken, pixelId });
afterAll(() => standIn.close());
const api = createTikTokEventsApi({ pixelId, accessToken, apiBase: standIn.apiBase, timeoutMs: 2000 });
const data = {
  event: 'ViewContent',
  event_id: 'evt_0123456789',
  event_time: 1_700_000_000,
  user: { email: 'a'.repeat(64), ip: '203.0.113.9', user_agent: 'Mozilla/5.0' },
  properties: { currency: 'USD', value: 77.99 },
};

describe('the TikTok Events API adapter, over HTTP against the stand-in', () => {
  test('posts one data element with the token header, the pixel as event source and the test code', async () => {
    await api.send(data, { testEventCode: 'TEST74302' });
    const call = standIn.received.at(-1);
    expect(call?.headers['access-token']).toBe(accessToken);
    expect(call?.headers['content-type']).toBe('application/json');
    expect(call?.body).toEqual({
      event_source: 'web',
      event_source_id: pixelId,
      test_event_code: 'TEST74302',
      data: [data],
    });
    await api.send(data, { testEventCode: null });
    expect(standIn.received.at(-1)?.body).not.toHaveProperty('test_event_code');
  });

  test('a 5xx or 429 is a transient error; a refusal in the envelope is final', async () => {
    standIn.failNext({ status: 503 }, { status: 429 }, { code: 40002, message: 'Invalid parameters' });
    for (const transient of [true, true, false]) {
      const error = await api.send(data, { testEventCode: null }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(AdEventsApiError);
      expect((error as AdEventsApiError).transient).toBe(transient);
    }
  });

  test('a wrong token is refused; an unreachable API is transient; the token never shows in an error', async () => {
    const wrong = createTikTokEventsApi({ pixelId, accessToken: 'not-the-token', apiBase: standIn.apiBase });
    const refused = (await wrong.send(data, { testEventCode: null }).catch((e: unknown) => e)) as AdEventsApiError;
    expect(refused.transient).toBe(false);
    expect(refused.message).toContain('Access token is incorrect');
    const down = createTikTokEventsApi({ pixelId, accessToken, apiBase: 'http://127.0.0.1:9', timeoutMs: 1000 });
    const unreachable = (await down.send(data, { testEventCode: null }).catch((e: unknown) => e)) as AdEventsApiError;
    expect(unreachable.transient).toBe(true);
    expect(`${refused.message}${unreachable.message}`).not.toContain(accessToken);
  });
});
