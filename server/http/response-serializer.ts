import type fastJsonStringify from 'fast-json-stringify';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { $ZodType, toJSONSchema } from 'zod/v4/core';

type Stringify = (data: unknown) => string;
type RouteSchema = Parameters<typeof zodSerializerCompiler>[0];

/** fast-json-stringify, once loaded (loadFastSerializers). */
let buildStringify: typeof fastJsonStringify | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads fast-json-stringify (and Ajv with it: about 50 ms of the event loop), after which each
 * route's answers are written by a serializer compiled from its schema on the route's first
 * answer. Not at start: the shop's first page does not wait for it (issue 15's cold start).
 */
export function loadFastSerializers(): Promise<void> {
  loading ??= import('fast-json-stringify').then((module) => {
    buildStringify = module.default;
  });
  return loading;
}

/**
 * Fastify's serializer for an answer with a zod schema. Both ways write only the schema's
 * properties (a row's other columns, a password hash among them, never leave the server):
 * - zod's (fastify-type-provider-zod): encodes the answer with the schema, which checks every
 *   value and builds a copy, then JSON.stringify. A page of ten admin products: 64 µs, and a third
 *   of the memory the request allocates;
 * - fast-json-stringify's, compiled from the schema's JSON Schema: writes the declared properties
 *   straight into the JSON (20 µs), trusting their types to the compiler's checks of the code that
 *   builds them.
 * A route uses zod's until fast-json-stringify is loaded, and keeps it if its schema does not compile.
 */
export function responseSerializerCompiler(route: RouteSchema): Stringify {
  const checked = zodSerializerCompiler(route);
  const schema = route.schema;
  // undefined: not compiled yet; null: its schema does not compile, zod's serializer stays.
  let fast: Stringify | null | undefined;
  return (data) => {
    if (fast === undefined && buildStringify) fast = compile(buildStringify, schema);
    return fast ? fast(data) : checked(data);
  };
}

function compile(build: typeof fastJsonStringify, schema: unknown): Stringify | null {
  if (!(schema instanceof $ZodType)) return null;
  try {
    const jsonSchema = toJSONSchema(schema, { io: 'output', target: 'draft-7', unrepresentable: 'any' });
    return build(withoutClosedObjects(jsonSchema) as Parameters<typeof fastJsonStringify>[0]);
  } catch {
    return null;
  }
}

/**
 * The schema without `additionalProperties: false`: fast-json-stringify writes an object's
 * declared properties only either way, but it picks a union's branch (a nullable object is one)
 * by validating the value against each, and a row's other columns would then match neither.
 */
function withoutClosedObjects(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withoutClosedObjects);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key, value]) => !(key === 'additionalProperties' && value === false))
      .map(([key, value]) => [key, withoutClosedObjects(value)]),
  );
}
