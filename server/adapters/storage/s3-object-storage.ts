import type { S3Client } from '@aws-sdk/client-s3';
import { assertSafeKey, MEDIA_PREFIX, type ObjectStorage, ObjectStorageError } from './object-storage.ts';

export type S3ObjectStorageOptions = {
  /** An S3-compatible server (MinIO, Cloudflare R2, Backblaze B2, Ceph…); unset: Amazon S3 itself. */
  endpoint?: string;
  bucket: string;
  /** Amazon's region, or what the compatible server asks for (MinIO: us-east-1, R2: auto). */
  region: string;
  accessKeyId: string;
  secretAccessKey: string;
  /**
   * Where browsers load objects from: the bucket's public URL or a CDN in front of it. Unset:
   * the shop's own /media/ route, which reads them through this store.
   */
  publicUrl?: string;
  /** How long connecting may take. Default 5 s. */
  connectionTimeoutMs?: number;
  /** How long one attempt may take, upload or download included. Default 30 s. */
  requestTimeoutMs?: number;
  /** Attempts per call, the SDK's backed-off retries of network and server errors included. Default 3. */
  maxAttempts?: number;
};

/**
 * Objects in a bucket of any S3-compatible store, through the AWS SDK v3 client (the only file
 * that imports it). A missing object is null, as on disk; a refused credential, an unreachable
 * store or another failure is an ObjectStorageError whose message names the bucket and the
 * store's error code, never a credential.
 */
export function createS3ObjectStorage(options: S3ObjectStorageOptions): ObjectStorage {
  const { bucket, endpoint } = options;
  const clientOptions: ConstructorParameters<typeof S3Client>[0] = {
    region: options.region,
    // Path-style (`<endpoint>/<bucket>/<key>`) is what every compatible server understands;
    // Amazon itself gets its virtual-hosted default.
    ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
    credentials: { accessKeyId: options.accessKeyId, secretAccessKey: options.secretAccessKey },
    maxAttempts: options.maxAttempts ?? 3,
    requestHandler: {
      connectionTimeout: options.connectionTimeoutMs ?? 5_000,
      requestTimeout: options.requestTimeoutMs ?? 30_000,
      // Without it the SDK only warns (on the console) when the time is up, and waits on.
      throwOnRequestTimeout: true,
    },
    // The SDK's default CRC32 checksums on every upload are refused by several compatible
    // servers; checksums are sent only where S3 requires them.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  };
  // The SDK (~190 ms of imports) is loaded by the first call, not at start: pages seldom need it.
  let loaded: Promise<{ client: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | null = null;
  const s3 = () => {
    loaded ??= import('@aws-sdk/client-s3').then((sdk) => ({ client: new sdk.S3Client(clientOptions), sdk }));
    return loaded;
  };
  const publicBase = options.publicUrl?.replace(/\/+$/, '');

  const call = async <T>(operation: string, key: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw storageErrorOf(error, { operation, key, bucket });
    }
  };

  return {
    name: 's3',
    async put(key, body, contentType) {
      assertSafeKey(key);
      const { client, sdk } = await s3();
      await call('put', key, () =>
        client.send(new sdk.PutObjectCommand({ Bucket: bucket, Key: key, Body: body, ContentType: contentType })),
      );
    },
    async get(key) {
      assertSafeKey(key);
      const { client, sdk } = await s3();
      try {
        const answer = await client.send(new sdk.GetObjectCommand({ Bucket: bucket, Key: key }));
        const bytes = answer.Body ? await answer.Body.transformToByteArray() : new Uint8Array();
        return {
          body: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength),
          contentType: answer.ContentType ?? 'application/octet-stream',
        };
      } catch (error) {
        if (isMissingObject(error)) return null;
        throw storageErrorOf(error, { operation: 'get', key, bucket });
      }
    },
    async delete(key) {
      assertSafeKey(key);
      // S3 answers 204 for a missing key too, so a second delete is no error, as on disk.
      const { client, sdk } = await s3();
      await call('delete', key, () => client.send(new sdk.DeleteObjectCommand({ Bucket: bucket, Key: key })));
    },
    publicUrl: (key) => (publicBase ? `${publicBase}/${key}` : `${MEDIA_PREFIX}${key}`),
  };
}

/** What the SDK's errors carry that we read: a service error's code and HTTP status, a network error's code. */
type SdkError = { name?: unknown; code?: unknown; $metadata?: { httpStatusCode?: number } };

function isMissingObject(error: unknown): boolean {
  const { name, $metadata } = (error ?? {}) as SdkError;
  return name === 'NoSuchKey' || (name === 'NotFound' && $metadata?.httpStatusCode === 404);
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EPIPE',
]);

/**
 * The port's error for an SDK failure. Only the bucket, the key and the store's error code are
 * kept: not the SDK's error (its request, headers and message stay out of our logs), never a
 * credential.
 */
export function storageErrorOf(
  error: unknown,
  { operation, key, bucket }: { operation: string; key: string; bucket: string },
): ObjectStorageError {
  const { name, code, $metadata } = (error ?? {}) as SdkError;
  const status = $metadata?.httpStatusCode;
  const what = `S3 storage ${operation} of "${key}" in bucket "${bucket}"`;
  const errorCode = typeof name === 'string' && /^\w{1,64}$/.test(name) ? name : 'UnknownError';
  if (status === 401 || status === 403) {
    return new ObjectStorageError(
      'refused',
      `${what} was refused (${status} ${errorCode}): check S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY and the key's permissions on the bucket`,
    );
  }
  if (status === undefined) {
    const reason =
      errorCode === 'TimeoutError' || errorCode === 'RequestTimeout'
        ? 'timed out'
        : typeof code === 'string' && NETWORK_CODES.has(code)
          ? code
          : errorCode;
    return new ObjectStorageError(
      'unreachable',
      `${what} got no answer (${reason}): check S3_ENDPOINT and the network`,
    );
  }
  if (errorCode === 'NoSuchBucket') {
    return new ObjectStorageError('failed', `${what} failed: the bucket does not exist (check S3_BUCKET)`);
  }
  return new ObjectStorageError('failed', `${what} failed (${status} ${errorCode})`);
}
