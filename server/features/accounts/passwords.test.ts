import { describe, expect, test } from 'vitest';
import { generatePassword, hashPassword, verifyPassword } from './passwords.ts';

describe('password hashing', () => {
  test('a hash verifies its own password and no other', async () => {
    const hash = await hashPassword('calm waters 42');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(await verifyPassword('calm waters 42', hash)).toBe(true);
    expect(await verifyPassword('calm waters 43', hash)).toBe(false);
  });

  test('the same password hashes differently each time (random salt)', async () => {
    expect(await hashPassword('same')).not.toBe(await hashPassword('same'));
  });

  test('a malformed stored hash never verifies', async () => {
    expect(await verifyPassword('x', 'not-a-hash')).toBe(false);
    expect(await verifyPassword('x', '$argon2id$v=19$m=1,t=1,p=1$$')).toBe(false);
  });

  test('generated passwords are long and varied', () => {
    const a = generatePassword();
    expect(a).toMatch(/^[A-Za-z2-9]{20}$/);
    expect(generatePassword()).not.toBe(a);
  });
});
