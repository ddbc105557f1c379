import { createReadStream, createWriteStream } from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { S3Client } from '@aws-sdk/client-s3';
import { byteCounter } from './byte-counter.js';
import { s3Credentials } from './s3-credentials.js';

/** Where the node reaches object stores: the settings --snapshot-s3-endpoint and --snapshot-gcs-endpoint. */
export interface ObjectStoreEndpoints {
  /** An S3-compatible server for s3:// (MinIO, R2...); unset: AWS S3 (or the SDK's AWS_ENDPOINT_URL). */
  readonly s3Endpoint: string | undefined;
  /** Google Cloud Storage's S3-compatible XML API, which gs:// goes through. */
  readonly gcsEndpoint: string;
  /** s3:// may take credentials from the container or EC2 instance metadata services (an operator's opt-in). */
  readonly metadataCredentials?: boolean;
}

/** An object store that cannot be reached, read or written; the message names the object and why, never a credential. */
export class ObjectStoreError extends Error {
  override name = 'ObjectStoreError';
}

/** An `s3://bucket/key` or `gs://bucket/key` URL taken apart. */
export interface ObjectUrl {
  readonly scheme: 's3' | 'gs';
  readonly bucket: string;
  /** The object key (or key prefix), without leading or trailing slashes. */
  readonly key: string;
}

export function isObjectStoreUrl(url: string): boolean {
  return url.startsWith('s3:') || url.startsWith('gs:');
}

export function parseObjectUrl(url: string): ObjectUrl {
  const u = new URL(url);
  const key = u.pathname
    .split('/')
    .filter(Boolean)
    .map((part) => decodeURIComponent(part))
    .join('/');
  return { scheme: u.protocol === 'gs:' ? 'gs' : 's3', bucket: u.host, key };
}

/** Parts of a multipart upload; S3 needs at least 5 MiB, and at most 10,000 parts (so up to 160 GiB here). */
const PART_SIZE = 16 * 1024 * 1024;
/** Parts sent at once: with PART_SIZE, what an upload holds in memory (64 MiB). */
const PARTS_AT_ONCE = 4;

const GCS_CREDENTIALS_HOW =
  "gs:// goes through Google Cloud Storage's S3-compatible XML API, which takes an HMAC key: create one for a " +
  'service account (gcloud storage hmac create SERVICE_ACCOUNT_EMAIL) and set AWS_ACCESS_KEY_ID to its access id ' +
  'and AWS_SECRET_ACCESS_KEY to its secret (a service account JSON key, GOOGLE_APPLICATION_CREDENTIALS, is not read)';

/**
 * One object store (a bucket of S3, of an S3-compatible server, or of Google Cloud Storage through its XML API),
 * reached with the official AWS SDK. Region and credentials come from the standard AWS environment (AWS_REGION,
 * AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_PROFILE; instance and container roles only when the operator
 * opts in: s3-credentials.ts); gs:// takes an HMAC key from AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY only.
 * Failures are ObjectStoreErrors with the credentials masked.
 */
export class ObjectStore {
  /**
   * The SDK client, made on first use: the AWS SDK (a few hundred modules) is loaded only by a node that reaches
   * an s3:// or gs:// URL, never by a plain start.
   */
  readonly #sdk: Promise<{ client: S3Client; s3: typeof import('@aws-sdk/client-s3') }>;
  readonly #scheme: 's3' | 'gs';
  /** The credentials' values, masked out of every error text. */
  #secrets: string[] = [];

  constructor(scheme: 's3' | 'gs', endpoints: ObjectStoreEndpoints) {
    this.#scheme = scheme;
    const gcs = scheme === 'gs';
    const endpoint = gcs ? endpoints.gcsEndpoint : endpoints.s3Endpoint;
    this.#sdk = import('@aws-sdk/client-s3').then((s3) => ({
      s3,
      client: new s3.S3Client({
        region: gcs ? 'auto' : (process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION ?? 'us-east-1'),
        // A bucket in another region answers with its region, and the SDK follows (AWS_REGION may be unset).
        followRegionRedirects: !gcs,
        ...(endpoint ? { endpoint, forcePathStyle: true } : {}),
        credentials: gcs ? gcsCredentials : s3Credentials(endpoints.metadataCredentials ?? false),
        // The SDK's default CRC32 checksums (sent as aws-chunked trailers) are refused by S3-compatible stores,
        // Google's XML API among them: checksums only where the S3 API requires them.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
        maxAttempts: 3,
      }),
    }));
    // A store closed before its first use must not leave an unhandled rejection behind.
    this.#sdk.catch(() => undefined);
  }

  /**
   * Resolves the credentials without sending a request, so a missing key is refused before an upload starts.
   * Throws ObjectStoreError saying where credentials are taken from.
   */
  async checkCredentials(): Promise<void> {
    const { client } = await this.#sdk;
    try {
      const c = await client.config.credentials();
      this.#secrets = [c.accessKeyId, c.secretAccessKey, c.sessionToken ?? ''].filter((s) => s.length >= 4);
    } catch (err) {
      if (this.#scheme === 'gs') throw new ObjectStoreError(`no credentials for gs://: ${GCS_CREDENTIALS_HOW}`);
      throw new ObjectStoreError(
        `s3://: ${(err as Error).message}. Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY or AWS_PROFILE, or, on ` +
          'an instance or container with a role, turn on --snapshot-s3-metadata-credentials',
      );
    }
  }

  /** An object's text, or undefined when there is no such object. */
  async readText(url: string, signal?: AbortSignal): Promise<string | undefined> {
    const { bucket, key } = parseObjectUrl(url);
    try {
      const { client, s3 } = await this.#sdk;
      const out = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
      return await (out.Body as Readable & { transformToString(): Promise<string> }).transformToString();
    } catch (err) {
      if (isMissing(err)) return undefined;
      throw this.failure('GET', url, err);
    }
  }

  async writeText(url: string, text: string, contentType: string, signal?: AbortSignal): Promise<void> {
    const { bucket, key } = parseObjectUrl(url);
    try {
      const { client, s3 } = await this.#sdk;
      await client.send(
        new s3.PutObjectCommand({
          Bucket: bucket,
          Key: key,
          Body: text,
          ContentType: contentType,
          // The index changes with every upload: caches must not keep it (4.1.2 uploads it no-store).
          CacheControl: 'no-store',
        }),
        { abortSignal: signal },
      );
    } catch (err) {
      throw this.failure('PUT', url, err);
    }
  }

  /** Sends a local file (in parts when it is large); `onProgress` gets the bytes sent so far. */
  async upload(url: string, localPath: string, onProgress: (bytes: number) => void, signal?: AbortSignal) {
    const { bucket, key } = parseObjectUrl(url);
    const [{ client }, { Upload }] = await Promise.all([this.#sdk, import('@aws-sdk/lib-storage')]);
    const upload = new Upload({
      client,
      params: {
        Bucket: bucket,
        Key: key,
        Body: createReadStream(localPath),
        ContentType: 'application/gzip',
        CacheControl: 'public, max-age=31536000, immutable',
      },
      partSize: PART_SIZE,
      queueSize: PARTS_AT_ONCE,
      // A part upload that fails aborts the multipart upload, so no orphaned parts are billed.
      leavePartsOnError: false,
    });
    upload.on('httpUploadProgress', (p) => {
      if (p.loaded !== undefined) onProgress(p.loaded);
    });
    const abort = () => void Promise.resolve(upload.abort()).catch(() => {});
    signal?.addEventListener('abort', abort, { once: true });
    try {
      await upload.done();
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw this.failure('PUT', url, err);
    } finally {
      signal?.removeEventListener('abort', abort);
    }
  }

  /** Copies an object into a local file; `onProgress` gets the bytes so far. */
  async download(url: string, localPath: string, onProgress: (bytes: number) => void, signal?: AbortSignal) {
    const { bucket, key } = parseObjectUrl(url);
    let body: Readable;
    try {
      const { client, s3 } = await this.#sdk;
      const out = await client.send(new s3.GetObjectCommand({ Bucket: bucket, Key: key }), { abortSignal: signal });
      body = out.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw new ObjectStoreError(`${url} does not exist`);
      throw this.failure('GET', url, err);
    }
    await pipeline(body, byteCounter(onProgress), createWriteStream(localPath), { signal });
  }

  /** Closes the client's connections (an upload or a bootstrap is done with the store). */
  close(): void {
    void this.#sdk.then(
      ({ client }) => client.destroy(),
      () => undefined,
    );
  }

  /** The SDK's error in the node's words: the request, the store's error code and HTTP status, its message. */
  private failure(method: string, url: string, err: unknown): ObjectStoreError {
    const e = err as Error & { $metadata?: { httpStatusCode?: number }; code?: string };
    const status = e.$metadata?.httpStatusCode;
    const what = [e.name && e.name !== 'Error' ? e.name : e.code, status ? `HTTP ${status}` : undefined]
      .filter(Boolean)
      .join(', ');
    let text = `${method} ${url} failed${what ? ` (${what})` : ''}: ${e.message ?? String(err)}`;
    for (const secret of this.#secrets) text = text.split(secret).join('<redacted>');
    return new ObjectStoreError(text);
  }
}

/** gs:// credentials: an HMAC key in the AWS variables, nothing else (the AWS chain's instance roles do not apply). */
async function gcsCredentials(): Promise<{ accessKeyId: string; secretAccessKey: string }> {
  const accessKeyId = process.env.AWS_ACCESS_KEY_ID;
  const secretAccessKey = process.env.AWS_SECRET_ACCESS_KEY;
  if (!accessKeyId || !secretAccessKey) throw new ObjectStoreError(GCS_CREDENTIALS_HOW);
  return { accessKeyId, secretAccessKey };
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  // A missing bucket is a wrong location, not an empty one.
  if (e.name === 'NoSuchBucket') return false;
  return e.name === 'NoSuchKey' || e.name === 'NotFound' || e.$metadata?.httpStatusCode === 404;
}
