import fc from 'fast-check';
import type { Response as InjectResponse } from 'light-my-request';
import { describe, expect, test } from 'vitest';
import {
  blockNetwork,
  createResponseValidator,
  declaredSchema,
  fuzzSettings,
  invalidValue,
  leaksIn,
  ODD_BODIES,
  ODD_URL_VALUES,
  type OpenApiDocument,
  type Operation,
  PoolRef,
  type SchemaObject,
  validValue,
} from '#server/testing/openapi-fuzz.ts';
import { signedInAs } from '#server/testing/signed-in.ts';
import { buildTestApp, csrfHeaders, type TestApp } from '#server/testing/test-app.ts';

/**
 * Issue 16: requests generated from the OpenAPI document at /api/docs/json, spread evenly over
 * every operation, as a visitor, a signed-in user and the owner, with valid inputs and
 * schema-violating ones. No answer may be a 5xx, carry a stack trace or a server file path, or
 * break the response schema its operation declares. FUZZ_SEED and FUZZ_REQUESTS change the run.
 */

const ROLES = ['visitor', 'user', 'owner'] as const;
type Role = (typeof ROLES)[number];
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const WITHOUT_BODY = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const CONCURRENCY = 4;

/** A value that goes into the URL as it is (percent-encoded where that is the point). */
class RawUrl {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
}

/** One generated request, before the sender's session and the pools' values are filled in. */
type Plan = {
  /** 'valid' or the mutation that broke it. */
  kind: string;
  path: Record<string, unknown>;
  query: [string, unknown][];
  headers: Record<string, string>;
  body: { json: unknown } | { raw: string } | undefined;
  contentType: string;
  csrf: boolean;
};

/**
 * Response-schema mismatches found and reported, not yet fixed: each is skipped for its
 * operations and status, and only when the error is this one. Declared schema wrong: see report.
 */
const KNOWN_MISMATCHES: { operations: string[]; status: number; error: string }[] = [
  // zod's email pattern admits domain labels that end in '-' ('a@b-.cc'), which the declared
  // format "email" refuses: the settings save such an address and then answer with it.
  {
    operations: ['POST /api/admin/settings', 'GET /api/admin/settings', 'GET /api/settings/public'],
    status: 200,
    error: 'must match format "email"',
  },
];

function knownMismatch(operation: string, status: number, errors: string) {
  return errors
    .split('; ')
    .every((error) =>
      KNOWN_MISMATCHES.some(
        (known) => known.status === status && known.operations.includes(operation) && error.endsWith(known.error),
      ),
    );
}

type OperationEntry = { key: string; method: string; template: string; operation: Operation };

/** The path segment before an `{id}` says what the id names. */
const ID_POOL_BY_SEGMENT: Record<string, string> = {
  products: 'product',
  'by-id': 'product',
  product: 'product',
  rating: 'product',
  'ai-analysis': 'product',
  'flash-sales': 'product',
  reviews: 'review',
  sales: 'sale',
  newsletter: 'subscriber',
  sends: 'send',
  users: 'user',
  'product-info': 'aliId',
  'product-skus': 'aliId',
};

function poolsFor(template: string) {
  const segments = template.split('/');
  const idSegment = segments[segments.indexOf('{id}') - 1] ?? '';
  const byName: Record<string, string> = {
    id: ID_POOL_BY_SEGMENT[idSegment] ?? 'product',
    productId: 'product',
    userId: 'user',
    aliId: 'aliId',
    targetId: 'product',
    reviewIds: 'review',
    category: 'category',
    categoryFilter: 'category',
    term: 'term',
    currentPassword: 'ownPassword',
    // Signing in as oneself (the generated passwords almost never match).
    password: template === '/api/auth/login' ? 'ownPassword' : '',
    email: template === '/api/auth/login' ? 'ownEmail' : '',
  };
  return (name: string) => byName[name] || undefined;
}

function bodySchema(operation: Operation): SchemaObject | undefined {
  return operation.requestBody?.content['application/json']?.schema;
}

/** The wildcard of a catch-all route: a few plain segments. */
const wildcardValue = fc
  .array(fc.stringMatching(/^[a-z0-9._-]{1,12}$/), { minLength: 1, maxLength: 3 })
  .map((segments) => new RawUrl(segments.map(encodeURIComponent).join('/')));

/** Valid requests for an operation, and each way of breaking one. */
function planArbitrary({ method, template, operation }: OperationEntry): fc.Arbitrary<Plan> {
  const poolFor = poolsFor(template);
  const parameters = operation.parameters ?? [];
  const inPath = parameters.filter((p) => p.in === 'path');
  const inQuery = parameters.filter((p) => p.in === 'query');
  const inHeader = parameters.filter((p) => p.in === 'header');
  const schema = bodySchema(operation);
  const canHaveBody = !WITHOUT_BODY.has(method);

  const valid = fc
    .record({
      path: fc.record(
        Object.fromEntries(
          inPath.map((p) => [p.name, p.name === '*' ? wildcardValue : validValue(p.schema ?? {}, poolFor, p.name)]),
        ),
      ),
      query: fc.record(Object.fromEntries(inQuery.map((p) => [p.name, validValue(p.schema ?? {}, poolFor, p.name)])), {
        requiredKeys: inQuery.filter((p) => p.required).map((p) => p.name),
      }),
      headers: fc.record(
        Object.fromEntries(inHeader.map((p) => [p.name, validValue(p.schema ?? {}, poolFor, p.name).map(String)])),
        { requiredKeys: inHeader.filter((p) => p.required).map((p) => p.name) },
      ),
      body: schema && canHaveBody ? validValue(schema, poolFor).map((json) => ({ json })) : fc.constant(undefined),
    })
    .map(
      ({ path, query, headers, body }): Plan => ({
        kind: 'valid',
        path,
        query: Object.entries(query),
        headers: headers as Record<string, string>,
        body,
        contentType: 'application/json',
        csrf: true,
      }),
    );

  type Mutation = fc.Arbitrary<(plan: Plan) => Plan>;
  const mutations: Mutation[] = [
    // Parameters nobody declared, with odd values.
    fc
      .tuple(fc.constantFrom('x', 'page', '__proto__', 'limit[]'), fc.constantFrom(...ODD_URL_VALUES))
      .map(([name, value]) => (plan) => ({
        ...plan,
        kind: 'query-extra',
        query: [...plan.query, [name, new RawUrl(value)]],
      })),
  ];
  if (inPath.length > 0) {
    mutations.push(
      fc
        .tuple(
          fc.constantFrom(...inPath),
          fc.oneof(
            fc.constantFrom(...ODD_URL_VALUES).map((value) => new RawUrl(value)),
            fc.constantFrom(...inPath).chain((p) => invalidValue(p.schema ?? {})),
          ),
        )
        .map(([p, value]) => (plan) => ({ ...plan, kind: 'path', path: { ...plan.path, [p.name]: value } })),
    );
  }
  if (inQuery.length > 0) {
    mutations.push(
      fc
        .constantFrom(...inQuery)
        .chain((p) =>
          fc.tuple(
            fc.constant(p),
            fc.oneof(
              fc.constantFrom(...ODD_URL_VALUES).map((value) => new RawUrl(value)),
              invalidValue(p.schema ?? {}),
            ),
          ),
        )
        .map(([p, value]) => (plan) => ({
          ...plan,
          kind: 'query',
          query: [...plan.query.filter(([name]) => name !== p.name), [p.name, value]],
        })),
      // The same parameter twice arrives as an array.
      fc.constantFrom(...inQuery).map((p) => (plan) => ({
        ...plan,
        kind: 'query-repeated',
        query: [...plan.query, [p.name, 'a'], [p.name, 'b']],
      })),
    );
    const required = inQuery.filter((p) => p.required);
    if (required.length > 0) {
      mutations.push(
        fc.constantFrom(...required).map((p) => (plan) => ({
          ...plan,
          kind: 'query-missing',
          query: plan.query.filter(([name]) => name !== p.name),
        })),
      );
    }
  }
  if (inHeader.length > 0) {
    mutations.push(
      fc
        .tuple(fc.constantFrom(...inHeader), fc.constantFrom('%00', 'x'.repeat(3000), '-1', '1e999', ''))
        .map(([p, value]) => (plan) => ({ ...plan, kind: 'header', headers: { ...plan.headers, [p.name]: value } })),
    );
  }
  if (canHaveBody) {
    mutations.push(
      fc.constantFrom(...ODD_BODIES).map((raw) => (plan) => ({ ...plan, kind: 'body-raw', body: { raw } })),
      fc
        .tuple(
          fc.constantFrom('text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'x/y'),
          fc.constantFrom('a=%FF&b', '--x\r\n', '{"a":1}'),
        )
        .map(([contentType, raw]) => (plan) => ({ ...plan, kind: 'content-type', contentType, body: { raw } })),
    );
    const properties = Object.entries(schema?.properties ?? {});
    if (properties.length > 0) {
      mutations.push(
        fc
          .constantFrom(...properties)
          .chain(([name, property]) => fc.tuple(fc.constant(name), invalidValue(property)))
          .map(([name, value]) => (plan) => ({
            ...plan,
            kind: 'body-property',
            body: { json: withProperty(plan, name, value) },
          })),
        fc.constantFrom('extra', '__proto__', 'constructor', 'h'.repeat(300)).map((name) => (plan) => ({
          ...plan,
          kind: 'body-extra',
          body: { json: withProperty(plan, name, 'h'.repeat(100_000)) },
        })),
      );
    }
    const required = schema?.required ?? [];
    if (required.length > 0) {
      mutations.push(
        fc.constantFrom(...required).map((name) => (plan) => {
          const { [name]: _, ...rest } = objectBody(plan);
          return { ...plan, kind: 'body-missing', body: { json: rest } };
        }),
      );
    }
  }
  if (STATE_CHANGING.has(method)) {
    mutations.push(fc.constant((plan: Plan) => ({ ...plan, kind: 'no-csrf', csrf: false })));
  }
  const invalid = fc.tuple(valid, fc.oneof(...mutations)).map(([plan, mutate]) => mutate(plan));
  return fc.oneof(valid, invalid);
}

function objectBody(plan: Plan): Record<string, unknown> {
  const json = plan.body && 'json' in plan.body ? plan.body.json : undefined;
  return json && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
}

function withProperty(plan: Plan, name: string, value: unknown) {
  // Assigned, not spread: '__proto__' must become an own property of the JSON text.
  const body = { ...objectBody(plan) };
  Object.defineProperty(body, name, { value, enumerable: true, configurable: true, writable: true });
  return body;
}

type Session = { headers: Record<string, string>; password: string; email: string; id: string };

/** Settings no generated body may change: they would turn the rest of the run into something else. */
function pinSettings(body: unknown) {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const pinned: Record<string, unknown> = { ...body };
  // A maintenance window answers 503 to everyone else (maintenance.test.ts covers it).
  if ('maintenanceMode' in pinned) pinned.maintenanceMode = false;
  // New sessions are registered when one dies.
  if ('allowRegistration' in pinned) pinned.allowRegistration = true;
  if ('requireEmailVerification' in pinned) pinned.requireEmailVerification = false;
  // A saved key switches to the real provider, which is on the network.
  for (const secret of ['stripePublishableKey', 'stripeSecretKey', 'aliexpressApiKey', 'aiApiKey'])
    delete pinned[secret];
  return pinned;
}

describe('OpenAPI fuzzing', () => {
  test('the checks catch what they look for', () => {
    const frame = 'Error: boom\n    at handler (/work/main/server/app.ts:12:3)';
    expect(leaksIn(frame)).toEqual(['stack trace', 'file path /work/', 'TypeScript source position']);
    expect(leaksIn('{"error":"Not found"}')).toEqual([]);
    const validate = createResponseValidator();
    const schema: SchemaObject = {
      type: 'object',
      properties: {
        count: { type: 'integer', minimum: 0, exclusiveMinimum: true, maximum: 100 },
        note: { type: 'string', nullable: true },
        key: {
          nullable: true,
          anyOf: [
            { type: 'string', enum: [''] },
            { type: 'string', pattern: '^pk_' },
          ],
        },
      },
      required: ['count', 'note'],
      additionalProperties: false,
    };
    expect(validate(schema, { count: 1, note: null, key: null })).toBeNull();
    expect(validate(schema, { count: 1, note: 'x', key: 'pk_1' })).toBeNull();
    expect(validate(schema, { count: 0, note: 'x' })).toMatch(/count/);
    expect(validate(schema, { count: 1, note: 1, key: 'sk_1' })).toMatch(/note.*; .*key/);
    expect(validate(schema, { count: 1 })).toMatch(/note/);
    expect(validate(schema, { count: 1, note: 'x', extra: 1 })).toMatch(/additional/);
    // Generated valid values pass the same validator; invalid ones do not.
    for (const value of fc.sample(validValue(schema), { seed: 1, numRuns: 50 }))
      expect(validate(schema, value)).toBeNull();
    const count = schema.properties?.count as SchemaObject;
    for (const value of fc.sample(invalidValue(count), { seed: 1, numRuns: 50 })) {
      expect(validate(count, value), JSON.stringify(value)).not.toBeNull();
    }
  });

  test('no 5xx, no leaks and the declared response schemas, for every operation and role', {
    timeout: 300_000,
  }, async () => {
    const { seed, requests: total } = fuzzSettings();
    console.info(`OpenAPI fuzz: seed ${seed}, ${total} requests (FUZZ_SEED, FUZZ_REQUESTS)`);
    const network = blockNetwork();
    const { app, database } = await buildTestApp();
    try {
      const docResponse = await app.inject({ method: 'GET', url: '/api/docs/json' });
      expect(docResponse.statusCode).toBe(200);
      const doc = docResponse.json() as OpenApiDocument;
      const operations: OperationEntry[] = Object.entries(doc.paths).flatMap(([template, methods]) =>
        Object.entries(methods).map(([lower, operation]) => ({
          key: `${lower.toUpperCase()} ${template}`,
          method: lower.toUpperCase(),
          template,
          operation,
        })),
      );
      expect(operations.length).toBeGreaterThan(50);

      const run = await fuzz(app, database.db, operations, seed, total);
      network.restore();
      const summary = [
        `seed ${seed}: ${run.sent} requests in ${(run.ms / 1000).toFixed(1)} s over ${operations.length} operations`,
        `by role: ${JSON.stringify(run.byRole)}; valid ${run.valid}, broken ${run.sent - run.valid}`,
        `statuses: ${JSON.stringify(run.statuses)}; bodies checked against their schema: ${run.schemaChecked}; sessions re-established: ${JSON.stringify(run.reestablished)}`,
        `operations never answered 2xx (${run.neverSucceeded.length}): ${run.neverSucceeded.join(', ')}`,
      ].join('\n');
      console.info(summary);
      const problems = [...run.violations.values()].map((v) => `${v.what} ×${v.count}\n    e.g. ${v.example}`);
      if (network.attempts.length > 0) problems.push(`network attempts: ${network.attempts.join(', ')}`);
      const perOperation = Object.entries(run.perOperation)
        .map(([key, count]) => `${key}: ${count}`)
        .join('\n');
      expect(
        problems,
        `${problems.length} kinds of violation (seed ${seed}):\n${problems.join('\n')}\n\n${summary}\n\nper operation:\n${perOperation}`,
      ).toEqual([]);
      expect(run.sent).toBe(total);
    } finally {
      network.restore();
    }
  });
});

type Violation = { what: string; count: number; example: string };

async function fuzz(
  app: TestApp,
  db: Parameters<typeof signedInAs>[1],
  operations: OperationEntry[],
  seed: number,
  total: number,
) {
  let addressCounter = 0;
  // Each request from its own address: the per-client rate limits never answer for the app.
  const nextAddress = () => {
    addressCounter += 1;
    return `10.16.${(addressCounter >> 8) & 255}.${addressCounter & 255}`;
  };

  // Sessions: a signed-in one is replaced by a new account when a request ends it or takes its role.
  const reestablished: Record<Role, number> = { visitor: 0, user: 0, owner: 0 };
  const sessions = {} as Record<Role, Session>;
  async function establish(role: Role) {
    if (role === 'visitor') {
      sessions.visitor = { headers: await csrfHeaders(app), password: '', email: '', id: '' };
      return;
    }
    const { browser, id, account } = await signedInAs(app, db, role);
    const token = (await browser.get('/api/auth/csrf-token')).json().token as string;
    sessions[role] = {
      headers: {
        cookie: `sw_csrf=${browser.cookie('sw_csrf')}; sw_session=${browser.cookie('sw_session')}`,
        'x-csrf-token': token,
      },
      password: account.password,
      email: account.email,
      id,
    };
  }
  for (const role of ROLES) await establish(role);
  const pending = new Map<Role, Promise<void>>();
  async function checkSession(role: Exclude<Role, 'visitor'>) {
    const current = sessions[role];
    const me = await app.inject({
      method: 'GET',
      url: '/api/auth/me',
      headers: { cookie: current.headers.cookie ?? '' },
    });
    const user = me.json().user as { role?: string } | undefined;
    if (user?.role === role || sessions[role] !== current) return;
    reestablished[role] += 1;
    await establish(role);
  }
  const recheck = (role: Role) => {
    if (role === 'visitor' || pending.has(role)) return pending.get(role);
    const check = checkSession(role).finally(() => pending.delete(role));
    pending.set(role, check);
    return check;
  };

  // What the pools' references stand for: ids of the seeded shop, read as the owner.
  const ownerGet = async (url: string) =>
    (await app.inject({ method: 'GET', url, headers: { cookie: sessions.owner.headers.cookie ?? '' } })).json();
  const products = (await ownerGet('/api/admin/products?limit=100')).products as {
    id: string;
    slug: string;
    aliId?: string;
  }[];
  const pools: Record<string, string[]> = {
    product: products.flatMap((p) => [p.id, p.slug]),
    aliId: products.flatMap((p) => (p.aliId ? [p.aliId] : [])),
    review: ((await ownerGet('/api/admin/reviews?limit=100')).reviews as { id: string }[]).map((r) => r.id),
    user: ((await ownerGet('/api/admin/users?limit=100')).users as { id: string }[]).map((u) => u.id),
    sale: ((await ownerGet('/api/sales?limit=100')).sales as { id: string }[]).map((s) => s.id),
    subscriber: ((await ownerGet('/api/admin/newsletter?limit=100')).subscribers as { id: string }[]).map((s) => s.id),
    send: ((await ownerGet('/api/admin/newsletter/sends')).sends as { id: string }[]).map((s) => s.id),
    category: ((await ownerGet('/api/categories')).categories as { slug?: string; name?: string }[]).map(
      (c) => c.slug ?? c.name ?? '',
    ),
    term: ['fountain', 'lamp', 'tea', 'calm'],
  };
  for (const [name, values] of Object.entries(pools)) expect(values.length, `pool ${name}`).toBeGreaterThan(0);
  const resolve = (value: unknown, session: Session): unknown => {
    if (value instanceof PoolRef) {
      if (value.pool === 'ownPassword') return session.password || 'Quiet-Water-42';
      if (value.pool === 'ownEmail') return session.email || 'nobody@example.com';
      const pool = pools[value.pool] ?? [];
      return pool[value.index % pool.length];
    }
    if (Array.isArray(value)) return value.map((item) => resolve(item, session));
    if (value && typeof value === 'object' && !(value instanceof RawUrl)) {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) {
        Object.defineProperty(out, key, {
          value: resolve(item, session),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return out;
    }
    return value;
  };
  const inUrl = (value: unknown): string => {
    if (value instanceof RawUrl) return value.text;
    if (value === null || value === undefined) return '';
    const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
    // A lone surrogate has no UTF-8: it goes as the bytes a careless client would send.
    return text.isWellFormed()
      ? encodeURIComponent(text)
      : encodeURIComponent(text.toWellFormed()).replaceAll('%EF%BF%BD', '%ED%A0%80');
  };

  // Each operation its share, generated from its own seed; sent round-robin, so every part of the
  // run meets every operation.
  const queues = operations.map((entry, index) => {
    const share = Math.floor(total / operations.length) + (index < total % operations.length ? 1 : 0);
    return fc.sample(planArbitrary(entry), { seed: seed + index, numRuns: share }).map((plan, n) => ({
      entry,
      plan,
      role: ROLES[(index + n) % ROLES.length] as Role,
    }));
  });
  const work: (typeof queues)[number] = [];
  for (let n = 0; work.length < total; n++) {
    for (const queue of queues) {
      const item = queue[n];
      if (item) work.push(item);
    }
  }

  const validate = createResponseValidator();
  const violations = new Map<string, Violation>();
  const perOperation: Record<string, number> = {};
  const succeeded = new Set<string>();
  const byRole: Record<Role, number> = { visitor: 0, user: 0, owner: 0 };
  const statuses: Record<string, number> = {};
  let valid = 0;
  let sent = 0;
  let schemaChecked = 0;

  async function send({ entry, plan, role }: (typeof work)[number]) {
    await pending.get(role);
    const session = sessions[role];
    const pathTexts: string[] = [];
    const url =
      entry.template.replace(/\{([^}]+)\}/g, (_, name: string) => {
        const text = inUrl(resolve(plan.path[name], session));
        pathTexts.push(text);
        return text;
      }) +
      (plan.query.length > 0
        ? `?${plan.query.map(([name, value]) => `${encodeURIComponent(name)}=${inUrl(resolve(value, session))}`).join('&')}`
        : '');
    const headers: Record<string, string> = { ...plan.headers, cookie: session.headers.cookie ?? '' };
    if (plan.csrf && STATE_CHANGING.has(entry.method)) headers['x-csrf-token'] = session.headers['x-csrf-token'] ?? '';
    let payload: string | undefined;
    if (plan.body) {
      headers['content-type'] = plan.contentType;
      if ('raw' in plan.body) payload = plan.body.raw;
      else {
        let json = resolve(plan.body.json, session);
        if (entry.template === '/api/admin/settings') json = pinSettings(json);
        payload = JSON.stringify(json);
      }
    }
    const request = `${entry.method} ${summarize(url)}${payload === undefined ? '' : ` ${summarize(payload)}`}`;
    const problem = (what: string, status: number | string, body: string) => {
      const key = `${entry.key} [${role}] ${status}: ${what}`;
      const known = violations.get(key);
      if (known) known.count += 1;
      else violations.set(key, { what: key, count: 1, example: `${request} (${plan.kind}) → ${body.slice(0, 200)}` });
    };

    sent += 1;
    byRole[role] += 1;
    perOperation[entry.key] = (perOperation[entry.key] ?? 0) + 1;
    if (plan.kind === 'valid') valid += 1;
    let response: InjectResponse;
    let text: string;
    try {
      response = await app.inject({
        method: entry.method as 'GET',
        url,
        headers,
        remoteAddress: nextAddress(),
        payloadAsStream: true,
        ...(payload === undefined ? {} : { payload }),
      });
      text = await readBody(response);
    } catch (error) {
      problem(`threw ${(error as Error).message}`, 'none', '');
      return;
    }
    const status = response.statusCode;
    const statusClass = `${String(status)[0]}xx`;
    statuses[statusClass] = (statuses[statusClass] ?? 0) + 1;
    if (status < 300) succeeded.add(entry.key);
    if (status >= 500) problem('5xx', status, text);
    for (const leak of leaksIn(text)) problem(`leaks a ${leak}`, status, text);
    const schema = declaredSchema(entry.operation, status);
    const type = String(response.headers['content-type'] ?? '');
    // An empty or dot segment is normalized away, and another route answers ('/api/products/' is the list).
    const routedElsewhere = pathTexts.some((text) => /^(\.|%2e){0,2}$/i.test(text));
    if (schema && !routedElsewhere && entry.method !== 'HEAD' && type.includes('application/json')) {
      schemaChecked += 1;
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = Symbol('not JSON');
      }
      const mismatch = typeof body === 'symbol' ? 'the body is not JSON' : validate(schema, body);
      if (mismatch && !knownMismatch(entry.key, status, mismatch)) {
        problem(`breaks the declared schema: ${mismatch.slice(0, 300)}`, status, text);
      }
    }

    if (role === 'visitor') return;
    // A session that a request rotated, ended or demoted is replaced before the next request.
    const touched = response.cookies.some((c) => c.name === 'sw_session' || c.name === 'sw_csrf');
    const sensitive = /^\/api\/(auth|admin-setup|admin\/users)\//.test(entry.template);
    if (touched || (sensitive && status < 400)) await recheck(role);
  }

  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < work.length) await send(work[next++] as (typeof work)[number]);
    }),
  );
  const ms = performance.now() - started;
  const neverSucceeded = operations.map((o) => o.key).filter((key) => !succeeded.has(key));
  return { sent, valid, schemaChecked, byRole, statuses, perOperation, violations, reestablished, ms, neverSucceeded };
}

/** The body as text; an event stream's first moments only, since it never ends by itself. */
async function readBody(response: InjectResponse): Promise<string> {
  const stream = response.stream();
  const chunks: Buffer[] = [];
  if (String(response.headers['content-type'] ?? '').startsWith('text/event-stream')) {
    const first = await Promise.race([
      new Promise<Buffer | null>((done) => stream.once('data', done)),
      new Promise<null>((done) => setTimeout(() => done(null), 200)),
    ]);
    stream.destroy();
    return first ? first.toString() : '';
  }
  for await (const chunk of stream) chunks.push(Buffer.from(chunk));
  return Buffer.concat(chunks).toString();
}

function summarize(text: string): string {
  const escaped = JSON.stringify(text).slice(1, -1);
  return escaped.length > 160 ? `${escaped.slice(0, 100)}…(${text.length} chars)…${escaped.slice(-40)}` : escaped;
}
