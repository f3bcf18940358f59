import type { Readable } from 'node:stream';
import busboy, { type Busboy } from 'busboy';
import type { Request } from 'express';
import { AppError, badRequest } from '@market/server-kit';
import { invalid, receiveScreenshot, type ScreenshotSink, type StoredScreenshot } from './screenshot-file';
import { MAX_SCREENSHOTS, MAX_SCREENSHOT_BYTES, SCREENSHOTS_FIELD } from './upload-rules';

export type { StoredScreenshot } from './screenshot-file';

export interface MultipartResult {
  fields: Record<string, string | string[]>;
  screenshots: StoredScreenshot[];
}

/** How long a body may take to arrive (ADR 0029): in all, and between two chunks. */
export interface UploadDeadlines {
  totalMs: number;
  idleMs: number;
}

/**
 * Asked once, when the first file that is not an empty file input begins (after its first bytes, before it is
 * spooled): null lets the files in, an error refuses the request there (the upload limits, ADR 0064). A form
 * without files never asks, so it takes no upload slot.
 */
export type FirstFileGate = () => unknown;

// The longest listing text (the description) is 10,000 characters, at most 40 KB of UTF-8.
const FIELD_BYTES = 64 * 1024;
// About 25 listing fields plus repeated monetization_methods and existing_screenshots.
const MAX_FIELDS = 60;
// All text fields together hold no more than a JSON body may (1 MB): a form without files takes no upload slot
// (ADR 0064), so its cost must be that of any JSON request.
const MAX_FIELDS_TOTAL_BYTES = 1024 * 1024;
// Five full screenshots plus room for the text fields and multipart framing. Counted on the bytes received, since
// a chunked request declares no length; a larger declared length is refused before reading.
const MAX_BODY_BYTES = MAX_SCREENSHOTS * MAX_SCREENSHOT_BYTES + 2 * 1024 * 1024;

const bodyTooLarge = () => new AppError('payload_too_large', `The request body must be at most ${MAX_BODY_BYTES / (1024 * 1024)} MB`);
const seconds = (ms: number) => {
  const n = Math.round(ms / 100) / 10;
  return `${n} second${n === 1 ? '' : 's'}`;
};
const tooSlow = (ms: number) => new AppError('request_timeout', `The upload did not arrive within ${seconds(ms)}; try again on a faster connection`);
const stalled = (ms: number) => new AppError('request_timeout', `The upload stalled: nothing arrived for ${seconds(ms)}`);

/** Collects a field; a repeated name becomes an array in arrival order. */
function addField(fields: Record<string, string | string[]>, name: string, value: string): void {
  const existing = fields[name];
  if (existing === undefined) fields[name] = value;
  else if (Array.isArray(existing)) existing.push(value);
  else fields[name] = [existing, value];
}

/**
 * Parses a multipart/form-data request: text fields are collected, each file in `screenshots` is checked by its
 * content (DESIGN D18), cleaned of metadata and streamed into storage under a server-generated key (ADR 0029).
 * The body must arrive within `deadlines` (a 408 otherwise). On any failure the request is no longer read (the
 * caller closes the connection once it has answered), and every object stored for it is removed before the
 * AppError is thrown.
 */
export function receiveScreenshots(
  req: Request,
  sink: Omit<ScreenshotSink, 'signal'>,
  deadlines: UploadDeadlines,
  beforeFirstFile: FirstFileGate = () => null,
): Promise<MultipartResult> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.reject(bodyTooLarge());
  let parser: Busboy;
  try {
    parser = busboy({
      headers: req.headers,
      // Browsers send file names as raw UTF-8; busboy's default would read them as Latin-1.
      defParamCharset: 'utf8',
      limits: { files: MAX_SCREENSHOTS, fileSize: MAX_SCREENSHOT_BYTES + 1, fields: MAX_FIELDS, fieldSize: FIELD_BYTES },
    });
  } catch {
    return Promise.reject(badRequest('Malformed multipart/form-data request'));
  }

  return new Promise<MultipartResult>((resolve, reject) => {
    const fields: Record<string, string | string[]> = {};
    const screenshots: StoredScreenshot[] = [];
    const attemptedKeys: string[] = [];
    const pending: Promise<void>[] = [];
    const activeFiles = new Set<Readable>();
    let failure: unknown = null;
    let settled = false;
    let fileIndex = 0;
    let fieldBytes = 0;
    const order = new Map<string, number>();
    const aborted = new AbortController();
    const { storage } = sink;
    let admitted = false;
    const admit = () => {
      if (admitted) return null;
      admitted = true;
      return beforeFirstFile();
    };

    // A body that takes too long, or stops arriving, frees its slot instead of holding it until Node's own timeout.
    const deadline = setTimeout(() => fail(tooSlow(deadlines.totalMs)), deadlines.totalMs);
    const idle = setTimeout(() => fail(stalled(deadlines.idleMs)), deadlines.idleMs);
    const stopTimers = () => {
      clearTimeout(deadline);
      clearTimeout(idle);
    };

    const settle = async () => {
      if (settled) return;
      settled = true;
      stopTimers();
      await Promise.allSettled(pending);
      if (failure === null) {
        // Arrival order, whatever order the stores finished in.
        resolve({ fields, screenshots: screenshots.sort((a, b) => order.get(a.key)! - order.get(b.key)!) });
        return;
      }
      await storage.remove(attemptedKeys).catch(() => undefined);
      reject(failure);
    };

    const fail = (error: unknown) => {
      if (failure !== null) return;
      failure = error;
      // Stop parsing and reading (never drain a body of unknown size), and stop the stores still running.
      stopTimers();
      req.unpipe(parser);
      req.off('data', countBody);
      req.pause();
      aborted.abort();
      for (const file of activeFiles) file.destroy(new Error('upload aborted'));
      void settle();
    };

    const store = async (file: Readable, filename: string | undefined, index: number) => {
      // Errors reach receiveScreenshot; this keeps an aborted file from being an unhandled 'error'.
      file.on('error', () => undefined);
      activeFiles.add(file);
      try {
        const stored = await receiveScreenshot(file, { filename, index }, { ...sink, signal: aborted.signal, admit }, (key) => {
          // A file cleaned after the request failed is not stored at all.
          if (failure !== null) throw new Error('upload aborted');
          attemptedKeys.push(key);
          order.set(key, index);
        });
        if (stored) screenshots.push(stored);
      } finally {
        activeFiles.delete(file);
      }
    };

    parser.on('field', (name, value, info) => {
      if (info.nameTruncated || info.valueTruncated) {
        return fail(new AppError('payload_too_large', `Field ${name} must be at most ${FIELD_BYTES / 1024} KB`));
      }
      fieldBytes += Buffer.byteLength(name) + Buffer.byteLength(value);
      if (fieldBytes > MAX_FIELDS_TOTAL_BYTES) {
        return fail(new AppError('payload_too_large', `The form's text fields must be at most ${MAX_FIELDS_TOTAL_BYTES / (1024 * 1024)} MB in all`));
      }
      addField(fields, name, value);
    });
    parser.on('file', (name, file, info) => {
      if (failure !== null) return file.resume();
      if (name !== SCREENSHOTS_FIELD) {
        file.resume();
        return fail(invalid(['body', name], `Files are accepted only in the ${SCREENSHOTS_FIELD} field`, 'unexpected_file'));
      }
      const index = fileIndex;
      fileIndex += 1;
      pending.push(store(file, info.filename, index).catch(fail));
    });
    parser.on('filesLimit', () => fail(invalid(['body', SCREENSHOTS_FIELD], `At most ${MAX_SCREENSHOTS} screenshots`, 'too_many_files')));
    parser.on('fieldsLimit', () => fail(new AppError('payload_too_large', `At most ${MAX_FIELDS} form fields`)));
    parser.on('error', () => fail(badRequest('Malformed multipart/form-data request')));
    parser.on('close', () => void settle());
    let received = 0;
    function countBody(chunk: Buffer) {
      received += chunk.length;
      idle.refresh();
      if (received > MAX_BODY_BYTES) fail(bodyTooLarge());
    }
    req.on('data', countBody);
    req.on('end', stopTimers);
    // A client that goes away mid-upload leaves the parser waiting forever: treat it as a failure.
    req.on('error', () => fail(badRequest('The upload was interrupted')));
    req.on('close', () => {
      if (!req.complete) fail(badRequest('The upload was interrupted'));
    });
    req.pipe(parser);
  });
}
