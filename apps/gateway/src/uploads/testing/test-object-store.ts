import { randomBytes } from 'node:crypto';
import { Client } from 'minio';
import { MinioStorage } from '../minio-storage';
import { startS3rverProcess } from './s3rver-process';

/** An S3-compatible server for a test file, with a bucket name of the file's own. */
export interface TestObjectStore {
  /** 'minio' when the run started containers (TEST_S3_ENDPOINT), else 's3rver'. */
  kind: 'minio' | 's3rver';
  endpoint: string;
  accessKey: string;
  secretKey: string;
  bucket: string;
  /** MinioStorage on this server and bucket. */
  storage(): MinioStorage;
  /** A plain MinIO client on this server, to look at the bucket behind the code's back. */
  client(): Client;
  stop(): Promise<void>;
}

/**
 * The run's MinIO container when the integration setup started one (ADR 0054), else s3rver in a child process storing
 * under `dir`. The bucket is `<label>-<random>`, so files sharing one MinIO never see each other's objects.
 */
export async function startTestObjectStore(dir: string, label: string): Promise<TestObjectStore> {
  const bucket = `${label}-${randomBytes(4).toString('hex')}`;
  const shared = process.env.TEST_S3_ENDPOINT;
  // s3rver accepts any key pair (its default is S3RVER/S3RVER).
  const server = shared
    ? { kind: 'minio' as const, endpoint: shared, accessKey: process.env.TEST_S3_ACCESS_KEY ?? '', secretKey: process.env.TEST_S3_SECRET_KEY ?? '', stop: async () => undefined }
    : { kind: 's3rver' as const, accessKey: 'S3RVER', secretKey: 'S3RVER', ...(await startS3rverProcess(dir)) };
  const region = 'us-east-1';
  return {
    ...server,
    bucket,
    storage: () => new MinioStorage({ endpoint: server.endpoint, accessKey: server.accessKey, secretKey: server.secretKey, bucket, region }),
    client: () => {
      const url = new URL(server.endpoint);
      return new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: server.accessKey, secretKey: server.secretKey, region, pathStyle: true });
    },
  };
}
