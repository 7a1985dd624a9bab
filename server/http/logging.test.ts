import { expect, test } from 'vitest';
import { redactUrl, serializeError } from './logging.ts';

test('tokens in logged URLs are redacted, the rest is kept', () => {
  expect(redactUrl('/api/password-reset/verify/abc_DEF-123')).toBe('/api/password-reset/verify/[redacted]');
  expect(redactUrl('/api/password-reset/verify/abc?x=1')).toBe('/api/password-reset/verify/[redacted]?x=1');
  expect(redactUrl('/reset-password?token=abc&next=/account')).toBe('/reset-password?token=[redacted]&next=/account');
  expect(redactUrl('/verify-email?a=1&token=abc')).toBe('/verify-email?a=1&token=[redacted]');
  expect(redactUrl('/api/retrieve-payment-intent?clientSecret=pi_1_secret_2')).toBe(
    '/api/retrieve-payment-intent?clientSecret=[redacted]',
  );
  expect(redactUrl('/products?search=token')).toBe('/products?search=token');
});

test('a failed query is logged without its parameters, and a database error without its detail', () => {
  const driver = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
    code: '23505',
    constraint: 'users_email_key',
    detail: 'Key (lower(email))=(mara@example.com) already exists.',
  });
  const hash = '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA';
  const failed = Object.assign(
    new Error(`Failed query: insert into "users" values ($1, $2)\nparams: mara@example.com,${hash}`, {
      cause: driver,
    }),
    { query: 'insert into "users" values ($1, $2)', params: ['mara@example.com', hash] },
  );
  const logged = serializeError(failed);
  const text = JSON.stringify(logged);
  expect(text).not.toContain(hash);
  expect(text).not.toContain('mara@example.com');
  expect(logged).toMatchObject({
    message: 'Failed query: insert into "users" values ($1, $2)',
    cause: { code: '23505', constraint: 'users_email_key' },
  });
});
