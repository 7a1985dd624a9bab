import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, test } from 'vitest';
import { createTikTokEventsApi } from '#server/adapters/tracking/ad-events-api.ts';
import { startTikTokEventsStandIn } from '#server/adapters/tracking/tiktok-events-stand-in.ts';
import { latestPaidOrder } from '#server/features/orders/orders-test-helpers.ts';
import { createJobs } from '#server/jobs/job-queue.ts';
import { buildTestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTrackingService, FORWARD_ATTEMPTS } from './tracking.service.ts';
import { adEvents } from './tracking.tables.ts';

const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const consent = { 'user-agent': BROWSER, 'x-tracking-consent': 'granted' };
let counter = 0;
const address = () => `10.81.${Math.floor(++counter / 200)}.${counter % 200}`;
const eventId = () => `evt${Date.now().toString(36)}${++counter}`;
const now = () => Math.floor(Date.now() / 1000);
const sha = (value: string) => createHash('sha256').update(value).digest('hex');

const { app, database } = await buildTestApp();
const { db } = database;
const visitor = (headers: Record<string, string> = consent, remoteAddress = address()) =>
  testClient(app, { remoteAddress, headers });
const stored = async (id: string) => (await db.select().from(adEvents).where(eq(adEvents.eventId, id)))[0];

const accessToken = 'events-token-0123456789';
const pixelId = 'CSTANDIN0PIXEL00002';
const standIn = await startTikTokEventsStandIn({ accessToken, pixelId });
afterAll(() => standIn.close());
const eventsApi = createTikTokEventsApi({ pixelId, accessToken, apiBase: standIn.apiBase });
const forwarding = await buildTestApp({ adEventsApi: eventsApi });
// The queue's later runs of the forwarding job, on the same database.
const tracking = createTrackingService({
  db: forwarding.database.db,
  eventsApi,
  jobs: createJobs(),
  forwardTestEventCode: true,
});
const forwarded = async (id: string) =>
  (await forwarding.database.db.select().from(adEvents).where(eq(adEvents.eventId, id)))[0];

describe('the tracker, events recorded locally (no Events API configured)', () => {
  test('GET /api/tiktok/fetch-client answers the address and user agent the server sees', async () => {
    const response = await visitor(consent, '203.0.113.7').get('/api/tiktok/fetch-client');
    expect(response.json()).toEqual({ ip: '203.0.113.7', user_agent: BROWSER });
    expect(response.headers['cache-control']).toBe('private, no-store');
  });

  test('an event with consent is recorded once, its identity hashed, its address from the request', async () => {
    const id = eventId();
    const body = {
      event: 'ViewContent',
      event_id: id,
      event_time: now(),
      properties: {
        contents: [{ content_id: 'desktop-fountain', content_type: 'product', price: 77.99 }],
        currency: 'USD',
        value: 77.99,
      },
      user: { email: ' Ada@Example.com ', phone: '+1 555 010 9999', external_id: 'u1' },
      page: { url: 'http://localhost:3000/product/desktop-fountain' },
      test_event_code: 'TEST74302',
    };
    const browser = visitor(consent, '203.0.113.8');
    expect((await browser.post('/api/tiktok/event', body)).json()).toEqual({ accepted: true });
    expect((await browser.post('/api/tiktok/event', body)).json()).toEqual({ accepted: false });
    const row = await stored(id);
    expect(row).toMatchObject({ event: 'ViewContent', status: 'recorded', testEventCode: 'TEST74302' });
    expect(row?.payload.user).toEqual({
      email: sha('ada@example.com'),
      phone: sha('+15550109999'),
      external_id: sha('u1'),
      ip: '203.0.113.8',
      user_agent: BROWSER,
    });
    expect(JSON.stringify(row)).not.toMatch(/ada@example|555 010/i);
    expect(await db.select().from(adEvents).where(eq(adEvents.eventId, id))).toHaveLength(1);
  });

  test('without consent, or with Global Privacy Control, nothing is taken', async () => {
    const body = { event: 'Pageview', event_id: eventId(), event_time: now() };
    const refusals = [
      await visitor({ 'user-agent': BROWSER }).post('/api/tiktok/event', body),
      await visitor({ ...consent, 'x-tracking-consent': 'denied' }).post('/api/tiktok/event', body),
      await visitor({ ...consent, 'sec-gpc': '1' }).post('/api/tiktok/event', body),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(403);
      expect(response.json().code).toBe('consent_required');
    }
    expect(await stored(body.event_id)).toBeUndefined();
  });

  test('CSRF is required, bots are ignored, bad input is a 400 naming the field', async () => {
    const body = { event: 'Pageview', event_id: eventId(), event_time: now() };
    expect((await visitor().post('/api/tiktok/event', body, { csrf: false })).statusCode).toBe(403);
    const bot = visitor({ ...consent, 'user-agent': 'Googlebot/2.1 (+http://www.google.com/bot.html)' });
    expect((await bot.post('/api/tiktok/event', body)).json()).toEqual({ accepted: false });
    expect(await stored(body.event_id)).toBeUndefined();
    for (const [bad, field] of [
      [{ ...body, event: 'Purchase' }, 'event'],
      [{ ...body, event_id: 'short' }, 'event_id'],
      [{ ...body, event_time: now() - 8 * 24 * 3600 }, 'event_time'],
      [{ ...body, event_time: now() + 3600 }, 'event_time'],
      [{ ...body, properties: { currency: 'EUR' } }, 'currency'],
      [{ ...body, page: { url: 'x'.repeat(3000) } }, 'url'],
    ] as const) {
      const response = await visitor().post('/api/tiktok/event', bad);
      expect(response.statusCode).toBe(400);
      expect(JSON.stringify(response.json())).toContain(field);
    }
  });

  test("CompletePayment carries the paid order's own total; an unknown order is refused", async () => {
    const order = await latestPaidOrder(db);
    const id = eventId();
    const paid = {
      event: 'CompletePayment',
      event_id: id,
      event_time: now(),
      properties: { order_id: order.id, value: 0.01, currency: 'USD' },
    };
    expect((await visitor().post('/api/tiktok/event', paid)).json()).toEqual({ accepted: true });
    expect((await stored(id))?.payload.properties).toMatchObject({ order_id: order.id, value: order.total / 100 });
    const unknown = await visitor().post('/api/tiktok/event', {
      ...paid,
      event_id: eventId(),
      properties: { order_id: '0123456789abcdef' },
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field).toBe('properties.order_id');
  });
});

describe('the tracker with the Events API (the adapter against its stand-in)', () => {
  test('a consented event is forwarded by a background job, hashed, with the browser event id', async () => {
    const id = eventId();
    const browser = testClient(forwarding.app, { remoteAddress: address(), headers: consent });
    const response = await browser.post('/api/tiktok/event', {
      event: 'InitiateCheckout',
      event_id: id,
      event_time: now(),
      user: { email: 'ada@example.com' },
    });
    expect(response.json()).toEqual({ accepted: true });
    await forwarding.jobsDone();
    expect(await forwarded(id)).toMatchObject({ status: 'sent', attempts: 1 });
    const sent = standIn.received.at(-1)?.body as { data: { event_id: string; user: { email: string } }[] };
    expect(sent.data[0]?.event_id).toBe(id);
    expect(sent.data[0]?.user.email).toBe(sha('ada@example.com'));
    expect(JSON.stringify(standIn.received)).not.toContain('ada@example.com');
  });

  test('a transient failure is left for the queue to retry; a refusal, or the last attempt, marks it failed', async () => {
    const browser = testClient(forwarding.app, { remoteAddress: address(), headers: consent });
    const send = async () => {
      const id = eventId();
      await browser.post('/api/tiktok/event', { event: 'Pageview', event_id: id, event_time: now() });
      await forwarding.jobsDone().catch(() => {});
      return id;
    };
    standIn.failNext({ status: 503 });
    const retried = await send();
    expect(await forwarded(retried)).toMatchObject({
      status: 'queued',
      attempts: 1,
      lastError: expect.stringContaining('503'),
    });
    standIn.failNext({ code: 40002, message: 'Invalid parameters' });
    expect(await forwarded(await send())).toMatchObject({
      status: 'failed',
      lastError: expect.stringContaining('Invalid'),
    });
    // The queue runs it again: sent. And a transient failure on the last attempt gives up.
    await tracking.forwardEvent((await forwarded(retried))?.id ?? 0);
    expect(await forwarded(retried)).toMatchObject({ status: 'sent', attempts: 2 });
    const last = await send();
    await forwarding.database.db
      .update(adEvents)
      .set({ status: 'queued', attempts: FORWARD_ATTEMPTS - 1 })
      .where(eq(adEvents.eventId, last));
    standIn.failNext({ status: 500 });
    await tracking.forwardEvent((await forwarded(last))?.id ?? 0);
    expect(await forwarded(last)).toMatchObject({ status: 'failed', attempts: FORWARD_ATTEMPTS });
  });
});
