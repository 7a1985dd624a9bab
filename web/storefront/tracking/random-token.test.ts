import { expect, test } from 'vitest';
import { AnalyticsSessionId } from '#common/contracts/analytics.ts';
import { trackAdEvent } from '#common/contracts/tracking.ts';
import { randomToken } from './random-token.ts';

test('a token is 22 URL-safe characters, accepted as a session id and as an event id, and never repeats', () => {
  const tokens = new Set(Array.from({ length: 1000 }, randomToken));
  expect(tokens.size).toBe(1000);
  for (const token of tokens) {
    expect(token).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(AnalyticsSessionId.safeParse(token).success).toBe(true);
    expect(trackAdEvent.body.shape.event_id.safeParse(token).success).toBe(true);
  }
});
