import { randomUUID } from 'node:crypto';
import { SCREENSHOT_KEY_PATTERN, UPLOADS_PATH_PREFIX } from '@market/contracts';
import type { ImageInfo } from './image-sniff';

export { MAX_SCREENSHOTS } from '@market/domain';
export { uploadPath } from '@market/contracts';

// DESIGN D18: limits per screenshot and per request.
export const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;
export const MAX_SCREENSHOT_PIXELS = 40_000_000;
export const SCREENSHOTS_FIELD = 'screenshots';
/** The site logo: served from storage when uploaded there, else from the gateway's own asset. */
export const LOGO_KEY = 'logo.png';

// The type each extension of a servable key names; keys are made by the server from the sniffed format.
const TYPE_OF_EXTENSION: Record<string, string> = { jpg: 'image/jpeg', png: 'image/png', webp: 'image/webp', gif: 'image/gif' };

/** A fresh storage key for an image of the detected format. */
export function newScreenshotKey(info: Pick<ImageInfo, 'ext'>): string {
  return `${randomUUID()}.${info.ext}`;
}

/** True for keys this server generates (and the logo); anything else, traversal included, is refused. */
export function isServableKey(key: string): boolean {
  return key === LOGO_KEY || SCREENSHOT_KEY_PATTERN.test(key);
}

/** The key behind a path from ListingDto.screenshots, or null when it is not one of ours. */
export function keyFromUploadPath(path: string): string | null {
  if (!path.startsWith(UPLOADS_PATH_PREFIX)) return null;
  const key = path.slice(UPLOADS_PATH_PREFIX.length);
  return isServableKey(key) ? key : null;
}

/** The content type a servable key is served with: the one its extension names, never the stored one (ADR 0029). */
export function contentTypeOfKey(key: string): string | null {
  if (!isServableKey(key)) return null;
  return TYPE_OF_EXTENSION[key.slice(key.lastIndexOf('.') + 1)] ?? null;
}
