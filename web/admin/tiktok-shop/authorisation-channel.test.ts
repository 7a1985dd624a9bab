import { afterEach, describe, expect, test, vi } from 'vitest';
import { type AuthorisationResult, awaitAuthorisation, handBackAuthorisation } from './authorisation-channel.ts';

// Node has BroadcastChannel: the popup's side and the waiting tab's side talk as in a browser.
const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
  vi.useRealTimers();
});

const waitFor = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { timeout: 2000 });

describe('handing the authorisation back from the popup', () => {
  test('the waiting tab gets the spec’s message and the popup closes', async () => {
    const results: AuthorisationResult[] = [];
    stops.push(awaitAuthorisation((result) => results.push(result)));
    const close = vi.fn();
    handBackAuthorisation(new URLSearchParams('tab=tiktok-shop&tiktok_error=no_auth_code'), { close });
    await waitFor(() => close.mock.calls.length === 1);
    expect(results).toEqual([{ kind: 'error', text: 'Authorization was cancelled or failed' }]);
  });

  test('a success is handed over as a success', async () => {
    const results: AuthorisationResult[] = [];
    stops.push(awaitAuthorisation((result) => results.push(result)));
    const close = vi.fn();
    handBackAuthorisation(new URLSearchParams('tab=tiktok-shop&tiktok_success=1'), { close });
    await waitFor(() => close.mock.calls.length === 1);
    expect(results).toEqual([{ kind: 'success', text: 'TikTok Shop connected successfully' }]);
  });

  test('with no tab waiting, the popup stays open (it shows the result itself)', async () => {
    const close = vi.fn();
    handBackAuthorisation(new URLSearchParams('tiktok_success=1'), { close });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(close).not.toHaveBeenCalled();
  });

  test('a page without a return parameter announces nothing', () => {
    const open = vi.fn(() => null);
    handBackAuthorisation(new URLSearchParams('tab=tiktok-shop'), { open });
    expect(open).not.toHaveBeenCalled();
  });

  test('the waiting tab ignores messages that are not a result and only the return parameters travel', async () => {
    const results: AuthorisationResult[] = [];
    stops.push(awaitAuthorisation((result) => results.push(result)));
    const sender = new BroadcastChannel('stillwater.tiktok-shop-authorisation');
    const seen: unknown[] = [];
    sender.onmessage = (event) => seen.push(event.data);
    sender.postMessage('tiktok_success=1');
    sender.postMessage({ type: 'authorisation-result', id: 7, query: 'tiktok_success=1' });
    sender.postMessage({ type: 'authorisation-result', id: 'a', query: 'tab=tiktok-shop' });
    sender.postMessage({ type: 'authorisation-result', id: 'b', query: 'tiktok_error=connection_failed' });
    await waitFor(() => results.length === 1);
    expect(results).toEqual([{ kind: 'error', text: 'Failed to connect to TikTok Shop. Please try again.' }]);
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual([{ type: 'authorisation-received', id: 'b' }]);
    sender.close();
  });
});
