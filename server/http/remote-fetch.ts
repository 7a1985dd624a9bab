import type { LookupAddress } from 'node:dns';
import { lookup as resolveName } from 'node:dns/promises';
import type { ClientRequest, IncomingMessage } from 'node:http';
import { request } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPublicAddress } from './public-address.ts';

/*
 * The one way the server fetches a URL it was handed (the back office's marketplace image
 * imports): https only, to allow-listed hosts and ports only, and never to a private, loopback
 * or link-local address. The address is checked inside the socket's own DNS lookup, so the
 * address checked is the address connected to (a name cannot resolve to a public address for
 * the check and a private one for the connection), and every redirect is a new request that
 * passes every check again. The whole fetch, redirects included, has one deadline and one size
 * limit, and the body must be an image by its first bytes, whatever its Content-Type says.
 */

/** The image types a fetch accepts: the ones the back office's uploads accept. */
export type ImageType = 'image/jpeg' | 'image/png' | 'image/webp';

/**
 * The marketplace's image hosts: AliExpress serves product images from numbered hosts under
 * alicdn.com (ae01…ae04.alicdn.com) and, for newer listings, aliexpress-media.com. A leading
 * '*.' admits any subdomain (not the bare domain), so a new numbered host needs no release.
 */
export const marketplaceImageHosts: readonly string[] = ['*.alicdn.com', '*.aliexpress-media.com'];

export type RefusalReason =
  | 'invalid_url'
  | 'not_https'
  | 'host_not_allowed'
  | 'private_address'
  | 'too_many_redirects'
  | 'too_large'
  | 'too_slow'
  | 'not_an_image'
  | 'upstream_status'
  | 'unreachable';

export type RemoteImage = { ok: true; url: string; contentType: ImageType; bytes: Buffer };
/** Why a fetch was refused; `url` is the hop that was refused (a redirect's target, say). */
export type RemoteRefusal = { ok: false; reason: RefusalReason; message: string; url: string };

export type RemoteFetchOptions = {
  /** Host names, exact or '*.domain' for any subdomain; IP literals only by exact entry. Default: the marketplace's. */
  allowedHosts?: readonly string[];
  /** Ports a URL may name. Default 443 only. */
  ports?: readonly number[];
  /** The most bytes a body may have. Default 5 MB, the back office's upload limit. */
  maxBytes?: number;
  /** The whole fetch's deadline, redirects included. Default 10 s. */
  timeoutMs?: number;
  /** Redirects followed before refusing. Default 3. */
  maxRedirects?: number;
  /** Certificate authorities to trust instead of Node's bundle (tests with a local server). */
  ca?: string | Buffer | (string | Buffer)[];
  /** Name resolution. Default: the system resolver (getaddrinfo, so /etc/hosts too), every address. */
  resolve?: (hostname: string) => Promise<LookupAddress[]>;
  /** Which resolved addresses may be connected to. Default: public unicast only. */
  isAllowedAddress?: (address: string) => boolean;
};

export const remoteFetchDefaults = {
  allowedHosts: marketplaceImageHosts,
  ports: [443] as readonly number[],
  maxBytes: 5 * 1024 * 1024,
  timeoutMs: 10_000,
  maxRedirects: 3,
};

type Settings = Required<Omit<RemoteFetchOptions, 'ca'>> & Pick<RemoteFetchOptions, 'ca'>;

/** A refusal on its way out of a request's callbacks. */
class Refused extends Error {
  readonly reason: RefusalReason;
  constructor(reason: RefusalReason, message: string) {
    super(message);
    this.reason = reason;
  }
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);

/** The type of an image by its first bytes (magic numbers), or null when it is none we accept. */
export function imageTypeOf(bytes: Uint8Array): ImageType | null {
  const startsWith = (offset: number, signature: number[]) =>
    bytes.length >= offset + signature.length && signature.every((byte, i) => bytes[offset + i] === byte);
  if (startsWith(0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  // RIFF, a 4-byte size, WEBP.
  if (startsWith(0, [0x52, 0x49, 0x46, 0x46]) && startsWith(8, [0x57, 0x45, 0x42, 0x50])) return 'image/webp';
  return null;
}

/** The longest signature imageTypeOf reads: past this many bytes a body can be judged. */
const signatureLength = 12;

function hostAllowed(hostname: string, allowedHosts: readonly string[]): boolean {
  return allowedHosts.some((entry) =>
    entry.startsWith('*.')
      ? hostname.endsWith(entry.slice(1)) && hostname.length > entry.length - 1
      : hostname === entry,
  );
}

/** The checks a URL passes before any connection: scheme, credentials, host, port, and an IP literal's address. */
function checkTarget(url: URL, settings: Settings): { hostname: string; port: number } {
  if (url.protocol !== 'https:') throw new Refused('not_https', `Only https URLs can be fetched, not ${url.protocol}`);
  if (url.username || url.password) throw new Refused('invalid_url', 'URLs with credentials are not fetched');
  // URL keeps an IPv6 literal's brackets in hostname; lookups and the allow list use the bare address.
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  if (!hostAllowed(hostname, settings.allowedHosts))
    throw new Refused('host_not_allowed', `${hostname} is not one of the allowed image hosts`);
  const port = url.port === '' ? 443 : Number(url.port);
  if (!settings.ports.includes(port)) throw new Refused('host_not_allowed', `Port ${port} is not allowed`);
  // An IP literal is connected to without a lookup, so its address is checked here.
  if (isIP(hostname) !== 0 && !settings.isAllowedAddress(hostname))
    throw new Refused('private_address', `${hostname} is not a public address`);
  return { hostname, port };
}

/**
 * The socket's DNS lookup: resolves the name and refuses the connection when any of its
 * addresses is not allowed (a public name with a private address among its answers is not
 * trusted with either), so net connects only to an address that was checked here.
 */
function guardedLookup(settings: Settings): LookupFunction {
  return (hostname, options, callback) => {
    settings.resolve(hostname).then(
      (found) => {
        // Every answer is judged, including those of the family this socket does not want.
        const refused = found.find((a) => !settings.isAllowedAddress(a.address));
        const addresses =
          options.family === 4 || options.family === 6 ? found.filter((a) => a.family === options.family) : found;
        const first = addresses[0];
        if (refused)
          callback(
            new Refused('private_address', `${hostname} resolves to ${refused.address}, which is not a public address`),
            '',
          );
        else if (!first) callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
        else if (options.all) callback(null, addresses);
        else callback(null, first.address, first.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}

type Answer = { redirect: string | undefined } | { bytes: Buffer; contentType: ImageType };

/** One GET, within the deadline: a redirect's Location, or a body that is an image within the size limit. */
function get(
  url: URL,
  target: { hostname: string; port: number },
  settings: Settings,
  deadline: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let req: ClientRequest | undefined;
    let res: IncomingMessage | undefined;
    let settled = false;
    const finish = (error: Error | null, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        res?.destroy();
        req?.destroy();
        reject(error);
      } else resolve(answer as Answer);
    };
    const timer = setTimeout(
      () => finish(new Refused('too_slow', `No complete answer within ${settings.timeoutMs} ms`)),
      Math.max(0, deadline - Date.now()),
    );
    req = request({
      host: target.hostname,
      port: target.port,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      headers: {
        accept: 'image/webp,image/png,image/jpeg;q=0.9,*/*;q=0.1',
        // A compressed body would hide the image's first bytes; images are compressed already.
        'accept-encoding': 'identity',
        'user-agent': 'Stillwater image import',
      },
      // A fresh socket per request: a pooled one would skip the guarded lookup.
      agent: false,
      lookup: guardedLookup(settings),
      ...(settings.ca ? { ca: settings.ca } : {}),
    });
    req.on('error', (error) => finish(error));
    req.on('response', (response) => {
      res = response;
      const status = response.statusCode ?? 0;
      if (redirectStatuses.has(status)) {
        finish(null, { redirect: response.headers.location });
        response.destroy();
        return;
      }
      if (status !== 200) {
        finish(new Refused('upstream_status', `The image host answered ${status}`));
        return;
      }
      const declared = Number(response.headers['content-length']);
      if (declared > settings.maxBytes) {
        finish(tooLarge(settings));
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let contentType: ImageType | null = null;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > settings.maxBytes) return finish(tooLarge(settings));
        chunks.push(chunk);
        // Judge the type as soon as the signature has arrived, so a large non-image is not downloaded.
        if (contentType === null && size >= signatureLength) {
          contentType = imageTypeOf(Buffer.concat(chunks));
          if (contentType === null) finish(notAnImage());
        }
      });
      response.on('end', () => {
        const bytes = Buffer.concat(chunks);
        const type = imageTypeOf(bytes);
        if (type === null) finish(notAnImage());
        else finish(null, { bytes, contentType: type });
      });
      response.on('error', (error) => finish(error));
    });
    req.end();
  });
}

const tooLarge = (settings: Settings) =>
  new Refused('too_large', `The image is larger than ${settings.maxBytes} bytes`);
const notAnImage = () => new Refused('not_an_image', 'The answer is not a JPEG, PNG or WebP image');

/**
 * Fetches an image from a URL under the rules above. Never throws: the answer is the image, or
 * a refusal naming its reason.
 */
export async function fetchRemoteImage(
  input: string,
  options: RemoteFetchOptions = {},
): Promise<RemoteImage | RemoteRefusal> {
  const settings: Settings = {
    allowedHosts: options.allowedHosts ?? remoteFetchDefaults.allowedHosts,
    ports: options.ports ?? remoteFetchDefaults.ports,
    maxBytes: options.maxBytes ?? remoteFetchDefaults.maxBytes,
    timeoutMs: options.timeoutMs ?? remoteFetchDefaults.timeoutMs,
    maxRedirects: options.maxRedirects ?? remoteFetchDefaults.maxRedirects,
    ca: options.ca,
    resolve: options.resolve ?? ((hostname) => resolveName(hostname, { all: true })),
    isAllowedAddress: options.isAllowedAddress ?? isPublicAddress,
  };
  const deadline = Date.now() + settings.timeoutMs;
  let current = input;
  for (let redirects = 0; ; redirects++) {
    let url: URL;
    try {
      url = new URL(current);
    } catch {
      return { ok: false, reason: 'invalid_url', message: 'The URL is not valid', url: current };
    }
    try {
      const answer = await get(url, checkTarget(url, settings), settings, deadline);
      if ('bytes' in answer) return { ok: true, url: url.href, contentType: answer.contentType, bytes: answer.bytes };
      if (!answer.redirect) throw new Refused('upstream_status', 'The image host redirected without a Location');
      if (redirects >= settings.maxRedirects)
        throw new Refused('too_many_redirects', `More than ${settings.maxRedirects} redirects`);
      // A relative Location is relative to the URL that answered it.
      current = URL.parse(answer.redirect, url)?.href ?? answer.redirect;
    } catch (error) {
      if (error instanceof Refused) return { ok: false, reason: error.reason, message: error.message, url: url.href };
      const code = (error as NodeJS.ErrnoException).code;
      return {
        ok: false,
        reason: 'unreachable',
        message: `The image host could not be reached${code ? ` (${code})` : ''}`,
        url: url.href,
      };
    }
  }
}
