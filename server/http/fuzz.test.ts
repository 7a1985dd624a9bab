import { describe, expect, test, vi } from 'vitest';
import { buildTestApp, csrfHeaders, type TestApp } from '#server/testing/test-app.ts';
import { testClient } from '#server/testing/test-client.ts';

/**
 * Regression for "no 500 for odd input": every route of the OpenAPI document and the pages get
 * odd path segments, query values, bodies and headers, and none may answer with a 5xx. Needs
 * `npm run build` (pages are part of the run).
 */
const { app } = await buildTestApp({ web: 'production' });

/** Odd values as they appear in a URL (already percent-encoded where that is the point). */
const ODD_URL_VALUES = [
  '%00', // NUL
  '%FF%FE', // invalid UTF-8
  '%C0%AE', // overlong encoding of '.'
  'a'.repeat(5000),
  '.',
  '%2E', // inject normalizes a bare '.' segment away; encoded, it reaches the route
  '%20',
  '..%2F',
  '日本',
  '-1',
  '1e999',
  '[]',
];

/** Odd values for one JSON property. */
const ODD_PROPERTY_VALUES: unknown[] = ['\u0000', '\ud800', 'b'.repeat(100_000), 42, null, ['x'], { x: 'y' }];

/** Whole bodies that are not the object any route expects, as raw JSON text. */
const ODD_JSON_BODIES = [
  'null',
  '[]',
  '"str"',
  '{"__proto__":{"isAdmin":true}}',
  `${'{"a":'.repeat(5000)}{}${'}'.repeat(5000)}`,
  `${'['.repeat(5000)}${']'.repeat(5000)}`,
  '',
];

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const ALL_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'TRACE', 'PATCH'] as const;

type Case = {
  method: string;
  url: string;
  headers?: Record<string, string>;
  payload?: string;
  /** Whose cookies go with the request. */
  as: 'visitor' | 'user';
  /** The OpenAPI operation it exercises ("GET /api/products/{id}"), for API cases. */
  operation?: string;
};

type Failure = { method: string; url: string; as: string; headers: string; body: string; status: string };

/** Each request gets its own client address, so the per-client rate limits never answer for the app. */
let requestCounter = 0;
const nextAddress = () => {
  requestCounter += 1;
  return `10.9.${(requestCounter >> 8) & 255}.${requestCounter & 255}`;
};
/** Unique, valid-looking values so generated accounts never collide with each other. */
let uniqueCounter = 0;
const unique = () => (++uniqueCounter).toString(36);

/** Shortens long strings and payloads so the failure report stays readable. */
function summarize(text: string | undefined): string {
  if (text === undefined) return '';
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > 120 ? `${escaped.slice(0, 60)}…(${text.length} chars)…${escaped.slice(-30)}` : escaped;
}

/** Runs the cases eight at a time and returns every one that answered 5xx, threw or hung. */
async function runAll(target: TestApp, cases: Case[], sessions: Record<Case['as'], Record<string, string>>) {
  const failures: Failure[] = [];
  let next = 0;
  async function worker() {
    while (next < cases.length) {
      const item = cases[next++] as Case;
      const session = sessions[item.as];
      // A case's own cookie header replaces the session's: odd cookies are the point there.
      const headers = { ...session, ...item.headers };
      let status: string;
      try {
        const response = await withTimeout(
          target.inject({
            method: item.method as 'GET',
            url: item.url,
            headers,
            remoteAddress: nextAddress(),
            ...(item.payload === undefined ? {} : { payload: item.payload }),
          }),
          15_000,
        );
        if (response.statusCode < 500) continue;
        status = String(response.statusCode);
      } catch (error) {
        status = `threw ${(error as Error).message}`;
      }
      failures.push({
        method: item.method,
        url: summarize(item.url),
        as: item.as,
        headers: Object.entries(item.headers ?? {})
          .filter(
            ([name]) => name !== 'x-csrf-token' && !(name === 'cookie' && item.headers?.[name] === session.cookie),
          )
          .map(([name, value]) => `${name}: ${summarize(value)}`)
          .join(', '),
        body: item.payload === undefined ? '' : `${headers['content-type'] ?? ''} ${summarize(item.payload)}`,
        status,
      });
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker));
  return failures;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** One line per distinct failure, sorted, with how many times it occurred. */
function report(failures: Failure[]): string {
  const lines = new Map<string, number>();
  for (const f of failures) {
    const headers = f.headers ? ` {${f.headers}}` : '';
    const line = `${f.status} ${f.method} ${f.url} [${f.as}]${headers}${f.body ? ` body: ${f.body}` : ''}`;
    lines.set(line, (lines.get(line) ?? 0) + 1);
  }
  return [...lines]
    .map(([line, count]) => (count > 1 ? `${line} (×${count})` : line))
    .sort()
    .join('\n');
}

type JsonSchema = { type?: string; properties?: Record<string, JsonSchema>; $ref?: string };
type Operation = {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
};
type OpenApi = {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** A plausible value per path parameter, so odd query values reach the handler behind them. */
const PATH_BASELINE: Record<string, string> = {
  id: 'desktop-fountain',
  productId: 'desktop-fountain',
  term: 'fountain',
  token: 'a'.repeat(43),
  '*': 'fuzz',
};

/** The OpenAPI path with plausible values, or the given odd ones, for its parameters. */
const fillPath = (template: string, odd: Record<string, string> = {}) =>
  template.replace(/\{([^}]+)\}/g, (_, name: string) => odd[name] ?? PATH_BASELINE[name] ?? 'x');

type Account = { email: string; password: string };

/** A valid-looking value per body property, so one odd property at a time is what gets judged. */
function baselineValue(name: string, schema: JsonSchema, user: Account | null): unknown {
  if (/password/i.test(name)) return user?.password ?? 'Quiet-Water-42';
  // Fresh addresses and names: generated accounts never collide with each other.
  if (name === 'email') return user?.email ?? `fuzz.${unique()}@example.com`;
  if (name === 'username') return `fuzz_${unique()}`;
  if (name === 'token') return 'a'.repeat(43);
  const type = schema.type ?? 'string';
  if (type === 'number' || type === 'integer') return 1;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  return type === 'object' ? {} : 'x';
}

function resolveSchema(doc: OpenApi, schema: JsonSchema): JsonSchema {
  return schema.$ref ? (doc.components?.schemas?.[schema.$ref.split('/').pop() ?? ''] ?? {}) : schema;
}

function bodyProperties(doc: OpenApi, operation: Operation): [string, JsonSchema][] {
  const schema = resolveSchema(doc, operation.requestBody?.content['application/json']?.schema ?? {});
  return Object.entries(schema.properties ?? {}).map(([name, property]) => [name, resolveSchema(doc, property)]);
}

function baselineBody(doc: OpenApi, operation: Operation, user: Account | null): Record<string, unknown> {
  return Object.fromEntries(bodyProperties(doc, operation).map(([name, p]) => [name, baselineValue(name, p, user)]));
}

/** Every operation of the OpenAPI document with odd path values, query values and bodies. */
function apiCases(doc: OpenApi, as: Case['as'], csrf: Record<string, string>, user: Account | null): Case[] {
  const cases: Case[] = [];
  for (const [template, operations] of Object.entries(doc.paths)) {
    for (const [lowerMethod, operation] of Object.entries(operations)) {
      const method = lowerMethod.toUpperCase();
      // Signing out mid-run would turn the rest of the signed-in run into a visitor's.
      if (as === 'user' && template === '/api/auth/logout') continue;
      // The pages' catch-all: the page sweep covers it with page addresses.
      if (template === '/{*}') continue;
      const parameters = operation.parameters ?? [];
      const unsafe = STATE_CHANGING.has(method);
      const headers = unsafe ? csrf : {};
      const add = (url: string, extra: Partial<Case> = {}) =>
        cases.push({ method, url, as, operation: `${method} ${template}`, headers, ...extra });

      for (const { name } of parameters.filter((p) => p.in === 'path')) {
        for (const value of ODD_URL_VALUES) add(fillPath(template, { [name]: value }));
      }
      for (const { name } of parameters.filter((p) => p.in === 'query')) {
        for (const value of ODD_URL_VALUES) add(`${fillPath(template)}?${name}=${value}`);
        add(`${fillPath(template)}?${name}=a&${name}=b`);
      }
      // Fastify answers HEAD for every GET route without listing it.
      if (method === 'GET') add(fillPath(template), { method: 'HEAD' });
      if (!unsafe) continue;

      const url = fillPath(template);
      const json = { ...csrf, 'content-type': 'application/json' };
      for (const [name] of bodyProperties(doc, operation)) {
        for (const value of ODD_PROPERTY_VALUES) {
          add(url, {
            headers: json,
            payload: JSON.stringify({ ...baselineBody(doc, operation, user), [name]: value }),
          });
        }
      }
      for (const body of ODD_JSON_BODIES) add(url, { headers: json, payload: body });
      add(url, { headers: { ...csrf, 'content-type': 'text/plain' }, payload: 'plain text' });
      add(url, { headers: { ...csrf, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'a=%FF&b' });
      add(url, { headers: { ...csrf, 'content-type': 'multipart/form-data' }, payload: '--x\r\n' });
      // Without a valid CSRF token the request should stop at the check, whatever it carries.
      const plainBody = JSON.stringify(baselineBody(doc, operation, user));
      add(url, { headers: { 'content-type': 'application/json' }, payload: plainBody });
      add(url, { headers: { 'content-type': 'application/json', 'x-csrf-token': '%00' }, payload: '[]' });
    }
  }
  return cases;
}

/** The pages, with odd segments and query values, every method, and odd headers. */
function pageCases(as: Case['as'], csrf: Record<string, string>): Case[] {
  const fixed = [
    '/',
    '/products',
    '/account',
    '/account?tab=%00',
    '/logout',
    '/cart',
    '//',
    '///x',
    '/%00',
    '/%FF',
    `/${'p'.repeat(3000)}`,
    '/media/products',
    '/media/products/',
    `/media/${'m'.repeat(3000)}.webp`,
    '/login?redirect=/account/日本',
    '/login?redirect=%00',
    '/login?redirect=//evil.example',
    '/login?redirect=/%2F%2Fevil.example',
  ];
  // Templates for one odd value; the signed-in run takes those whose page depends on the visitor.
  const templates: [(value: string) => string, boolean][] = [
    [(v) => `/products?search=${v}`, false],
    [(v) => `/products?category=${v}`, false],
    [(v) => `/product/${v}`, true],
    [(v) => `/product/${v}/reviews`, true],
    [(v) => `/login?redirect=${v}`, true],
    [(v) => `/reset-password?token=${v}`, false],
    [(v) => `/media/${v}`, false],
    [(v) => `/assets/${v}`, false],
  ];
  const cases: Case[] = [];
  for (const url of fixed) {
    // GET /logout ends the session: the signed-in run must keep its own.
    if (!(as === 'user' && url === '/logout')) cases.push({ method: 'GET', url, as });
  }
  for (const [template, forUser] of templates) {
    if (as === 'user' && !forUser) continue;
    for (const value of ODD_URL_VALUES) cases.push({ method: 'GET', url: template(value), as });
  }
  if (as === 'user') return cases;

  // Every other method on a handful of pages: they meet the same few code paths, so more is slower, not better.
  const methodUrls = ['/', '/products', '/account', '/logout', '//', '/%00', '/%FF', `/${'p'.repeat(3000)}`];
  methodUrls.push('/media/products', '/assets/%00', '/product/%00', '/login?redirect=%00');
  for (const url of methodUrls) {
    for (const method of ALL_METHODS) {
      if (method === 'GET') continue;
      cases.push({ method, url, as, ...(method === 'HEAD' || method === 'OPTIONS' ? {} : { payload: 'x=1' }) });
    }
  }

  // A server reads header bytes as Latin-1, so UTF-8 in a header arrives as mojibake, never as
  // characters above U+00FF (which inject would otherwise hand over as they are).
  const received = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, Buffer.from(value).toString('latin1')]));
  const oddHeaders: Record<string, string>[] = [
    { cookie: 'sw_session=%00; sw_csrf=%FF%FE' },
    { cookie: 'sw_session=\u0001\u007f' },
    { cookie: `sw_session=${'s'.repeat(8000)}` },
    { cookie: `sw_csrf=${'c'.repeat(8000)}; ${'k'.repeat(4000)}=v` },
    { cookie: '=;;;=; =x; sw_session="unterminated' },
    { cookie: Array.from({ length: 500 }, (_, i) => `c${i}=${i}`).join('; ') },
    { 'accept-language': '日本;q=abc, *;q=-1, ,,;' },
    { 'accept-language': 'x'.repeat(5000) },
    { 'accept-encoding': 'br;q=nope, gzip;q=-1, *;q=2' },
    { accept: '*/*;q=abc, text/html;level=%00' },
    { host: 'bad host' },
    { host: '[::1' },
    { host: '日本.example:99999' },
    { 'if-none-match': '"%00", W/"x' },
    { 'user-agent': '\u00ff'.repeat(1000) },
  ];
  // /logout ends whatever session the odd cookie names.
  for (const url of ['/login', '/logout', '/api/auth/me', '/api/products']) {
    for (const headers of oddHeaders) cases.push({ method: 'GET', url, as, headers: received(headers) });
  }

  const contentTypes = [
    'application/json; charset=evil',
    'text/html',
    'multipart/form-data; boundary=',
    ';;;',
    'x/y/z',
  ];
  for (const url of ['/', '/login', '/api/auth/login', '/api/auth/logout']) {
    for (const type of contentTypes) {
      const headers = { ...(url.startsWith('/api/') ? csrf : {}), 'content-type': type };
      cases.push({ method: 'POST', url, as, headers, payload: '{"a":"\u0000"}' });
    }
  }
  return cases;
}

/** The operations a visitor gets a 401 from with plausible input: fuzzed signed in as well. */
async function signedInOperations(target: TestApp, doc: OpenApi, csrf: Record<string, string>) {
  const found = new Set<string>();
  for (const [template, operations] of Object.entries(doc.paths)) {
    if (template.includes('{*}')) continue;
    for (const [lowerMethod, operation] of Object.entries(operations)) {
      const method = lowerMethod.toUpperCase();
      const unsafe = STATE_CHANGING.has(method);
      const body = unsafe ? JSON.stringify(baselineBody(doc, operation, null)) : undefined;
      const response = await target.inject({
        method: method as 'GET',
        url: fillPath(template),
        headers: unsafe ? { ...csrf, 'content-type': 'application/json' } : {},
        remoteAddress: nextAddress(),
        ...(body === undefined ? {} : { payload: body }),
      });
      if (response.statusCode === 401) found.add(`${method} ${template}`);
    }
  }
  return found;
}

describe('odd input', () => {
  test('no route answers 5xx to odd paths, queries, bodies or headers', { timeout: 60_000 }, async () => {
    const doc = app.swagger() as unknown as OpenApi;
    expect(Object.keys(doc.paths).length).toBeGreaterThan(10);

    // A signed-in shopper reaches what refuses visitors with a 401.
    const shopper = testClient(app, { remoteAddress: '10.8.0.1' });
    const account = { username: 'fuzz_shopper', email: 'fuzz.shopper@example.com', password: 'Quiet-Water-42' };
    expect((await shopper.post('/api/auth/register', account)).statusCode).toBe(201);
    const token = (await shopper.get('/api/auth/csrf-token')).json().token as string;
    const userHeaders = {
      cookie: `sw_csrf=${shopper.cookie('sw_csrf')}; sw_session=${shopper.cookie('sw_session')}`,
      'x-csrf-token': token,
    };
    const visitorHeaders = await csrfHeaders(app);
    const sessions = { visitor: { cookie: visitorHeaders.cookie }, user: { cookie: userHeaders.cookie } };
    const signedIn = await signedInOperations(app, doc, visitorHeaders);
    expect(signedIn.size).toBeGreaterThan(2);

    // One group after the other, each eight requests at a time.
    const groups = [
      apiCases(doc, 'visitor', visitorHeaders, null),
      apiCases(doc, 'user', userHeaders, account).filter((c) => signedIn.has(c.operation ?? '')),
      pageCases('visitor', visitorHeaders),
      pageCases('user', userHeaders),
    ];
    // React Router logs every refused method and missing route: the report below is what counts.
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
    const cases: Case[] = [];
    const failures: Failure[] = [];
    for (const group of groups) {
      failures.push(...(await runAll(app, group, sessions)));
      cases.push(...group);
    }
    consoleError.mockRestore();
    expect(failures.length, `${failures.length} of ${cases.length} requests failed:\n${report(failures)}`).toBe(0);
    // The session must have lasted the whole run, or the signed-in part tested a visitor.
    expect((await shopper.get('/api/auth/me')).json()).toMatchObject({ authenticated: true });
  });

  test('NUL bytes and invalid UTF-8 are refused with a 400 naming the field', async () => {
    const csrf = { ...(await csrfHeaders(app)), 'content-type': 'application/json' };
    const loginWith = (email: Buffer) =>
      Buffer.concat([Buffer.from('{"email":"'), email, Buffer.from('","password":"x"}')]);
    // A path that does not decode is refused by the router before any route: the whole URL is
    // malformed (code bad_url, no field); everything else names its field.
    const requests: [string, string, Buffer | undefined, string | undefined][] = [
      ['GET', '/api/products?category=%00', undefined, 'category'],
      ['GET', '/api/products?category=%FF%FE', undefined, 'category'],
      ['GET', '/api/products?category=%C0%AE', undefined, 'category'],
      ['GET', '/api/products/%00', undefined, 'id'],
      ['GET', '/api/products/%FF%FE', undefined, undefined],
      ['GET', '/api/reviews/rating/%00', undefined, 'id'],
      ['GET', '/api/reviews/rating/%FF%FE', undefined, undefined],
      ['POST', '/api/auth/login', loginWith(Buffer.from('\\u0000')), 'email'],
      // Raw bytes that are not UTF-8 inside the JSON text.
      ['POST', '/api/auth/login', loginWith(Buffer.from([0xff, 0xfe])), 'email'],
    ];
    // One table, so a run shows every request that is not refused yet.
    const answers = [];
    for (const [method, url, payload] of requests) {
      const response = await app.inject({
        method: method as 'GET',
        url,
        remoteAddress: nextAddress(),
        ...(payload ? { headers: csrf, payload } : {}),
      });
      const { code, field } = response.json();
      answers.push({
        request: `${method} ${url} ${payload?.toString('latin1') ?? ''}`,
        status: response.statusCode,
        code,
        field,
      });
    }
    expect(answers).toEqual(
      requests.map(([method, url, payload, field]) => ({
        request: `${method} ${url} ${payload?.toString('latin1') ?? ''}`,
        status: 400,
        code: field ? 'invalid_input' : 'bad_url',
        field,
      })),
    );
  });
});
