import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseEnvOrThrow, generateSigningKeys, generateBusEnv } from '@market/server-kit';
import { checkStorageConfig, gatewayEnv } from '../gateway.config';
import { DiskStorage } from './disk-storage';
import { MinioStorage } from './minio-storage';
import { createObjectStorage } from './uploads.providers';

const env = (extra: Record<string, string>) => parseEnvOrThrow(gatewayEnv, { JWT_PUBLIC_KEYS: generateSigningKeys().JWT_PUBLIC_KEYS, ...generateBusEnv('gateway'), ...extra });

describe('storage configuration', () => {
  it('defaults to files under data/uploads of the working directory', () => {
    const config = env({});
    expect(config).toMatchObject({ UPLOADS_DIR: resolve(process.cwd(), 'data/uploads'), S3_BUCKET: 'screenshots', S3_REGION: 'us-east-1' });
    expect(createObjectStorage(config)).toBeInstanceOf(DiskStorage);
    const dir = join(tmpdir(), 'x');
    expect((createObjectStorage(env({ UPLOADS_DIR: dir })) as DiskStorage).dir).toBe(dir);
  });

  it('uses MinIO when an endpoint and both keys are set', () => {
    const config = env({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'minio', S3_SECRET_KEY: 'Vq3mT8xLr2Wc9NpZk4Hs' });
    expect(() => checkStorageConfig(config)).not.toThrow();
    expect(createObjectStorage(config)).toBeInstanceOf(MinioStorage);
  });

  it.each([
    [{ S3_ENDPOINT: 'minio:9000' }, /^Invalid configuration: S3_ENDPOINT: /],
    [{ S3_ENDPOINT: 'ftp://minio' }, /^Invalid configuration: S3_ENDPOINT: /],
    [{ S3_BUCKET: 'Bad_Bucket' }, /^Invalid configuration: S3_BUCKET: /],
    [{ S3_REGION: 'US East' }, /^Invalid configuration: S3_REGION: /],
    // The old compose default and a short key are not secrets (ADR 0031).
    [{ S3_SECRET_KEY: 'minio-secret' }, /^Invalid configuration: S3_SECRET_KEY: is a placeholder/],
    [{ S3_SECRET_KEY: 'Vq3mT8xLr2' }, /^Invalid configuration: S3_SECRET_KEY: must be at least 16 characters/],
  ])('refuses %j naming the variable', (extra, message) => {
    expect(() => env(extra)).toThrow(message);
  });

  it('names the missing key when only the endpoint is set', () => {
    expect(() => checkStorageConfig(env({ S3_ENDPOINT: 'http://minio:9000' }))).toThrow(
      'Invalid configuration: S3_ACCESS_KEY: is required when S3_ENDPOINT is set',
    );
    expect(() => checkStorageConfig(env({ S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'a' }))).toThrow(/^Invalid configuration: S3_SECRET_KEY: /);
  });
});
