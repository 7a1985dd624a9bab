import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, test } from 'vitest';
import * as z from 'zod/mini';
import { loadFastSerializers, responseSerializerCompiler } from './response-serializer.ts';

const Account = z.object({
  id: z.string(),
  role: z.enum(['user', 'admin']),
  balance: z.int(),
  nickname: z.nullable(z.string()),
  card: z.nullable(z.object({ brand: z.string(), last4: z.string() })),
  tags: z.array(z.string()),
  specifications: z.record(z.string(), z.string()),
  history: z.array(z.object({ at: z.string(), note: z.optional(z.string()) })),
});
const Me = z.discriminatedUnion('authenticated', [
  z.object({ authenticated: z.literal(false) }),
  z.object({ authenticated: z.literal(true), user: z.object({ id: z.string(), email: z.string() }) }),
]);

const route = (schema: z.core.$ZodType) => ({ schema, method: 'GET', url: '/test', httpStatus: '200' });

/** An account as a service might return it: with columns the answer must never carry. */
const row = {
  id: 'a1',
  role: 'admin',
  balance: 1250,
  nickname: 'Quiet "reader" \u2028',
  card: { brand: 'visa', last4: '4242', fingerprint: 'secret-fingerprint' },
  tags: ['calm', 'desk'],
  specifications: { Material: 'Stone', 'Size (cm)': '12 × 8' },
  history: [{ at: '2026-12-07T10:00:00.000Z', note: 'first' }, { at: '2026-12-07T11:00:00.000Z' }],
  passwordHash: '$argon2id$secret',
};

describe('response serializer', () => {
  test('before fast-json-stringify is loaded, zod checks each value: a wrong one is refused', () => {
    const serialize = responseSerializerCompiler(route(Account));
    expect(() => serialize({ ...row, balance: 'many' })).toThrow();
    expect(JSON.parse(serialize(row))).not.toHaveProperty('passwordHash');
  });

  test('once loaded, writes what zod writes: the declared properties only, in any nesting', async () => {
    await loadFastSerializers();
    const serialize = responseSerializerCompiler(route(Account));
    const written = serialize(row);
    expect(written).toBe(zodSerializerCompiler(route(Account))(row));
    expect(written).not.toContain('secret');
    expect(JSON.parse(written).card).toEqual({ brand: 'visa', last4: '4242' });
    const empty = { ...row, nickname: null, card: null, tags: [], specifications: {}, history: [] };
    expect(serialize(empty)).toBe(zodSerializerCompiler(route(Account))(empty));
    // The compiled serializer trusts the types (TypeScript checked them): it writes, zod refused.
    expect(JSON.parse(serialize({ ...row, balance: '12' })).balance).toBe(12);
  });

  test('once loaded, a union answers by its branch, and a missing property is refused', async () => {
    await loadFastSerializers();
    const serialize = responseSerializerCompiler(route(Me));
    const signedIn = { authenticated: true, user: { id: 'u1', email: 'a@b.test', passwordHash: 'x' } };
    expect(JSON.parse(serialize(signedIn))).toEqual({ authenticated: true, user: { id: 'u1', email: 'a@b.test' } });
    expect(JSON.parse(serialize({ authenticated: false, user: { id: 'u1' } }))).toEqual({ authenticated: false });
    const { id: _, ...withoutId } = row;
    expect(() => responseSerializerCompiler(route(Account))(withoutId)).toThrow();
  });
});
