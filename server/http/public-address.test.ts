import { BlockList } from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isPublicAddress } from './public-address.ts';

/*
 * The oracle is written from the IANA special-purpose address registries, independently of
 * ipaddr.js's tables, and checked with node:net's BlockList: random addresses must get the
 * same answer from both.
 */

const specialV4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local (cloud metadata lives here)
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.31.196.0', 24], // AS112
  ['192.52.193.0', 24], // AMT
  ['192.88.99.0', 24], // 6to4 relay anycast
  ['192.168.0.0', 16], // private
  ['192.175.48.0', 24], // AS112
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, and the broadcast address
];

// Inside 2000::/3, the only IPv6 block that is global unicast; everything outside it is refused.
const specialGlobalV6: [string, number][] = [
  ['2001::', 23], // IETF protocol assignments: Teredo, benchmarking, ORCHID…
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4
  ['2620:4f:8000::', 48], // AS112
  ['3fff::', 20], // documentation
];

const refusedV4 = new BlockList();
for (const [network, prefix] of specialV4) refusedV4.addSubnet(network, prefix, 'ipv4');
const refusedV6 = new BlockList();
for (const [network, prefix] of specialGlobalV6) refusedV6.addSubnet(network, prefix, 'ipv6');
const globalUnicast = new BlockList();
globalUnicast.addSubnet('2000::', 3, 'ipv6');

const v4Public = (address: string) => !refusedV4.check(address, 'ipv4');
const v6Public = (groups: number[]) => {
  const address = groups.map((group) => group.toString(16)).join(':');
  // ::ffff:a.b.c.d is the IPv4 address a.b.c.d.
  if (groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff)
    return v4Public(mappedV4(groups[6] ?? 0, groups[7] ?? 0));
  return globalUnicast.check(address, 'ipv6') && !refusedV6.check(address, 'ipv6');
};
const mappedV4 = (high: number, low: number) => [high >> 8, high & 0xff, low >> 8, low & 0xff].join('.');

const octets = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
const v4 = octets.map((parts) => parts.join('.'));
const groups = fc.array(fc.nat(0xffff), { minLength: 8, maxLength: 8 });

/** A random IPv4 address inside the given network. */
function insideV4(network: string, prefix: number, random: number): string {
  const base = network.split('.').reduce((value, part) => value * 256 + Number(part), 0);
  const hostBits = 32 - prefix;
  const value = base + (hostBits === 32 ? random : random % 2 ** hostBits);
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

describe('isPublicAddress', () => {
  test.each([
    // IPv4
    ['8.8.8.8', true],
    ['1.1.1.1', true],
    ['47.246.2.10', true], // an Alibaba CDN address
    ['100.63.255.255', true],
    ['100.128.0.0', true],
    ['172.15.255.255', true],
    ['172.32.0.0', true],
    ['223.255.255.255', true],
    ['0.0.0.0', false],
    ['127.0.0.1', false],
    ['127.255.255.254', false],
    ['10.1.2.3', false],
    ['172.16.0.1', false],
    ['172.31.255.255', false],
    ['192.168.1.1', false],
    ['169.254.169.254', false], // cloud metadata
    ['100.64.0.1', false],
    ['192.0.0.8', false],
    ['198.19.0.1', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    // IPv6
    ['2a00:1450:4001:80b::200e', true],
    ['2606:4700::1111', true],
    ['::ffff:8.8.8.8', true],
    ['::', false],
    ['::1', false],
    ['0:0:0:0:0:0:0:1', false],
    ['fe80::1', false],
    ['fe80::1%eth0', false],
    ['febf:ffff::1', false],
    ['fc00::1', false],
    ['fd12:3456::1', false], // unique local
    ['fec0::1', false], // site-local
    ['ff02::1', false],
    ['::ffff:127.0.0.1', false], // mapped loopback
    ['::ffff:7f00:1', false], // the same, in hex
    ['::ffff:10.0.0.1', false],
    ['::ffff:169.254.169.254', false],
    ['::ffff:0:7f00:1', false], // IPv4-translated (RFC 6145)
    ['::127.0.0.1', false], // IPv4-compatible, deprecated
    ['::7f00:1', false],
    ['64:ff9b::a00:1', false], // NAT64 of 10.0.0.1
    ['64:ff9b:1::1', false],
    ['100::1', false], // discard
    ['2001::1', false], // Teredo
    ['2001:db8::1', false],
    ['2002:7f00:1::1', false], // 6to4 of 127.0.0.1
    ['3fff::1', false],
    ['5f00::1', false], // segment routing
    ['4000::1', false], // outside 2000::/3
    // Not addresses at all
    ['localhost', false],
    ['', false],
    ['127.1', false],
    ['0x7f.0.0.1', false],
    ['2130706433', false],
    ['017700000001', false],
    [' 8.8.8.8', false],
    ['8.8.8.8.', false],
    ['8.8.8.8/32', false],
    ['ae01.alicdn.com', false],
  ])('%s is public: %s', (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });

  test('an IPv4 address is public exactly when no special-purpose block holds it', () => {
    fc.assert(
      fc.property(v4, (address) => {
        expect(isPublicAddress(address)).toBe(v4Public(address));
      }),
      { numRuns: 5000 },
    );
  });

  test('every address inside a special-purpose IPv4 block is refused', () => {
    fc.assert(
      fc.property(fc.constantFrom(...specialV4), fc.nat(2 ** 32 - 1), ([network, prefix], random) => {
        expect(isPublicAddress(insideV4(network, prefix, random))).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  test('an IPv6 address is public exactly when it is global unicast outside the special blocks', () => {
    // Half the draws start inside 2000::/3, so both answers are common.
    const address = fc.oneof(
      groups,
      fc.tuple(fc.integer({ min: 0x2000, max: 0x3fff }), groups).map(([first, rest]) => [first, ...rest.slice(1)]),
    );
    fc.assert(
      fc.property(address, (words) => {
        expect(isPublicAddress(words.map((word) => word.toString(16)).join(':'))).toBe(v6Public(words));
      }),
      { numRuns: 5000 },
    );
  });

  test('an IPv4-mapped IPv6 address gets the answer of the IPv4 address it carries, in either notation', () => {
    fc.assert(
      fc.property(octets, (parts) => {
        const address = parts.join('.');
        const high = ((parts[0] << 8) | parts[1]).toString(16);
        const low = ((parts[2] << 8) | parts[3]).toString(16);
        expect(isPublicAddress(`::ffff:${address}`)).toBe(isPublicAddress(address));
        expect(isPublicAddress(`::ffff:${high}:${low}`)).toBe(isPublicAddress(address));
      }),
      { numRuns: 2000 },
    );
  });

  test('anything that is not a canonical IP address is refused', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!/^[0-9a-fA-F:.%a-z]+$/.test(text));
        expect(isPublicAddress(text)).toBe(false);
      }),
    );
  });
});
