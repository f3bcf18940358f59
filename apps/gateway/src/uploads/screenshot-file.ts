import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Logger } from '@nestjs/common';
import { AppError, unavailable } from '@market/server-kit';
import type { ImageCleaner } from './clean-image';
import { MAX_HEAD_BYTES, readImageHead } from './image-head';
import { ObjectStorage } from './object-storage';
import { MAX_SCREENSHOT_BYTES, MAX_SCREENSHOT_PIXELS, SCREENSHOTS_FIELD, newScreenshotKey, uploadPath } from './upload-rules';

/** A screenshot this request stored: the key and public path the listing should keep. */
export interface StoredScreenshot {
  key: string;
  path: string;
  content_type: string;
  /** Bytes stored: the cleaned image, which differs from the upload's size (ADR 0029). */
  size: number;
  width: number;
  height: number;
}

/** Where one file of the request stands, for error messages and ordering. */
export interface ScreenshotPart {
  filename: string | undefined;
  index: number;
}

/** What receiving a file needs: where it goes, who cleans it, and the request's abort signal. */
export interface ScreenshotSink {
  storage: ObjectStorage;
  cleaner: ImageCleaner;
  /** Aborted when the request failed: an image still waiting to be decoded is then never decoded. */
  signal?: AbortSignal;
  /** Asked once the file is known not to be an empty file input, before it is spooled: an error refuses it (ADR 0064). */
  admit?: () => unknown;
}

/** Temp files are spooled here (never in UPLOADS_DIR, which may be served); each file has its own directory. */
const SPOOL_PREFIX = join(tmpdir(), 'gateway-screenshot-');

/** 413 for a file past 5 MB (DESIGN D18). */
export const tooLarge = () => new AppError('payload_too_large', 'Each screenshot must be at most 5 MB');
/** A 422 with one located issue. */
export const invalid = (loc: (string | number)[], msg: string, type: string) => new AppError('validation_failed', [{ loc, msg, type }]);
const named = ({ filename, index }: ScreenshotPart) => (filename ? filename : `Screenshot ${index + 1}`);
const pixelsIssue = (part: ScreenshotPart, size: string) =>
  invalid(['body', SCREENSHOTS_FIELD, part.index], `${named(part)} is ${size}; at most 40 megapixels are allowed`, 'image_pixels');

/**
 * Receives one file of the `screenshots` field (ADR 0012, ADR 0029): judges its head by content, spools the file to
 * a temp file while counting it against 5 MB, re-encodes it without metadata (ImageCleaner) and streams the
 * result into storage. `claim` is told the key before anything is written under it, so the request can remove it
 * on failure. Answers null for an empty, unnamed file input; throws an AppError for a refused file.
 */
export async function receiveScreenshot(
  file: Readable,
  part: ScreenshotPart,
  { storage, cleaner, signal, admit }: ScreenshotSink,
  claim: (key: string) => void,
): Promise<StoredScreenshot | null> {
  const { head, result } = await readImageHead(file);
  if (head.length === 0 && !part.filename) return null; // an empty file input the browser sent anyway
  const refusal = admit ? admit() : null;
  if (refusal !== null) throw refusal;
  if (result.status === 'need-more') {
    throw invalid(
      ['body', SCREENSHOTS_FIELD, part.index],
      `${named(part)} is not a readable image: no image size in its first ${MAX_HEAD_BYTES / 1024} KB`,
      'image_unreadable',
    );
  }
  if (result.status !== 'image') {
    throw invalid(['body', SCREENSHOTS_FIELD, part.index], `${named(part)} is not a JPEG, PNG, WebP or GIF image`, 'image_type');
  }
  const info = result.info;
  if (info.width * info.height > MAX_SCREENSHOT_PIXELS) throw pixelsIssue(part, `${info.width}x${info.height} pixels`);

  const dir = await mkdtemp(SPOOL_PREFIX);
  try {
    const upload = join(dir, 'upload');
    const cleaned = join(dir, `cleaned.${info.ext}`);
    let received = 0;
    async function* limited() {
      received += head.length;
      yield head;
      for await (const chunk of file) {
        received += (chunk as Buffer).length;
        if (received > MAX_SCREENSHOT_BYTES) throw tooLarge();
        yield chunk as Buffer;
      }
    }
    await pipeline(Readable.from(limited(), { objectMode: false }), createWriteStream(upload, { flags: 'wx' }));

    const outcome = await cleaner.clean(upload, cleaned, info, signal);
    if (outcome.status === 'unreadable') {
      throw invalid(['body', SCREENSHOTS_FIELD, part.index], `${named(part)} is not a readable image: its pixels do not decode`, 'image_unreadable');
    }
    if (outcome.status === 'pixels') throw pixelsIssue(part, `${outcome.width}x${outcome.height} pixels in ${outcome.frames} frames`);

    const key = newScreenshotKey(info);
    claim(key);
    await storage.put(key, createReadStream(cleaned), info.contentType, outcome.size).catch((error: unknown) => {
      if (error instanceof AppError) throw error;
      // Storage down is the gateway degraded, not broken: the upload is a 503 and the rest goes on (ADR 0050).
      new Logger('Uploads').warn(`Storing ${key} failed: ${(error as Error)?.message ?? String(error)}`);
      throw unavailable('Screenshots cannot be stored right now; please try again in a few minutes');
    });
    return { key, path: uploadPath(key), content_type: info.contentType, size: outcome.size, width: outcome.width, height: outcome.height };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
