import { describe, expect, test } from 'vitest';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';

/** allowRegistration and requireEmailVerification, saved in the settings tab, act on the next request. */
const { app, database } = await buildTestApp();
let counter = 0;
const address = () => `10.76.${Math.floor(++counter / 200)}.${counter % 200}`;
const browser = () => testClient(app, { remoteAddress: address() });
const newAccount = () => {
  const id = `${Date.now().toString(36)}${(++counter).toString(36)}`;
  return { username: `setting_${id}`, email: `setting.${id}@example.com`, password: 'Quiet-Water-42' };
};

const owner = await signedInAs(app, database.db, 'owner');
async function save(changes: Record<string, unknown>) {
  const response = await owner.browser.post('/api/admin/settings', changes);
  expect(response.statusCode).toBe(200);
}

describe('account settings take effect at once', () => {
  test('allowRegistration: closed, the next registration is refused; opened, the next one is made', async () => {
    await save({ allowRegistration: false });
    const refused = await browser().post('/api/auth/register', newAccount());
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ error: 'Registration is closed', code: 'registration_closed' });
    expect((await browser().get('/api/settings/public')).json().allowRegistration).toBe(false);

    await save({ allowRegistration: true });
    expect((await browser().post('/api/auth/register', newAccount())).statusCode).toBe(201);
    expect((await browser().get('/api/settings/public')).json().allowRegistration).toBe(true);
  });

  test('requireEmailVerification: on, a new account waits for its link; off, it signs in at once', async () => {
    await save({ requireEmailVerification: true });
    const account = newAccount();
    const shopper = browser();
    const created = await shopper.post('/api/auth/register', account);
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ verificationRequired: true });
    const early = await shopper.post('/api/auth/login', { email: account.email, password: account.password });
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('email_not_verified');

    await save({ requireEmailVerification: false });
    const signedIn = await shopper.post('/api/auth/login', { email: account.email, password: account.password });
    expect(signedIn.statusCode).toBe(200);
    const later = newAccount();
    expect((await browser().post('/api/auth/register', later)).json()).toMatchObject({ verificationRequired: false });
  });
});
