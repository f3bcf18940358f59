import type { Readable } from 'node:stream';
import { Client } from 'minio';
import { ObjectStorage, assertSafeKey, type StoredObject } from './object-storage';

export interface MinioStorageOptions {
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  region: string;
}

// Screenshots are at most 5 MB; anything far larger is a caller's bug, not something to hold in memory.
const MAX_OBJECT_BYTES = 16 * 1024 * 1024;

const isMissing = (error: unknown) => ['NotFound', 'NoSuchKey'].includes(String((error as { code?: unknown }).code));

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
    total += buf.length;
    if (total > MAX_OBJECT_BYTES) throw new Error(`Object is larger than ${MAX_OBJECT_BYTES} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks, total);
}

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

  async put(key: string, stream: Readable, contentType: string): Promise<void> {
    assertSafeKey(key);
    // Buffered so the client sends one signed PUT with a known length rather than a multipart upload.
    const body = await readAll(stream);
    await this.ensureBucket();
    await this.client.putObject(this.options.bucket, key, body, body.length, { 'Content-Type': contentType });
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
