import { describe, expect, test } from 'vitest';
import { defaultAdminSettings } from '#common/contracts/settings.ts';
import { readRateLimit, toChanges, toForm } from './settings-form.ts';

const loaded = { ...defaultAdminSettings, aiApiKey: '••••abcd' };

describe('the settings form', () => {
  test('unchanged, it saves nothing', () => {
    expect(toChanges(toForm(loaded), loaded)).toEqual({ changes: {}, errors: null });
  });

  test('sends only what changed, in cents and basis points', () => {
    const form = {
      ...toForm(loaded),
      siteName: '  Stillwater Home ',
      maintenanceMode: true,
      shippingRate: '5.5',
      processingFee: '2.9',
      generalRateLimit: '200',
    };
    expect(toChanges(form, loaded)).toEqual({
      changes: {
        siteName: 'Stillwater Home',
        maintenanceMode: true,
        shippingRate: 550,
        processingFeeBasisPoints: 290,
        generalRateLimit: 200,
      },
      errors: null,
    });
  });

  test('spec 5: rate limits 1-1000, 1-500, 1-100; not a number falls back to 100, 50, 10', () => {
    expect(readRateLimit('generalRateLimit', '1001')).toEqual({
      error: 'General rate limit (per minute) must be between 1 and 1000',
    });
    expect(readRateLimit('adminRateLimit', '0')).toEqual({
      error: 'Admin rate limit (per minute) must be between 1 and 500',
    });
    expect(readRateLimit('strictRateLimit', '101')).toEqual({
      error: 'Strict rate limit (per minute) must be between 1 and 100',
    });
    expect(readRateLimit('generalRateLimit', 'abc')).toEqual({ value: 100 });
    expect(readRateLimit('adminRateLimit', '')).toEqual({ value: 50 });
    expect(readRateLimit('strictRateLimit', '2.5')).toEqual({ value: 10 });
    expect(readRateLimit('strictRateLimit', '100')).toEqual({ value: 100 });
  });

  test('bad fields are named and nothing is sent', () => {
    const form = { ...toForm(loaded), siteName: ' ', generalRateLimit: '5000', shippingRate: '-1' };
    const result = toChanges(form, loaded);
    expect(result.changes).toBeNull();
    expect(Object.keys(result.errors ?? {}).sort()).toEqual(['generalRateLimit', 'shippingRate', 'siteName']);
  });

  test('a secret is sent when typed, removed when asked, else left as saved', () => {
    expect(toChanges({ ...toForm(loaded), stripeSecretKey: ' sk_test_abcdefgh1234 ' }, loaded).changes).toEqual({
      stripeSecretKey: 'sk_test_abcdefgh1234',
    });
    expect(toChanges({ ...toForm(loaded), removeSecrets: ['aiApiKey', 'aliexpressApiKey'] }, loaded).changes).toEqual({
      aiApiKey: '',
    });
  });
});
