import { describe, expect, test } from 'vitest';
import { socialShopReturnMessage } from './social-shop-return.ts';

describe('socialShopReturnMessage (spec 8, social shop return)', () => {
  test.each([
    ['tiktok_error=no_auth_code', 'Authorization was cancelled or failed'],
    ['tiktok_error=connection_failed', 'Failed to connect to TikTok Shop. Please try again.'],
    ['tiktok_error=state_mismatch', 'TikTok Shop error: state_mismatch'],
  ])('%s', (query, text) => {
    expect(socialShopReturnMessage(new URLSearchParams(query))).toEqual({ kind: 'error', text });
  });

  test('success, and nothing without the parameters', () => {
    expect(socialShopReturnMessage(new URLSearchParams('tab=tiktok-shop&tiktok_success=1'))?.kind).toBe('success');
    expect(socialShopReturnMessage(new URLSearchParams('tab=users'))).toBeNull();
  });

  test('a long code from the address bar is cut', () => {
    const message = socialShopReturnMessage(new URLSearchParams(`tiktok_error=${'x'.repeat(500)}`));
    expect(message?.text.length).toBeLessThan(130);
  });
});
