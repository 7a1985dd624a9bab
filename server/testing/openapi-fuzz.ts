/**
 * The pieces of the OpenAPI-driven fuzz suite (server/http/openapi-fuzz.test.ts): fast-check
 * arbitraries made from the document's schemas, valid and schema-violating, the response checks
 * (no leak, the declared schema respected) and a guard that keeps every request off the network.
 *
 * No maintained library turns JSON Schema into fast-check arbitraries (json-schema-fast-check
 * needs fast-check 1, zod-fast-check needs zod 3), so this covers what the document uses: type,
 * properties, required, enum, const, lengths, ranges (OpenAPI 3.0's boolean exclusiveMinimum
 * too), pattern (fc.stringMatching), formats, items, anyOf/oneOf and nullable.
 */
import net from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import * as z from 'zod';

export type SchemaObject = {
  type?: string;
  properties?: Record<string, SchemaObject>;
  required?: string[];
  additionalProperties?: boolean | SchemaObject;
  items?: SchemaObject;
  enum?: unknown[];
  const?: unknown;
  anyOf?: SchemaObject[];
  oneOf?: SchemaObject[];
  allOf?: SchemaObject[];
  nullable?: boolean;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  pattern?: string;
  format?: string;
};
export type Parameter = { in: string; name: string; required?: boolean; schema?: SchemaObject };
export type Operation = {
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: SchemaObject }> };
  responses?: Record<string, { content?: Record<string, { schema?: SchemaObject }> }>;
};
export type OpenApiDocument = { openapi: string; paths: Record<string, Record<string, Operation>> };

/** FUZZ_SEED and FUZZ_REQUESTS: a failure reproduces with the seed it printed. */
export function fuzzSettings() {
  const settings = z
    .object({
      FUZZ_SEED: z.coerce.number().int().default(1616),
      FUZZ_REQUESTS: z.coerce.number().int().min(1).max(1_000_000).default(10_000),
    })
    .parse(process.env);
  return { seed: settings.FUZZ_SEED, requests: settings.FUZZ_REQUESTS };
}

/**
 * A value known to the running shop (a product's id, the sender's own password), chosen by
 * index when the requests are generated and looked up when one is sent: the ids differ from
 * one seeded database to the next, the generated requests do not.
 */
export class PoolRef {
  readonly pool: string;
  readonly index: number;
  constructor(pool: string, index: number) {
    this.pool = pool;
    this.index = index;
  }
}
/** Which pool, if any, feeds a property or parameter of this name. */
export type PoolFor = (name: string) => string | undefined;

/** The largest arrays and strings valid values get: bigger is slower, not more telling. */
const ARRAY_CAP = 3;
const STRING_CAP = 40;

const defined = <T>(value: T | undefined): value is T => value !== undefined;

function lowerBound(schema: SchemaObject): number | undefined {
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum;
  return schema.minimum;
}

/** Valid values for a schema; properties with a pool take a known value most of the time. */
export function validValue(
  schema: SchemaObject,
  poolFor: PoolFor = () => undefined,
  name?: string,
): fc.Arbitrary<unknown> {
  const pool = name === undefined ? undefined : poolFor(name);
  const own = schemaValue(schema, poolFor);
  const value = pool
    ? fc.oneof(
        { weight: 3, arbitrary: fc.nat(999).map((index) => new PoolRef(pool, index)) },
        { weight: 1, arbitrary: own },
      )
    : own;
  return schema.nullable
    ? fc.oneof({ weight: 4, arbitrary: value }, { weight: 1, arbitrary: fc.constant(null) })
    : value;
}

function schemaValue(schema: SchemaObject, poolFor: PoolFor): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => validValue(alternative, poolFor)));
  switch (schema.type ?? (schema.properties ? 'object' : undefined)) {
    case 'string':
      return stringValue(schema);
    case 'integer': {
      const exclusiveMin = schema.exclusiveMinimum === true ? 1 : 0;
      const exclusiveMax = schema.exclusiveMaximum === true ? 1 : 0;
      const min = Math.max(Number.MIN_SAFE_INTEGER, Math.ceil(lowerBound(schema) ?? -1e6) + exclusiveMin);
      const max = Math.min(Number.MAX_SAFE_INTEGER, Math.floor(schema.maximum ?? 1e6) - exclusiveMax);
      // Small numbers are where pages, limits and quantities live.
      return fc.oneof(fc.integer({ min, max: Math.min(max, Math.max(min, 0) + 100) }), fc.integer({ min, max }));
    }
    case 'number':
      return fc.double({
        min: lowerBound(schema) ?? -1e9,
        max: schema.maximum ?? 1e9,
        noNaN: true,
        noDefaultInfinity: true,
        minExcluded: schema.exclusiveMinimum === true,
        maxExcluded: schema.exclusiveMaximum === true,
      });
    case 'boolean':
      return fc.boolean();
    case 'array': {
      const minLength = schema.minItems ?? 0;
      const maxLength = Math.min(schema.maxItems ?? ARRAY_CAP, Math.max(minLength, ARRAY_CAP));
      return fc.array(validValue(schema.items ?? {}, poolFor), { minLength, maxLength });
    }
    case 'object': {
      const properties = schema.properties ?? {};
      const record = Object.fromEntries(
        Object.entries(properties).map(([key, property]) => [key, validValue(property, poolFor, key)]),
      );
      return fc.record(record, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

function stringValue(schema: SchemaObject): fc.Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? Math.max(minLength, STRING_CAP);
  const fits = (value: string) => value.length >= minLength && value.length <= maxLength;
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  switch (schema.format) {
    case 'email':
      return fc.emailAddress().filter(fits);
    case 'uuid':
      return fc.uuid();
    case 'date-time':
      return fc
        .date({ min: new Date('2000-01-01'), max: new Date('2100-01-01'), noInvalidDate: true })
        .map((date) => date.toISOString());
    case 'uri':
      return fc.webUrl().filter(fits);
  }
  const cap = Math.min(maxLength, Math.max(minLength, STRING_CAP));
  // Mostly ASCII; now and then any Unicode, whose graphemes are one or more UTF-16 units long.
  return fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength, maxLength: cap }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: cap }).filter(fits) },
  );
}

const HUGE = 'h'.repeat(100_000);

/**
 * Values that break the schema one way or another: wrong type, out of range, odd characters (a
 * few, such as -1, only break the schemas that bound them).
 */
export function invalidValue(schema: SchemaObject): fc.Arbitrary<unknown> {
  const type = schema.type;
  const options: unknown[] = [
    HUGE,
    '\u0000',
    'nul\u0000inside',
    '\ud800',
    { nested: { deeper: [1, 'x'] } },
    [null],
    -1,
    1e308,
    true,
  ];
  if (!schema.nullable) options.push(null);
  if (schema.enum) options.push('not-one-of-the-values');
  if (type === 'string') {
    if (defined(schema.maxLength)) options.push('m'.repeat(schema.maxLength + 1));
    if ((schema.minLength ?? 0) > 0) options.push('');
    if (schema.pattern || schema.format) options.push('does not match!');
    options.push(12345);
  }
  if (type === 'integer' || type === 'number') {
    if (defined(schema.maximum)) options.push(schema.maximum + 1);
    const min = lowerBound(schema);
    if (defined(min)) options.push(min - 1);
    if (defined(min) && schema.exclusiveMinimum !== undefined && schema.exclusiveMinimum !== false) options.push(min);
    options.push(1.5, '12', -0, Number.MAX_SAFE_INTEGER + 2);
  }
  if (type === 'array') {
    if ((schema.minItems ?? 0) > 0) options.push([]);
    if (defined(schema.maxItems)) options.push(Array.from({ length: schema.maxItems + 1 }, () => 'i'));
    options.push(['\u0000', 42, {}], 'not an array');
  }
  if (type === 'object') options.push({}, [], 'not an object');
  return fc.constantFrom(...options);
}

/** Raw values for a URL (already percent-encoded where that is the point). */
export const ODD_URL_VALUES = [
  '%00',
  '%FF%FE',
  '%C0%AE',
  'u'.repeat(5000),
  '%2E',
  '..%2F..%2Fetc%2Fpasswd',
  '%20',
  '-1',
  '1e999',
  '0x10',
  '%5B%5D',
  '%E6%97%A5%E6%9C%AC',
  '%7B%7D',
  "'%20OR%201%3D1--",
];

/** Whole request bodies no route accepts, as raw text. */
export const ODD_BODIES = [
  'null',
  '[]',
  '"text"',
  '42',
  '{"a":',
  '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"x":1}}}',
  `${'{"a":'.repeat(2000)}{}${'}'.repeat(2000)}`,
  `${'['.repeat(2000)}${']'.repeat(2000)}`,
  '\u0000',
  '',
];

/** What a body must never carry: a stack frame or a path of the server's files. */
const LEAKS: [string, RegExp][] = [
  ['stack trace', /\n\s+at .+\(.+:\d+:\d+\)/],
  ['file path /work/', /\/work\//],
  ['file URL', /file:\/\//],
  ['node_modules', /node_modules/],
  ['TypeScript source position', /\.ts:/],
];

export function leaksIn(body: string): string[] {
  return LEAKS.filter(([, pattern]) => pattern.test(body)).map(([name]) => name);
}

/**
 * OpenAPI 3.0's schema dialect as the JSON Schema Ajv reads: nullable becomes a null type (or
 * an alternative), a boolean exclusiveMinimum a numeric one, and zod's starts_with format (a
 * pattern says the same) goes.
 */
export function toJsonSchema(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(toJsonSchema);
  if (!schema || typeof schema !== 'object') return schema;
  const { nullable, exclusiveMinimum, exclusiveMaximum, ...rest } = schema as SchemaObject & Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(rest)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, property]) => [name, toJsonSchema(property)]));
    } else out[key] = toJsonSchema(value);
  }
  if (out.format === 'starts_with') delete out.format;
  if (exclusiveMinimum === true && defined(rest.minimum)) {
    out.exclusiveMinimum = rest.minimum;
    delete out.minimum;
  } else if (typeof exclusiveMinimum === 'number') out.exclusiveMinimum = exclusiveMinimum;
  if (exclusiveMaximum === true && defined(rest.maximum)) {
    out.exclusiveMaximum = rest.maximum;
    delete out.maximum;
  } else if (typeof exclusiveMaximum === 'number') out.exclusiveMaximum = exclusiveMaximum;
  if (!nullable) return out;
  if (typeof out.type === 'string' && !out.enum) return { ...out, type: [out.type, 'null'] };
  return { anyOf: [out, { type: 'null' }] };
}

/** Checks a body against a declared schema: null when it fits, else every error, '; ' between them. */
export function createResponseValidator() {
  const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
  // A CommonJS module: its default import is the module, whose `default` is the plugin.
  addFormats.default(ajv);
  const compiled = new Map<SchemaObject, ValidateFunction>();
  return (schema: SchemaObject, body: unknown): string | null => {
    let validate = compiled.get(schema);
    if (!validate) {
      validate = ajv.compile(toJsonSchema(schema) as object);
      compiled.set(schema, validate);
    }
    if (validate(body)) return null;
    return ajv.errorsText(validate.errors, { dataVar: 'body', separator: '; ' });
  };
}

/** The JSON schema an operation declares for a status, or null when it declares none. */
export function declaredSchema(operation: Operation, status: number): SchemaObject | null {
  const response = operation.responses?.[String(status)] ?? operation.responses?.[`${String(status)[0]}XX`];
  return response?.content?.['application/json']?.schema ?? null;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '::1', '']);

/**
 * Refuses every outgoing connection except to this machine (PostgreSQL, Redis) and records
 * where it was headed: the adapters in tests are stand-ins, and this makes sure of it.
 */
export function blockNetwork() {
  const attempts: string[] = [];
  const original = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
    const [first, second] = args;
    const options =
      first && typeof first === 'object' ? (first as { host?: string; path?: string; port?: number }) : {};
    const host = typeof first === 'object' ? options.host : typeof second === 'string' ? second : undefined;
    const toSocketFile = typeof first === 'string' || defined(options.path);
    if (toSocketFile || LOOPBACK.has(host ?? '')) return original.apply(this, args as never);
    attempts.push(`${host}:${options.port ?? first}`);
    process.nextTick(() => this.destroy(new Error(`the fuzz suite allows no network: ${host}`)));
    return this;
  } as typeof original;
  return {
    attempts,
    restore: () => {
      net.Socket.prototype.connect = original;
    },
  };
}
