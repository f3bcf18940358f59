import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import { Client } from 'minio';
import { ObjectStorage, assertSafeKey, exactLength, type StoredObject } from './object-storage';

export interface MinioStorageOptions {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

// A PUT URL is signed for one upload that starts at once; the socket gives up when S3 stops answering.
const PUT_URL_SECONDS = 300;
const PUT_TIMEOUT_MS = 60_000;

const isMissing = (error: unknown) => ['NotFound', 'NoSuchKey'].includes(String((error as { code?: unknown }).code));

/** S3/MinIO through the `minio` client; creates the bucket on first use. */
export class MinioStorage extends ObjectStorage {
  private readonly client: Client;
  private bucketReady: Promise<void> | null = null;

  constructor(private readonly options: MinioStorageOptions) {
    super();
    const url = new URL(options.endpoint);
    const useSSL = url.protocol === 'https:';
    this.client = new Client({
      endPoint: url.hostname,
      port: url.port ? Number(url.port) : useSSL ? 443 : 80,
      useSSL,
      accessKey: options.accessKey,
      secretKey: options.secretKey,
      region: options.region,
      // MinIO and most self-hosted S3 servers address buckets by path, not by subdomain.
      pathStyle: true,
    });
  }

  private ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      const { bucket, region } = this.options;
      if (await this.client.bucketExists(bucket)) return;
      try {
        await this.client.makeBucket(bucket, region);
      } catch (error) {
        // Another gateway replica may have created it in between.
        if (!['BucketAlreadyOwnedByYou', 'BucketAlreadyExists'].includes(String((error as { code?: unknown }).code))) throw error;
      }
    })().catch((error: unknown) => {
      this.bucketReady = null;
      throw error;
    });
    return this.bucketReady;
  }

  async put(key: string, stream: Readable, contentType: string, size: number): Promise<void> {
    assertSafeKey(key);
    await this.ensureBucket();
    // The minio client reads any object smaller than its part size (at least 5 MB) into one Buffer to sign it. A
    // presigned PUT signs the URL instead, so the body streams through with its declared length (ADR 0029).
    const url = new URL(await this.client.presignedPutObject(this.options.bucket, key, PUT_URL_SECONDS));
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: 'PUT',
      headers: { 'Content-Type': contentType, 'Content-Length': String(size) },
      timeout: PUT_TIMEOUT_MS,
    });
    request.on('timeout', () => request.destroy(new Error(`storage did not answer in ${PUT_TIMEOUT_MS} ms`)));
    const answered = new Promise<IncomingMessage>((resolve, reject) => request.once('response', resolve).once('error', reject));
    answered.catch(() => undefined); // awaited below unless the body fails first
    try {
      await pipeline(stream, exactLength(size), request);
      const response = await answered;
      const body = await text(response);
      if (response.statusCode !== 200) throw new Error(`storage refused ${key}: HTTP ${response.statusCode} ${body.slice(0, 300)}`);
    } catch (error) {
      stream.destroy();
      // The socket closes before the declared length arrived: S3 and MinIO keep no part of such a PUT.
      request.destroy();
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    assertSafeKey(key);
    await this.ensureBucket();
    try {
      const stat = await this.client.statObject(this.options.bucket, key);
      const stream = await this.client.getObject(this.options.bucket, key);
      const contentType = String(stat.metaData['content-type'] ?? 'application/octet-stream');
      return { stream, contentType, size: stat.size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async remove(keys: string[]): Promise<void> {
    keys.forEach(assertSafeKey);
    if (keys.length === 0) return;
    await this.ensureBucket();
    // S3 deletes are idempotent: a missing key is not an error.
    await Promise.all(keys.map((key) => this.client.removeObject(this.options.bucket, key)));
  }

  async check(): Promise<void> {
    await this.ensureBucket();
    if (!(await this.client.bucketExists(this.options.bucket))) throw new Error(`bucket ${this.options.bucket} is missing`);
  }
}
