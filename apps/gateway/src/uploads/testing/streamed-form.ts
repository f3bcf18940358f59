// Multipart bodies sent chunk by chunk, for the upload limit, deadline and memory tests: a file is sent as 64 KB
// slices of one Buffer (never copied whole); a body can stop midway until the test lets it go on, or trickle.
import { randomUUID } from 'node:crypto';
import { connect } from 'node:net';
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

/** Resolves after `ms` (the pace of a slow sender; not a wait for a condition). */
const pause = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Sends `parts` as multipart/form-data with a chunked body. With `hold`, the body stops after `holdAfter` bytes of
 * the first file (its header is there, so the gateway has started on it) until `hold` resolves. With `pace`, each
 * 64 KB slice of a file is sent `pace` ms after the previous one (a slow connection).
 */
export async function sendStreamed(
  url: string,
  parts: FormPart[],
  options: { user?: string; hold?: Promise<void>; holdAfter?: number; pace?: number } = {},
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
        if (options.pace && at > 0) await pause(options.pace);
        yield part.bytes.subarray(at, Math.min(at + SLICE, part.bytes.length));
      }
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${boundary}--\r\n`);
  }
  return post(url, boundary, body(), options.user);
}

async function post(url: string, boundary: string, body: AsyncGenerator<Buffer>, user: string | undefined) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, ...(user ? { [TEST_USER_HEADER]: user } : {}) },
    body: Readable.toWeb(Readable.from(body)) as ReadableStream,
    duplex: 'half',
  } as RequestInit);
  return { status: response.status, headers: response.headers, body: (await response.json()) as Record<string, unknown> };
}

/**
 * Sends one file of `bytes` zero bytes (a body far larger than any upload may be) over a raw connection, as a client
 * that ignores the answer would: it keeps writing, as fast as the connection takes it, until the body is sent or the
 * gateway closes the connection. Answers as soon as the gateway's whole answer has arrived.
 */
export function sendHugeUpload(url: string, options: { user?: string; bytes: number }): Promise<{ status: number; headers: Headers; body: Record<string, unknown> }> {
  const { hostname, port, pathname } = new URL(url);
  const boundary = `----test-${randomUUID()}`;
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined); // the gateway closing mid-write is the expected end
  const chunk = (data: Buffer) => Buffer.concat([Buffer.from(`${data.length.toString(16)}\r\n`), data, Buffer.from('\r\n')]);
  const zeros = chunk(Buffer.alloc(SLICE));
  void (async () => {
    socket.write(
      `POST ${pathname} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nTransfer-Encoding: chunked\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n${options.user ? `${TEST_USER_HEADER}: ${options.user}\r\n` : ''}\r\n`,
    );
    socket.write(chunk(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="screenshots"; filename="huge.png"\r\nContent-Type: image/png\r\n\r\n`)));
    for (let sent = 0; sent < options.bytes && !socket.destroyed; sent += SLICE) {
      if (!socket.write(zeros)) await new Promise((resolve) => (socket.once('drain', resolve), socket.once('close', resolve)));
    }
    if (!socket.destroyed) socket.end(Buffer.concat([chunk(Buffer.from(`\r\n--${boundary}--\r\n`)), Buffer.from('0\r\n\r\n')]));
  })();
  return new Promise((resolve, reject) => {
    let received = Buffer.alloc(0);
    const answered = () => {
      const end = received.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const [statusLine, ...lines] = received.subarray(0, end).toString('latin1').split('\r\n');
      const headers = new Headers(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
      const body = received.subarray(end + 4);
      if (body.length < Number(headers.get('content-length'))) return false;
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body.toString('utf8')) as Record<string, unknown> });
      return true;
    };
    const onData = (data: Buffer) => {
      received = Buffer.concat([received, data]);
      if (answered()) socket.off('data', onData);
    };
    socket.on('data', onData);
    socket.on('close', () => reject(new Error(`the connection closed before a whole answer: ${received.toString('latin1')}`)));
  });
}
