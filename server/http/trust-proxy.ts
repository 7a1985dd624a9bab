import proxyAddr from '@fastify/proxy-addr';

/** Fastify's trust function: whether the hop at `address`, `hop` steps from us, is a proxy we trust. */
export type TrustProxy = (address: string, hop: number) => boolean;

/** Verdicts kept per address; past this many the memory starts again (an address's verdict never changes). */
const MAX_REMEMBERED = 1024;

/**
 * TRUST_PROXY as Fastify's trust function. A hop count trusts that many proxies in front. A list
 * of addresses and ranges is compiled once (proxy-addr, as Fastify does), and each address's
 * verdict is remembered: Fastify asks it for every read of `request.ip`, parsing the socket's
 * address and each X-Forwarded-For entry anew, and that parsing was a tenth of a page view's cost.
 */
export function trustProxyFunction(setting: false | number | string[]): TrustProxy | false {
  if (setting === false) return false;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  const trusts = proxyAddr.compile(setting);
  let remembered = new Map<string, boolean>();
  return (address, hop) => {
    let trusted = remembered.get(address);
    if (trusted === undefined) {
      trusted = trusts(address, hop);
      if (remembered.size >= MAX_REMEMBERED) remembered = new Map();
      remembered.set(address, trusted);
    }
    return trusted;
  };
}
