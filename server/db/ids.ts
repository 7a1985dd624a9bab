import { randomBytes } from 'node:crypto';

/** A random id of 16 lowercase hex characters (64 bits), the shape the spec pins for reviews. */
export function newId(): string {
  return randomBytes(8).toString('hex');
}
