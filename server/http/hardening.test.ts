import { connect } from 'node:net';
import { describe, expect, test } from 'vitest';
import { CONNECTION_TIMEOUT_MS, REQUEST_TIMEOUT_MS } from '#server/app.ts';
import { settings } from '#server/features/settings/settings.tables.ts';
import { buildTestApp, csrfHeaders } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';
import { createTestDatabase } from '#server/testing/test-database.ts';

const { app } = await buildTestApp();

/** Log lines as JSON objects, captured from an app built with `logStream`. */
function captureLog() {
  const lines: Record<string, unknown>[] = [];
  return { lines, stream: { write: (line: string) => void lines.push(JSON.parse(line)) } };
}

describe('client addresses behind a proxy', () => {
  test('a client-written X-Forwarded-For neither escapes a limit nor changes the logged address', async () => {
    const limited = await createTestDatabase();
    await limited.db.insert(settings).values({ key: 'generalRateLimit', value: 5 });
    const log = captureLog();
    // One proxy in front (127.0.0.1): it appends the address it saw, whatever the client wrote before it.
    const { app: proxied } = await buildTestApp({
      database: limited,
      env: { TRUST_PROXY: '1', LOG_LEVEL: 'info' },
      logStream: log.stream,
    });
    const statuses = [];
    for (let i = 0; i < 8; i++) {
      const response = await proxied.inject({
        method: 'GET',
        url: '/api/categories',
        remoteAddress: '127.0.0.1',
        headers: { 'x-forwarded-for': `198.51.100.${i}, 203.0.113.7` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429, 429]);
    const addresses = new Set(
      log.lines.filter((line) => line.req).map((line) => (line.req as { remoteAddress: string }).remoteAddress),
    );
    expect([...addresses]).toEqual(['203.0.113.7']);
  });

  test('without TRUST_PROXY the header is ignored: the connection is the client', async () => {
    const limited = await createTestDatabase();
    await limited.db.insert(settings).values({ key: 'generalRateLimit', value: 3 });
    const { app: direct } = await buildTestApp({ database: limited });
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const response = await direct.inject({
        method: 'GET',
        url: '/api/categories',
        remoteAddress: '10.5.5.5',
        headers: { 'x-forwarded-for': `198.51.100.${i}` },
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 429, 429]);
  });
});

describe('odd input gets a 4xx, never a 500', () => {
  test.each([
    ['/api/products/%00', 'id'],
    ['/api/reviews/rating/%00', 'id'],
    ['/api/products?category=%00', 'category'],
    ['/api/products/search/a%00b', 'term'],
  ])('a NUL byte in %s is a 400 naming the field', async (url, field) => {
    const response = await app.inject({ method: 'GET', url });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ code: 'invalid_input', field });
  });

  test('a NUL byte or a lone surrogate in a JSON body is a 400 naming the field', async () => {
    for (const email of ['\u0000', 'a\ud800@example.com']) {
      const response = await testClient(app).post('/api/auth/login', { email, password: 'x' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_input', field: 'email' });
    }
  });

  test('a URL that does not decode gets the error format and the security headers, without an echo', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/products/%E0%A4%A' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ error: 'The URL is malformed', code: 'bad_url' });
    expect(response.body).not.toContain('%E0');
    expect(response.headers['content-security-policy']).toBe("default-src 'none';frame-ancestors 'none'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  test('media paths that are folders or too long are 404s', async () => {
    for (const url of ['/media/products', `/media/${'a'.repeat(300)}.webp`, '/media/products/']) {
      const response = await app.inject({ method: 'GET', url });
      expect(response.statusCode).toBe(404);
    }
  });

  test('twenty parallel registrations of one email: one account, the rest 409, no 500', async () => {
    const email = `race.${Date.now()}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        testClient(app, { remoteAddress: `10.44.0.${i + 1}` }).post('/api/auth/register', {
          username: `racer_${Date.now().toString(36)}_${i}`,
          email,
          password: 'Quiet-Water-42',
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    for (const answer of answers.filter((a) => a.statusCode === 409)) {
      expect(answer.json()).toEqual({ error: 'An account with this email already exists', code: 'email_taken' });
    }
  });
});

describe('connections', () => {
  test('a request must arrive whole within the request timeout (a slow body cannot hold a connection)', () => {
    expect(REQUEST_TIMEOUT_MS).toBe(30_000);
    expect(app.server.requestTimeout).toBe(REQUEST_TIMEOUT_MS);
    // And an idle connection does not stay open for ever.
    expect(app.server.timeout).toBe(CONNECTION_TIMEOUT_MS);
  });

  test('headers too large get a 431 in the error format, with the security headers', async () => {
    const { app: listening } = await buildTestApp();
    await listening.listen({ host: '127.0.0.1', port: 0 });
    const { port } = listening.server.address() as { port: number };
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`GET /api/categories HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
      });
      let received = '';
      socket.on('data', (chunk) => {
        received += chunk.toString();
      });
      socket.on('close', () => resolve(received));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 431 /);
    expect(raw).toContain("content-security-policy: default-src 'none';frame-ancestors 'none'");
    expect(raw.split('\r\n\r\n')[1]).toBe(
      JSON.stringify({ error: 'The request headers are too large', code: 'client_error' }),
    );
  });
});

describe('API docs', () => {
  test('the docs page gets a document policy that lets its own scripts run', async () => {
    const page = await app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    const policy = page.headers['content-security-policy'] as string;
    expect(policy).toContain("script-src 'self'");
    expect(policy).not.toContain("default-src 'none'");
    const script = await app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(script.statusCode).toBe(200);
    const spec = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(spec.json().openapi).toMatch(/^3\./);
  });
});

describe('logs', () => {
  test('the reset flow leaves no token and no password hash in the log, even at debug level', async () => {
    const log = captureLog();
    const {
      app: logged,
      mailbox,
      jobsDone,
    } = await buildTestApp({
      env: { LOG_LEVEL: 'debug' },
      logStream: log.stream,
    });
    const browser = testClient(logged, { remoteAddress: '10.33.0.1' });
    const email = `logged.${Date.now()}@example.com`;
    const account = { username: `logged_${Date.now().toString(36)}`, email, password: 'Quiet-Water-42' };
    expect((await browser.post('/api/auth/register', account)).statusCode).toBe(201);
    // A registration that loses to the unique index (database error path).
    expect(
      (await testClient(logged, { remoteAddress: '10.33.0.2' }).post('/api/auth/register', account)).statusCode,
    ).toBe(409);
    expect((await browser.post('/api/password-reset/request', { email })).statusCode).toBe(200);
    await jobsDone();
    const token = /token=([\w-]+)/.exec(mailbox.at(-1)?.text ?? '')?.[1] as string;
    expect(token).toBeTruthy();
    expect((await browser.get(`/api/password-reset/verify/${token}`)).statusCode).toBe(200);
    await logged.inject({ method: 'GET', url: `/reset-password?token=${token}` });
    const headers = await csrfHeaders(logged);
    await logged.inject({
      method: 'POST',
      url: '/api/password-reset/reset',
      headers,
      payload: { token, password: 'x' },
    });
    expect((await browser.post('/api/password-reset/reset', { token, password: 'Fresh-Start-2026' })).statusCode).toBe(
      200,
    );

    const text = log.lines.map((line) => JSON.stringify(line)).join('\n');
    expect(log.lines.length).toBeGreaterThan(5);
    expect(text).not.toContain(token);
    expect(text).not.toContain('$argon2id');
    expect(text).not.toContain('Quiet-Water-42');
    expect(text).toContain('/api/password-reset/verify/[redacted]');
    expect(text).toContain('/reset-password?token=[redacted]');
  });
});
