import type { Provider } from '@nestjs/common';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { ImageCleaner } from './clean-image';
import { DiskStorage } from './disk-storage';
import { MinioStorage } from './minio-storage';
import { ObjectStorage } from './object-storage';
import { ScreenshotsInterceptor } from './screenshots.interceptor';
import { UploadSlots } from './upload-slots';

/** The storage adapter the configuration asks for: MinIO/S3 when S3_ENDPOINT is set, else the local disk. */
export function createObjectStorage(config: GatewayConfig): ObjectStorage {
  if (config.S3_ENDPOINT) {
    return new MinioStorage({
      endpoint: config.S3_ENDPOINT,
      accessKey: config.S3_ACCESS_KEY ?? '',
      secretKey: config.S3_SECRET_KEY ?? '',
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
    });
  }
  return new DiskStorage(config.UPLOADS_DIR);
}

/** Providers for the gateway module: ObjectStorage (from GATEWAY_CONFIG), the upload slots, the image cleaner and the screenshots interceptor. */
export const UPLOADS_PROVIDERS: Provider[] = [
  { provide: ObjectStorage, inject: [GATEWAY_CONFIG], useFactory: createObjectStorage },
  UploadSlots,
  ImageCleaner,
  ScreenshotsInterceptor,
];
