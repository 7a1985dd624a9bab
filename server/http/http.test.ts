import { brotliDecompressSync, gunzipSync, zstdDecompressSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { describe, expect, test } from 'vitest';
import { COMPRESS_IN_ONE_CALL_MAX_BYTES } from '#server/app.ts';
import { users } from '#server/features/accounts/accounts.tables.ts';
import { createSessionStore } from '#server/features/accounts/sessions.ts';
import { settings } from '#server/features/settings/settings.tables.ts';
import { SESSION_COOKIE } from '#server/http/session.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp, csrfHeaders } from '#server/testing/test-app.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';

const { app, database } = await buildTestApp();

describe('CSRF protection', () => {
  test('the token endpoint answers a token, its lifetime and a cookie', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/csrf-token' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({ token: expect.stringMatching(/^\d+\.[\w-]+$/), expiresIn: 7200 });
    const cookie = response.cookies.find((c) => c.name === 'sw_csrf');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(response.headers['cache-control']).toBe('no-store');
  });

  test.each(['POST', 'PUT', 'PATCH', 'DELETE'] as const)('%s without a token is refused with 403', async (method) => {
    const response = await app.inject({ method, url: '/api/auth/logout' });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toEqual({
      error: 'Missing CSRF token: send the X-CSRF-Token header from /api/auth/csrf-token',
      code: 'csrf_invalid',
    });
  });

  test('a wrong, tampered or expired token is refused', async () => {
    const { cookie, 'x-csrf-token': token } = await csrfHeaders(app);
    const [expires, signature] = token.split('.');
    const bad = [
      'nonsense',
      `${expires}.${signature?.replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
      `${Number(expires) + 10}.${signature}`,
      `${Math.floor(Date.now() / 1000) - 10}.${signature}`,
    ];
    for (const candidate of bad) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/logout',
        headers: { cookie, 'x-csrf-token': candidate },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toMatch(/^Invalid or expired CSRF token/);
    }
  });

  test('a token only works with the cookie it was issued with', async () => {
    const first = await csrfHeaders(app);
    const second = await csrfHeaders(app);
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { cookie: second.cookie, 'x-csrf-token': first['x-csrf-token'] },
    });
    expect(response.statusCode).toBe(403);
  });

  test('a valid token lets the request through', async () => {
    const response = await app.inject({ method: 'POST', url: '/api/auth/logout', headers: await csrfHeaders(app) });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ success: true });
  });

  test('reads need no token', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/categories' })).statusCode).toBe(200);
  });
});

describe('error format', () => {
  test('a malformed JSON body gets 400, not 500', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...(await csrfHeaders(app)), 'content-type': 'application/json' },
      payload: '{"broken": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The request body is not valid JSON', code: 'invalid_body' });
  });

  test('a bad query parameter gets 400 naming the field', async () => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['limit=101', 'limit'],
      ['limit=-1', 'limit'],
    ] as const) {
      const response = await app.inject({ method: 'GET', url: `/api/products?${query}` });
      expect(response.statusCode, query).toBe(400);
      const body = response.json();
      expect(body.code).toBe('invalid_input');
      expect(body.field).toBe(field);
      expect(body.error).toContain(`'${field}'`);
    }
  });

  test('an unknown API path gets a JSON 404', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/no-such-thing' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Not found', code: 'not_found' });
  });

  test('an unknown product gets 404 with the spec message', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/products/no-such-product' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({ error: 'Product not found', code: 'not_found' });
  });
});

describe('compression', () => {
  test('an API answer up to 64 kB is compressed in one piece, with its length; a larger one is streamed', async () => {
    const owner = await signedInAs(app, database.db, 'owner');
    const cookie = `${SESSION_COOKIE}=${owner.browser.cookie(SESSION_COOKIE)}`;
    const list = await app.inject({
      method: 'GET',
      url: '/api/admin/products?limit=50',
      headers: { cookie, 'accept-encoding': 'br' },
    });
    expect(list.statusCode).toBe(200);
    expect(list.headers['content-encoding']).toBe('br');
    const json = brotliDecompressSync(list.rawPayload);
    // Above the library's own default on two cores (8 kB), within the shop's limit.
    expect(json.length).toBeGreaterThan(8192);
    expect(json.length).toBeLessThanOrEqual(COMPRESS_IN_ONE_CALL_MAX_BYTES);
    expect(list.headers['content-length']).toBe(String(list.rawPayload.length));
    expect(list.headers['transfer-encoding']).toBeUndefined();
    expect(JSON.parse(json.toString()).products.length).toBeGreaterThan(0);

    const document = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'br' } });
    expect(document.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(document.rawPayload).length).toBeGreaterThan(COMPRESS_IN_ONE_CALL_MAX_BYTES);
    expect(document.headers['content-length']).toBeUndefined();
  });

  test('a browser that takes Zstandard gets it, in one piece and streamed; one that does not gets its own coding', async () => {
    const owner = await signedInAs(app, database.db, 'owner');
    const cookie = `${SESSION_COOKIE}=${owner.browser.cookie(SESSION_COOKIE)}`;
    const browser = 'gzip, deflate, br, zstd';
    const plain = await app.inject({ method: 'GET', url: '/api/admin/products?limit=50', headers: { cookie } });
    const list = await app.inject({
      method: 'GET',
      url: '/api/admin/products?limit=50',
      headers: { cookie, 'accept-encoding': browser },
    });
    expect(list.headers['content-encoding']).toBe('zstd');
    expect(String(list.headers.vary).toLowerCase()).toContain('accept-encoding');
    expect(list.headers['content-length']).toBe(String(list.rawPayload.length));
    expect(zstdDecompressSync(list.rawPayload).toString()).toBe(plain.body);
    expect(list.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);

    const document = await app.inject({
      method: 'GET',
      url: '/api/docs/json',
      headers: { 'accept-encoding': browser },
    });
    expect(document.headers['content-encoding']).toBe('zstd');
    expect(document.headers['content-length']).toBeUndefined();
    expect(JSON.parse(zstdDecompressSync(document.rawPayload).toString()).openapi).toMatch(/^3\./);

    const gzipped = await app.inject({
      method: 'GET',
      url: '/api/admin/products?limit=50',
      headers: { cookie, 'accept-encoding': 'gzip, zstd;q=0' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzipped.rawPayload).toString()).toBe(plain.body);
  });
});

describe('API documentation', () => {
  test('the OpenAPI document describes the routes from their zod schemas', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toMatch(/^3\./);
    const listing = document.paths['/api/products'].get;
    expect(listing.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['page', 'limit', 'category']),
    );
    expect(document.paths['/api/products/{id}']).toBeDefined();
  });
});

describe('health', () => {
  test('liveness and readiness', async () => {
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ status: 'ok' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ status: 'ready' });
  });

  test('readiness fails with 503 when the database is gone', async () => {
    const { app: other, database: otherDatabase } = await buildTestApp();
    await otherDatabase.close();
    const response = await other.inject({ method: 'GET', url: '/readyz' });
    expect(response.statusCode).toBe(503);
    expect(response.json()).toEqual({ error: 'Database not reachable', code: 'not_ready' });
  });
});

describe('who is signed in', () => {
  test('a visitor is not authenticated', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/me' });
    expect(response.json()).toEqual({ authenticated: false });
  });

  test('a session cookie identifies its user, and signing out ends the session', async () => {
    const accounts = createSessionStore({ db: database.db });
    const [user] = await database.db.select({ id: users.id }).from(users).where(eq(users.role, 'user')).limit(1);
    const token = await accounts.create(user?.id as string);
    const cookie = `sw_session=${token}`;
    const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(me.json()).toMatchObject({ authenticated: true, user: { id: user?.id, isAdmin: false, role: 'user' } });

    const csrf = await csrfHeaders(app);
    const out = await app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { 'x-csrf-token': csrf['x-csrf-token'], cookie: `${csrf.cookie}; ${cookie}` },
    });
    expect(out.statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie } });
    expect(after.json()).toEqual({ authenticated: false });
  });

  test('a made-up session cookie is a visitor', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/auth/me', headers: { cookie: 'sw_session=forged' } });
    expect(response.json()).toEqual({ authenticated: false });
  });
});

describe('headers', () => {
  test('API answers carry the security headers that matter for data, and no rate-limit noise', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/categories' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
    expect(response.headers['referrer-policy']).toBe('no-referrer');
    expect(response.headers['x-ratelimit-remaining']).toBeUndefined();
  });

  test('served over https, cookies are Secure and HSTS is on', async () => {
    const { app: secure } = await buildTestApp({ env: { PUBLIC_URL: 'https://shop.example.com' } });
    const response = await secure.inject({ method: 'GET', url: '/api/auth/csrf-token' });
    expect(response.cookies.find((c) => c.name === 'sw_csrf')?.secure).toBe(true);
    expect(response.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(
      (await app.inject({ method: 'GET', url: '/api/auth/csrf-token' })).headers['strict-transport-security'],
    ).toBeUndefined();
  });

  test('JSON responses are compressed when the client accepts it', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/products?limit=24',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
  });
});

describe('rate limit', () => {
  test('past the general limit a client gets 429 with Retry-After', async () => {
    const limited = await createTestDatabase();
    await limited.db.insert(settings).values({ key: 'generalRateLimit', value: 3 });
    const { app: strict } = await buildTestApp({ database: limited });
    for (let i = 0; i < 3; i++) {
      expect((await strict.inject({ method: 'GET', url: '/api/categories' })).statusCode).toBe(200);
    }
    const response = await strict.inject({ method: 'GET', url: '/api/categories' });
    expect(response.statusCode).toBe(429);
    expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    expect(response.json()).toEqual({
      error: expect.stringMatching(/^Too many requests: try again in/),
      code: 'rate_limited',
    });
    // Health checks stay reachable for the load balancer.
    expect((await strict.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    // Another client has its own count.
    expect((await strict.inject({ method: 'GET', url: '/api/categories', remoteAddress: '10.0.0.9' })).statusCode).toBe(
      200,
    );
  });

  test('addresses on the allow list are never limited', async () => {
    const limited = await createTestDatabase();
    await limited.db.insert(settings).values({ key: 'generalRateLimit', value: 2 });
    const { app: allowing } = await buildTestApp({ database: limited, env: { RATE_LIMIT_ALLOW_LIST: '10.1.2.3,::1' } });
    for (let i = 0; i < 5; i++) {
      const response = await allowing.inject({ method: 'GET', url: '/api/categories', remoteAddress: '10.1.2.3' });
      expect(response.statusCode).toBe(200);
    }
    for (let i = 0; i < 2; i++)
      await allowing.inject({ method: 'GET', url: '/api/categories', remoteAddress: '10.9.9.9' });
    expect(
      (await allowing.inject({ method: 'GET', url: '/api/categories', remoteAddress: '10.9.9.9' })).statusCode,
    ).toBe(429);
  });
});
