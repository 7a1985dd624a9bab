import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import { buildTestApp } from '#server/testing/test-app.ts';
import { addSecurityHeaders } from './security.ts';

const STRIPE_HOSTS = [
  'https://js.stripe.com',
  'https://*.js.stripe.com',
  'https://hooks.stripe.com',
  'https://api.stripe.com',
];

/** The policy's directives by name, each with its sources. */
function directives(policy: unknown): Record<string, string[]> {
  const entries = String(policy)
    .split(';')
    .map((directive) => directive.trim().split(/\s+/))
    .filter((parts) => parts[0])
    .map(([name, ...sources]) => [name as string, sources]);
  return Object.fromEntries(entries);
}

/** A bare server with the security headers and one page. */
async function server(options: { development?: boolean; stripe?: boolean; adPixel?: boolean }) {
  const app = Fastify();
  addSecurityHeaders(app, {
    development: options.development ?? false,
    https: false,
    stripe: options.stripe,
    adPixel: options.adPixel,
  });
  app.get('/cart', (_request, reply) => reply.type('text/html').send('<!doctype html><title>cart</title>'));
  app.get('/api/cart', () => ({ items: [] }));
  await app.ready();
  return app;
}

describe('the page policy admits Stripe.js only when the shop uses Stripe', () => {
  test('with Stripe: its script, its API and its frames, next to our own nonce', async () => {
    const app = await server({ stripe: true });
    const policy = directives((await app.inject({ method: 'GET', url: '/cart' })).headers['content-security-policy']);
    expect(policy['script-src']).toEqual(["'self'", expect.stringMatching(/^'nonce-.+'$/), 'https://js.stripe.com']);
    expect(policy['connect-src']).toEqual(["'self'", 'https://api.stripe.com']);
    expect(policy['frame-src']).toEqual([
      "'self'",
      'https://js.stripe.com',
      'https://*.js.stripe.com',
      'https://hooks.stripe.com',
    ]);
    // The rest of the policy is unchanged.
    expect(policy['default-src']).toEqual(["'self'"]);
    expect(policy['object-src']).toEqual(["'none'"]);
    expect(policy['frame-ancestors']).toEqual(["'none'"]);
    await app.close();
  });

  test('without Stripe (the default): none of its hosts, and frames fall back to our own', async () => {
    for (const options of [{}, { stripe: false }]) {
      const app = await server(options);
      const header = String((await app.inject({ method: 'GET', url: '/cart' })).headers['content-security-policy']);
      for (const host of STRIPE_HOSTS) expect(header).not.toContain(host);
      expect(header).not.toContain('stripe');
      const policy = directives(header);
      expect(policy['script-src']).toEqual(["'self'", expect.stringMatching(/^'nonce-.+'$/)]);
      expect(policy['connect-src']).toEqual(["'self'"]);
      expect(policy['frame-src']).toBeUndefined();
      await app.close();
    }
  });

  test('in development, Stripe is added to the development sources', async () => {
    const app = await server({ development: true, stripe: true });
    const policy = directives((await app.inject({ method: 'GET', url: '/cart' })).headers['content-security-policy']);
    expect(policy['script-src']).toEqual(["'self'", "'unsafe-inline'", 'https://js.stripe.com']);
    expect(policy['connect-src']).toEqual(["'self'", 'ws:', 'wss:', 'https://api.stripe.com']);
    await app.close();
  });

  test('API answers keep their closed policy either way', async () => {
    const app = await server({ stripe: true });
    const response = await app.inject({ method: 'GET', url: '/api/cart' });
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    await app.close();
  });
});

describe('the page policy admits the ad pixel only when the shop has one', () => {
  test('with a pixel: its script and its reports, next to our own nonce', async () => {
    const app = await server({ adPixel: true });
    const policy = directives((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(policy['script-src']).toEqual([
      "'self'",
      expect.stringMatching(/^'nonce-.+'$/),
      'https://analytics.tiktok.com',
    ]);
    expect(policy['connect-src']).toEqual(["'self'", 'https://analytics.tiktok.com']);
    expect(policy['frame-src']).toBeUndefined();
    await app.close();
  });

  test('with Stripe and a pixel: both', async () => {
    const app = await server({ stripe: true, adPixel: true });
    const policy = directives((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(policy['script-src']).toEqual([
      "'self'",
      expect.stringMatching(/^'nonce-.+'$/),
      'https://js.stripe.com',
      'https://analytics.tiktok.com',
    ]);
    expect(policy['connect-src']).toEqual(["'self'", 'https://api.stripe.com', 'https://analytics.tiktok.com']);
    await app.close();
  });

  test('without a pixel (the default): no tiktok host', async () => {
    const app = await server({});
    const header = String((await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy']);
    expect(header).not.toContain('tiktok');
    await app.close();
  });
});

describe('the shop', () => {
  test('configured with a TikTok pixel, its pages admit the pixel and its API answers stay closed', async () => {
    const { app } = await buildTestApp({ env: { TIKTOK_PIXEL_ID: 'C4PIXEL0TEST1234' } });
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(directives(page.headers['content-security-policy'])['script-src']).toContain('https://analytics.tiktok.com');
    const api = await app.inject({ method: 'GET', url: '/api/categories' });
    expect(api.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });

  test('without a pixel, its pages name no tiktok host', async () => {
    const { app } = await buildTestApp();
    const page = await app.inject({ method: 'GET', url: '/' });
    expect(page.headers['content-security-policy']).not.toContain('tiktok');
  });

  test('configured with Stripe, its pages admit Stripe.js', async () => {
    const { app } = await buildTestApp({
      env: { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_PUBLISHABLE_KEY: 'pk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' },
    });
    const page = await app.inject({ method: 'GET', url: '/cart' });
    const policy = directives(page.headers['content-security-policy']);
    expect(policy['script-src']).toContain('https://js.stripe.com');
    expect(policy['connect-src']).toContain('https://api.stripe.com');
    expect(policy['frame-src']).toEqual(expect.arrayContaining(['https://js.stripe.com', 'https://hooks.stripe.com']));
    const api = await app.inject({ method: 'GET', url: '/api/categories' });
    expect(api.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
  });

  test('on the built-in processor, its pages name no Stripe host', async () => {
    const { app } = await buildTestApp();
    const page = await app.inject({ method: 'GET', url: '/cart' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self' 'nonce-");
    expect(page.headers['content-security-policy']).not.toContain('stripe');
  });
});
