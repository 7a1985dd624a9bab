import { describe, expect, test } from 'vitest';
import { trustProxyFunction } from './trust-proxy.ts';

describe('trustProxyFunction', () => {
  test('false trusts no proxy', () => {
    expect(trustProxyFunction(false)).toBe(false);
  });

  test('a hop count trusts that many hops, whatever their address', () => {
    const trust = trustProxyFunction(2);
    if (!trust) throw new Error('expected a function');
    expect([0, 1, 2].map((hop) => trust('203.0.113.9', hop))).toEqual([true, true, false]);
  });

  test('addresses and ranges trust those addresses only, the same on every ask', () => {
    const trust = trustProxyFunction(['127.0.0.1', '10.0.0.0/8', '::1']);
    if (!trust) throw new Error('expected a function');
    const asked = ['127.0.0.1', '10.20.30.40', '::1', '::ffff:127.0.0.1', '11.0.0.1', '203.0.113.9', 'not-an-ip'];
    const verdicts = [true, true, true, true, false, false, false];
    // Asked twice: the second answers come from memory and must not differ.
    expect(asked.map((address, hop) => trust(address, hop))).toEqual(verdicts);
    expect(asked.map((address, hop) => trust(address, hop))).toEqual(verdicts);
  });

  test('many distinct addresses (a flood of forged X-Forwarded-For) keep the memory bounded and the answers right', () => {
    const trust = trustProxyFunction(['10.0.0.0/8']);
    if (!trust) throw new Error('expected a function');
    for (let i = 0; i < 5000; i += 1) {
      expect(trust(`10.0.${(i >> 8) & 255}.${i & 255}`, 1)).toBe(true);
      expect(trust(`192.0.${(i >> 8) & 255}.${i & 255}`, 1)).toBe(false);
    }
  });
});
