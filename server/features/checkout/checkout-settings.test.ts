import { eq, sql } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { newsletterSubscribers } from '#server/features/newsletter/newsletter.tables.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { home, type Intent, simpleProduct } from './checkout-test-helpers.ts';

/** enableNewsletter and maxOrdersPerUser, saved in the settings tab, act on the next checkout. */
const { app, database } = await buildTestApp();
const { db } = database;
let counter = 0;
const address = () => `10.77.${Math.floor(++counter / 200)}.${counter % 200}`;
const shopper = () => testClient(app, { remoteAddress: address() });
const card = { number: '4242 4242 4242 4242', expMonth: 12, expYear: 2035, cvc: '123', name: 'Ada Calm' };
const email = (name: string) => `${name}.${Date.now().toString(36)}${++counter}@example.com`;

const owner = await signedInAs(app, db, 'owner');
async function save(changes: Record<string, unknown>) {
  const response = await owner.browser.post('/api/admin/settings', changes);
  expect(response.statusCode).toBe(200);
}

/** Intent → test card → complete, as the checkout modal does; the first refusal is returned. */
async function buy(to: string, extra: Record<string, unknown> = {}) {
  const product = await simpleProduct(db);
  const browser = shopper();
  const created = await browser.post('/api/create-or-update-payment-intent', {
    metaVersion: 2,
    items: [{ id: product.id, quantity: 1 }],
    email: to,
    shipping: home,
    ...extra,
  });
  if (created.statusCode !== 200) return created;
  const { id, clientSecret } = created.json() as Intent;
  const confirmed = await browser.post('/api/payments/test-card/confirm', { clientSecret, card });
  expect(confirmed.statusCode).toBe(200);
  return browser.post('/api/checkout/complete', { paymentIntentId: id });
}

const subscribed = async (address: string) =>
  (
    await db
      .select()
      .from(newsletterSubscribers)
      .where(eq(sql`lower(${newsletterSubscribers.email})`, address))
  ).length === 1;

describe('checkout settings take effect at once', () => {
  test('enableNewsletter: off, a ticked newsletter box subscribes no one; on again, it does', async () => {
    await save({ enableNewsletter: false });
    const unsubscribed = email('quiet');
    expect((await buy(unsubscribed, { newsletter: true })).statusCode).toBe(200);
    expect(await subscribed(unsubscribed)).toBe(false);
    expect((await shopper().get('/api/settings/public')).json().enableNewsletter).toBe(false);

    await save({ enableNewsletter: true });
    const subscriber = email('letters');
    expect((await buy(subscriber, { newsletter: true })).statusCode).toBe(200);
    expect(await subscribed(subscriber)).toBe(true);
  });

  test('requireEmailVerification: the newsletter box signs up through the double opt-in, inactive until confirmed', async () => {
    await save({ requireEmailVerification: true });
    try {
      const waiting = email('confirm-first');
      expect((await buy(waiting, { newsletter: true })).statusCode).toBe(200);
      const [row] = await db
        .select()
        .from(newsletterSubscribers)
        .where(eq(sql`lower(${newsletterSubscribers.email})`, waiting));
      expect(row).toMatchObject({ isActive: false, source: 'checkout', confirmedAt: null });
      expect(row?.confirmationSentAt).toBeInstanceOf(Date);
    } finally {
      await save({ requireEmailVerification: false });
    }
  });

  test('maxOrdersPerUser: lowered, the next payment over it is refused; raised, it is taken', async () => {
    const buyer = email('limited');
    expect((await buy(buyer)).statusCode).toBe(200);
    await save({ maxOrdersPerUser: 1 });
    const refused = await buy(buyer);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'order_limit' });

    await save({ maxOrdersPerUser: 2 });
    expect((await buy(buyer)).statusCode).toBe(200);
    expect((await buy(buyer)).statusCode).toBe(429);
    await save({ maxOrdersPerUser: 10 });
  });
});
