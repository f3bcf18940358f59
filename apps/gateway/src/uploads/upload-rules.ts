import { randomUUID } from 'node:crypto';
import type { ImageInfo } from './image-sniff';

// DESIGN D18: limits per screenshot and per request.
export const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;
export const MAX_SCREENSHOT_PIXELS = 40_000_000;
export const MAX_SCREENSHOTS = 5;
export const SCREENSHOTS_FIELD = 'screenshots';
export const UPLOADS_PATH_PREFIX = '/api/uploads/';
/** The site logo: served from storage when uploaded there, else from the gateway's own asset. */
export const LOGO_KEY = 'logo.png';

// Keys the server generates: a v4 UUID and the extension of the detected format, nothing a client chose.
const GENERATED_KEY = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(jpg|png|webp|gif)$/;

/** A fresh storage key for an image of the detected format. */
export function newScreenshotKey(info: Pick<ImageInfo, 'ext'>): string {
  return `${randomUUID()}.${info.ext}`;
}

/** True for keys this server generates (and the logo); anything else, traversal included, is refused. */
export function isServableKey(key: string): boolean {
  return key === LOGO_KEY || GENERATED_KEY.test(key);
}

/** The public path of a stored object. */
export function uploadPath(key: string): string {
  return `${UPLOADS_PATH_PREFIX}${key}`;
}

/** The key behind a path from ListingDto.screenshots, or null when it is not one of ours. */
export function keyFromUploadPath(path: string): string | null {
  if (!path.startsWith(UPLOADS_PATH_PREFIX)) return null;
  const key = path.slice(UPLOADS_PATH_PREFIX.length);
  return isServableKey(key) ? key : null;
}
