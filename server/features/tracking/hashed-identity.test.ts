import { createHash } from 'node:crypto';
import { expect, test } from 'vitest';
import { hashedIdentity } from './hashed-identity.ts';

const sha = (value: string) => createHash('sha256').update(value).digest('hex');

test('email, phone and external id are normalised and hashed; hashed values are kept; blanks dropped', () => {
  expect(hashedIdentity({ email: '  Ada.Calm@Example.COM ', phone: '+1 (555) 010-9999', external_id: ' u1 ' })).toEqual(
    {
      email: sha('ada.calm@example.com'),
      phone: sha('+15550109999'),
      external_id: sha('u1'),
    },
  );
  const already = sha('ada@example.com');
  expect(hashedIdentity({ email: already.toUpperCase(), phone: '  ', external_id: '' })).toEqual({ email: already });
  expect(hashedIdentity({ phone: 'no digits' })).toEqual({});
});
