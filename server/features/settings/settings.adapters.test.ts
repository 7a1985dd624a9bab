import { describe, expect, test } from 'vitest';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp, testSigningKey } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';
import { createSettingsService } from './settings.service.ts';

/** Which card processor the shop takes with Stripe's keys saved in the settings, and what its pages admit. */
const stripeKeys = {
  stripeSecretKey: 'sk_test_51SavedAtStartKey00aa',
  stripePublishableKey: 'pk_test_51SavedAtStartKey',
};
const stripePolicy = (policy: string | undefined) => /script-src[^;]*https:\/\/js\.stripe\.com/.test(policy ?? '');

describe('Stripe’s keys saved in the settings', () => {
  test('saved before the start, the shop takes cards with Stripe and its pages admit Stripe.js', async () => {
    const database = await createTestDatabase();
    await createSettingsService({ db: database.db, keyMaterial: testSigningKey }).update(stripeKeys);
    const { app } = await buildTestApp({ database });
    const page = await app.inject({ method: 'GET', url: '/cart' });
    expect(stripePolicy(page.headers['content-security-policy'])).toBe(true);
    // The built-in processor's card form is closed on a Stripe shop.
    const confirm = await testClient(app).post('/api/payments/test-card/confirm', {
      clientSecret: 'pi_local_x_secret_y',
      card: { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123', name: 'Ada Calm' },
    });
    expect(confirm.statusCode).toBe(404);
  });

  test('saved while the shop runs on the built-in processor, they wait for a restart', async () => {
    const { app, database } = await buildTestApp();
    const owner = await signedInAs(app, database.db, 'owner');
    expect((await owner.browser.post('/api/admin/settings', stripeKeys)).statusCode).toBe(200);
    const page = await app.inject({ method: 'GET', url: '/cart' });
    expect(stripePolicy(page.headers['content-security-policy'])).toBe(false);
    expect(page.headers['content-security-policy']).not.toContain('stripe');
  });
});
