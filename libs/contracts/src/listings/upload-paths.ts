/** Where uploaded files are served (SPEC §7): /api/uploads/{key}. */
export const UPLOADS_PATH_PREFIX = '/api/uploads/';

/** Keys the server generates for screenshots: a v4 UUID and the extension of the detected format (D18). */
export const SCREENSHOT_KEY_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}\.(jpg|png|webp|gif)$/;

/** The public path of a stored object. */
export function uploadPath(key: string): string {
  return `${UPLOADS_PATH_PREFIX}${key}`;
}

/** The screenshot key behind a /api/uploads path or a bare key, or null when it is not one the server made. */
export function screenshotKeyFrom(ref: string): string | null {
  const key = ref.startsWith(UPLOADS_PATH_PREFIX) ? ref.slice(UPLOADS_PATH_PREFIX.length) : ref;
  return SCREENSHOT_KEY_PATTERN.test(key) ? key : null;
}
