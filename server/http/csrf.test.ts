import fastifyCookie from '@fastify/cookie';
import Fastify from 'fastify';
import { expect, test, vi } from 'vitest';
import { CSRF_TOKEN_TTL, createCsrfProtection } from './csrf.ts';

async function appWithWebhook() {
  const app = Fastify();
  await app.register(fastifyCookie);
  const csrf = createCsrfProtection({ signingKey: 'k'.repeat(40), secureCookies: false });
  csrf.protect(app);
  app.get('/token', (request, reply) => csrf.issueToken(request, reply));
  app.post('/write', async () => ({ ok: true }));
  app.post('/webhook', { config: { csrf: false } }, async () => ({ received: true }));
  return app;
}

test('provider webhooks are exempt from the CSRF check; other writes are not', async () => {
  const app = await appWithWebhook();
  expect((await app.inject({ method: 'POST', url: '/webhook' })).json()).toEqual({ received: true });
  expect((await app.inject({ method: 'POST', url: '/write' })).statusCode).toBe(403);
});

test('a token signed with another key is refused', async () => {
  const app = await appWithWebhook();
  const other = Fastify();
  await other.register(fastifyCookie);
  const foreign = createCsrfProtection({ signingKey: 'z'.repeat(40), secureCookies: false });
  other.get('/token', (request, reply) => foreign.issueToken(request, reply));
  const issued = await other.inject({ method: 'GET', url: '/token' });
  const cookie = issued.cookies.find((c) => c.name === 'sw_csrf')?.value;
  const response = await app.inject({
    method: 'POST',
    url: '/write',
    headers: { cookie: `sw_csrf=${cookie}`, 'x-csrf-token': issued.json().token },
  });
  expect(response.statusCode).toBe(403);
});

test('a token accepted once is accepted again until it expires, and only with its own cookie', async () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    const app = await appWithWebhook();
    const issued = await app.inject({ method: 'GET', url: '/token' });
    const secret = issued.cookies.find((c) => c.name === 'sw_csrf')?.value;
    const write = (cookie: string) =>
      app.inject({
        method: 'POST',
        url: '/write',
        headers: { cookie: `sw_csrf=${cookie}`, 'x-csrf-token': issued.json().token },
      });
    expect((await write(`${secret}`)).statusCode).toBe(200);
    expect((await write(`${secret}`)).statusCode).toBe(200);
    // The same token with another browser's secret: its signature does not match.
    expect((await write('x'.repeat(43))).statusCode).toBe(403);
    vi.setSystemTime(Date.now() + (CSRF_TOKEN_TTL + 1) * 1000);
    const expired = await write(`${secret}`);
    expect(expired.statusCode).toBe(403);
    expect(expired.json().error).toMatch(/^Invalid or expired CSRF token/);
  } finally {
    vi.useRealTimers();
  }
});
