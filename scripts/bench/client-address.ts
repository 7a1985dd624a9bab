/**
 * Client addresses for X-Forwarded-For. The shop limits requests per client address; the shop
 * under benchmark trusts the header, so each simulated client stays under the limit.
 */
let issued = 0;

/** A client address no earlier call returned (10.x.y.z, from a counter). */
export function nextClientAddress(): string {
  issued += 1;
  return `10.${(issued >> 16) & 255}.${(issued >> 8) & 255}.${issued & 255}`;
}
