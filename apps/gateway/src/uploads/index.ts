export { ObjectStorage, type StoredObject } from './object-storage';
export { DiskStorage } from './disk-storage';
export { MinioStorage, type MinioStorageOptions } from './minio-storage';
export { UPLOADS_PROVIDERS, createObjectStorage } from './uploads.providers';
export { UploadsController } from './uploads.controller';
export { ScreenshotsInterceptor, UploadedScreenshots, discardScreenshots } from './screenshots.interceptor';
export type { StoredScreenshot } from './multipart-screenshots';
export { UploadSlots, UPLOAD_RETRY_AFTER_SECONDS } from './upload-slots';
export { ImageCleaner } from './clean-image';
export { sniffImage, type ImageInfo, type SniffResult } from './image-sniff';
export {
  MAX_SCREENSHOTS,
  MAX_SCREENSHOT_BYTES,
  MAX_SCREENSHOT_PIXELS,
  SCREENSHOTS_FIELD,
  LOGO_KEY,
  contentTypeOfKey,
  isServableKey,
  keyFromUploadPath,
  uploadPath,
} from './upload-rules';
