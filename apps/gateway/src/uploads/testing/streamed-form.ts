// Multipart bodies sent chunk by chunk, for the upload limit and memory tests: a file is sent as 64 KB slices of
// one Buffer (never copied whole), and a body can stop midway until the test lets it go on.
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { FormPart } from './upload-test-app';
import { TEST_USER_HEADER } from './upload-test-app';

const SLICE = 64 * 1024;

/** A promise the test resolves by hand: `open()` lets a held body go on. */
export function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((resolve) => (open = resolve));
  return { wait, open };
}

/**
 * Sends `parts` as multipart/form-data with a chunked body. With `hold`, the body stops after `holdAfter` bytes of
 * the first file (its header is there, so the gateway has started on it) until `hold` resolves.
 */
export async function sendStreamed(
  url: string,
  parts: FormPart[],
  options: { user?: string; hold?: Promise<void>; holdAfter?: number } = {},
): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const boundary = `----test-${randomUUID()}`;
  async function* body() {
    let held = false;
    for (const part of parts) {
      if ('value' in part) {
        yield Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`);
        continue;
      }
      yield Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\n` +
          `Content-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`,
      );
      for (let at = 0; at < part.bytes.length; at += SLICE) {
        if (options.hold && !held && at >= (options.holdAfter ?? SLICE)) {
          held = true;
          await options.hold;
        }
        yield part.bytes.subarray(at, Math.min(at + SLICE, part.bytes.length));
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(options.user ? { [TEST_USER_HEADER]: options.user } : {}) },
    body: Readable.toWeb(Readable.from(body())) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}
