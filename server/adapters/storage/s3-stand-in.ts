import { createHash, createHmac, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A local stand-in of an S3-compatible server, for tests of the S3 store (our machines cannot
 * reach a real one). It speaks the part of the S3 REST API the store uses, path-style
 * (`/<bucket>/<key>`): PUT, GET, HEAD and DELETE of an object, with S3's XML errors. Like S3, it
 * checks each request's AWS Signature Version 4 against the one key pair it knows, so a wrong
 * secret is refused here as it would be there.
 */

export type StandInOptions = { bucket: string; region: string; accessKeyId: string; secretAccessKey: string };
export type Recorded = { method: string; path: string; headers: IncomingMessage['headers'] };
/** Set to make every request hang (never answered) or fail with a server error. */
export type Fault = null | 'hang' | 'server-error';

const MAX_CLOCK_SKEW_MS = 15 * 60 * 1000;

export async function startS3StandIn(options: StandInOptions) {
  const objects = new Map<string, { body: Buffer; contentType: string; etag: string }>();
  const requests: Recorded[] = [];
  const state = { fault: null as Fault };

  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', 'http://stand-in');
    requests.push({ method: req.method ?? '', path: url.pathname, headers: req.headers });

    if (state.fault === 'hang') return;
    if (state.fault === 'server-error')
      return sendError(res, 500, 'InternalError', 'We encountered an internal error.');

    const refusal = checkSignature(req, url, body, options);
    if (refusal) return sendError(res, refusal.status, refusal.code, refusal.message);

    const [, bucket = '', ...rest] = url.pathname.split('/');
    const key = decodeURIComponent(rest.join('/'));
    if (decodeURIComponent(bucket) !== options.bucket) {
      return sendError(res, 404, 'NoSuchBucket', 'The specified bucket does not exist.');
    }
    if (!key) return sendError(res, 501, 'NotImplemented', 'Only object operations are implemented.');

    switch (req.method) {
      case 'PUT': {
        const etag = `"${createHash('md5').update(body).digest('hex')}"`;
        objects.set(key, { body, contentType: req.headers['content-type'] ?? 'binary/octet-stream', etag });
        res.writeHead(200, { etag, 'content-length': 0 }).end();
        return;
      }
      case 'GET':
      case 'HEAD': {
        const object = objects.get(key);
        if (!object) {
          if (req.method === 'HEAD') return void res.writeHead(404).end();
          return sendError(res, 404, 'NoSuchKey', 'The specified key does not exist.');
        }
        res.writeHead(200, {
          'content-type': object.contentType,
          'content-length': object.body.length,
          etag: object.etag,
          'last-modified': new Date().toUTCString(),
        });
        res.end(req.method === 'GET' ? object.body : undefined);
        return;
      }
      case 'DELETE':
        // S3 answers 204 whether or not the key existed.
        objects.delete(key);
        res.writeHead(204).end();
        return;
      default:
        return sendError(
          res,
          501,
          'NotImplemented',
          'A header you provided implies functionality that is not implemented.',
        );
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    objects,
    requests,
    setFault: (fault: Fault) => {
      state.fault = fault;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function sendError(res: ServerResponse, status: number, code: string, message: string) {
  const requestId = randomBytes(8).toString('hex').toUpperCase();
  res.writeHead(status, { 'content-type': 'application/xml', 'x-amz-request-id': requestId });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message><RequestId>${requestId}</RequestId></Error>`,
  );
}

const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data, 'utf8').digest();
const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest('hex');
/** RFC 3986 encoding, as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
const rfc3986 = (value: string) =>
  encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);

/** A header's value as SigV4 signs it: trimmed, inner runs of spaces made one. */
const headerValue = (req: IncomingMessage, name: string) =>
  String(req.headers[name] ?? '')
    .trim()
    .replace(/\s+/g, ' ');

/** Verifies the request's SigV4 Authorization header; returns the S3 error to send, or null. */
function checkSignature(req: IncomingMessage, url: URL, body: Buffer, options: StandInOptions) {
  const header = req.headers.authorization ?? '';
  const match =
    /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([a-z0-9;-]+), ?Signature=([0-9a-f]{64})$/.exec(
      header,
    );
  if (!match) return { status: 403, code: 'AccessDenied', message: 'Access Denied' };
  const [, accessKeyId, date = '', region = '', signedHeaders = '', signature] = match;
  if (accessKeyId !== options.accessKeyId) {
    return {
      status: 403,
      code: 'InvalidAccessKeyId',
      message: 'The AWS Access Key Id you provided does not exist in our records.',
    };
  }
  if (region !== options.region) {
    return { status: 400, code: 'AuthorizationHeaderMalformed', message: `The region '${region}' is wrong.` };
  }
  const amzDate = String(req.headers['x-amz-date'] ?? '');
  const time = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!amzDate.startsWith(date) || !(Math.abs(Date.now() - time) <= MAX_CLOCK_SKEW_MS)) {
    return {
      status: 403,
      code: 'RequestTimeTooSkewed',
      message: 'The difference between the request time and the current time is too large.',
    };
  }
  const payloadHash = String(req.headers['x-amz-content-sha256'] ?? '');
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256(body)) {
    return {
      status: 400,
      code: 'XAmzContentSHA256Mismatch',
      message: 'The provided x-amz-content-sha256 header does not match what was computed.',
    };
  }

  const query = [...url.searchParams.entries()]
    .map(([name, value]) => [rfc3986(name), rfc3986(value)] as const)
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  const headers = signedHeaders
    .split(';')
    .map((name) => `${name}:${headerValue(req, name)}\n`)
    .join('');
  // S3 signs the path as sent (encoded once), unlike other services.
  const canonicalRequest = [req.method, url.pathname, query, headers, signedHeaders, payloadHash].join('\n');
  const scope = `${date}/${region}/s3/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${options.secretAccessKey}`, date), region), 's3'), 'aws4_request');
  if (hmac(signingKey, stringToSign).toString('hex') !== signature) {
    return {
      status: 403,
      code: 'SignatureDoesNotMatch',
      message: 'The request signature we calculated does not match the signature you provided.',
    };
  }
  return null;
}
