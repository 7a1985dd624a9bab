import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

/*
 * Whether the server may connect to an address on a caller's behalf (remote image fetches):
 * only public unicast addresses. ipaddr.js (already in the tree under @fastify/proxy-addr, which
 * classifies client addresses with it) keeps the IANA special-purpose registries as named
 * ranges; anything it names (private, loopback, link-local, carrier-grade NAT, unique local,
 * multicast, documentation, benchmarking, NAT64, 6to4, Teredo, ...) is refused, and its
 * catch-all 'unicast' is accepted.
 */

const globalUnicastV6 = ipaddr.parseCIDR('2000::/3');

/** True only for a public unicast IPv4 or IPv6 address; false for anything else, names and junk included. */
export function isPublicAddress(address: string): boolean {
  // node:net's parser takes only the canonical forms, so ipaddr.js's lenient ones ('127.1', '0x7f.1') never reach it.
  if (isIP(address) === 0) return false;
  let parsed = ipaddr.parse(address);
  // ::ffff:10.0.0.1 reaches 10.0.0.1: judge the IPv4 address it carries.
  if (parsed instanceof ipaddr.IPv6 && parsed.isIPv4MappedAddress()) parsed = parsed.toIPv4Address();
  if (parsed.range() !== 'unicast') return false;
  // ipaddr.js calls every IPv6 address outside its named blocks 'unicast', but only 2000::/3 is
  // global unicast (RFC 4291); this also refuses the deprecated IPv4-compatible ::a.b.c.d form.
  if (parsed instanceof ipaddr.IPv6) return parsed.match(globalUnicastV6);
  return true;
}
