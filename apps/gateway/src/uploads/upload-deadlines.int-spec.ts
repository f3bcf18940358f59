import { mkdtemp, readdir, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { eventually } from '@market/server-kit/testing';
import { UploadSlots } from './index';
import { png } from './testing/image-fixtures';
import { noisePng } from './testing/real-images';
import { gate, sendHugeUpload, sendStreamed } from './testing/streamed-form';
import { TEST_USER_HEADER, startUploadApp } from './testing/upload-test-app';

const screenshot = (bytes: Buffer, filename = 'shot.png') => ({ name: 'screenshots', bytes, filename, type: 'image/png' });
// Far more than any upload may be (27 MB): a gateway that drained it would read every byte.
const HUGE = 512 * 1024 * 1024;
// What the gateway may read of a refused body: what was in flight when it answered (socket buffers), a few MB.
const READ_AT_MOST = 32 * 1024 * 1024;

/** The gateway's side of the connection that carries the next request from `user`. */
function connectionOf(app: INestApplication, user: string): Promise<Socket> {
  const server = app.getHttpServer() as Server;
  return new Promise((resolve) => {
    const seen = (req: { headers: Record<string, unknown>; socket: Socket }) => {
      if (req.headers[TEST_USER_HEADER] !== user) return;
      server.off('request', seen);
      resolve(req.socket);
    };
    server.on('request', seen);
  });
}

describe('uploads: a slow or stalled body frees its slot (ADR 0029)', () => {
  const IDLE_MS = 1000;
  const DEADLINE_MS = 2000;
  let root: string;
  let dir: string;
  let app: INestApplication;
  let url: string;
  let picture: Buffer;

  const stored = async () => (await readdir(dir).catch(() => [] as string[])).filter((name) => !name.endsWith('.meta.json'));
  const inUse = () => app.get(UploadSlots).inUse();

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'upload-deadlines-'));
    dir = join(root, 'uploads');
    picture = await noisePng(400_000);
    let base: string;
    ({ app, base } = await startUploadApp({
      UPLOADS_DIR: dir,
      UPLOADS_MAX_CONCURRENT: '2',
      UPLOADS_MAX_PER_USER: '2',
      UPLOADS_IDLE_MS: String(IDLE_MS),
      UPLOADS_DEADLINE_MS: String(DEADLINE_MS),
    }));
    url = `${base}/api/things`;
  });

  afterAll(async () => {
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('answers uploads that stop sending with 408 once the idle gap passes, freeing every slot they held', async () => {
    const held = gate();
    try {
      const started = Date.now();
      // One account's two uploads hold every slot of this gateway, then send nothing more.
      const stalled = [
        sendStreamed(url, [screenshot(picture, 'a.png')], { user: 'mallory', hold: held.wait }),
        sendStreamed(url, [screenshot(picture, 'b.png')], { user: 'mallory', hold: held.wait }),
      ];
      await eventually(() => expect(inUse()).toBe(2));
      // Another user meets the server's capacity (503), not a limit of their own.
      expect((await sendStreamed(url, [screenshot(png(8, 8))], { user: 'olivia' })).status).toBe(503);

      // Free within the idle gap (and some scheduling), not after Node's 300 s request timeout.
      await eventually(() => expect(inUse()).toBe(0), IDLE_MS + 3000, 20);
      expect(Date.now() - started).toBeLessThan(IDLE_MS + 3000);
      for (const answer of await Promise.all(stalled)) {
        expect(answer.status).toBe(408);
        expect(answer.body).toMatchObject({ detail: 'The upload stalled: nothing arrived for 1 second' });
      }
      expect(await stored()).toEqual([]);
      expect((await sendStreamed(url, [screenshot(png(8, 8))], { user: 'olivia' })).status).toBe(201);
    } finally {
      held.open();
    }
  });

  it('answers an upload that keeps trickling past UPLOADS_DEADLINE_MS with 408 and frees its slot', async () => {
    const before = await stored();
    const started = Date.now();
    // A 64 KB slice every 400 ms never trips the idle gap, but the ~400 KB file needs 2.4 s in all.
    const answer = sendStreamed(url, [screenshot(picture, 'slow.png')], { user: 'trudy', pace: 400 });
    await eventually(() => expect(inUse()).toBe(1));
    const { status, body } = await answer;
    expect(status).toBe(408);
    expect(body).toMatchObject({ detail: 'The upload did not arrive within 2 seconds; try again on a faster connection' });
    expect(Date.now() - started).toBeLessThan(DEADLINE_MS + 1500);
    expect(inUse()).toBe(0);
    expect(await stored()).toEqual(before);
  });

  it('takes an upload that arrives in time, however it is paced', async () => {
    // Three slices 300 ms apart: well within the idle gap and the deadline.
    const { status } = await sendStreamed(url, [screenshot(await noisePng(150_000), 'paced.png')], { user: 'trudy', pace: 300 });
    expect(status).toBe(201);
    expect(inUse()).toBe(0);
  });
});

describe('uploads: a refused request is not read to its end (ADR 0029)', () => {
  let root: string;
  let app: INestApplication;
  let url: string;
  let picture: Buffer;
  const inUse = () => app.get(UploadSlots).inUse();

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'upload-refusals-'));
    picture = await noisePng(400_000);
    let base: string;
    ({ app, base } = await startUploadApp({ UPLOADS_DIR: join(root, 'uploads'), UPLOADS_MAX_CONCURRENT: '3', UPLOADS_MAX_PER_USER: '2' }));
    url = `${base}/api/things`;
  });

  afterAll(async () => {
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('answers a request over the user\'s limit with 429 and closes its connection instead of draining a huge body', async () => {
    const held = gate();
    const running = [
      sendStreamed(url, [screenshot(picture, 'a.png')], { user: 'victor', hold: held.wait }),
      sendStreamed(url, [screenshot(picture, 'b.png')], { user: 'victor', hold: held.wait }),
    ];
    try {
      await eventually(() => expect(inUse()).toBe(2));

      const connection = connectionOf(app, 'victor');
      const { status, headers, body } = await sendHugeUpload(url, { user: 'victor', bytes: HUGE });
      expect(status).toBe(429);
      expect(headers.get('retry-after')).toBe('5');
      expect(headers.get('ratelimit')).toBe('"uploads";r=0;t=5');
      expect(body).toMatchObject({ detail: 'You already have 2 uploads in progress; try again when they finish' });
      // The gateway closed the connection once it had answered: what it read is what was in flight, not the 512 MB.
      const socket = await connection;
      await eventually(() => expect(socket.destroyed).toBe(true), 5000, 20);
      expect(socket.bytesRead).toBeLessThan(READ_AT_MOST);
      expect(headers.get('connection')).toBe('close');
      expect(inUse()).toBe(2);

      held.open();
      expect((await Promise.all(running)).map((answer) => answer.status)).toEqual([201, 201]);
      expect(inUse()).toBe(0);
    } finally {
      held.open();
      await Promise.allSettled(running);
    }
  });

  it('answers a refused file at once and reads no further, freeing the slot', async () => {
    // Zeros are no image: refused from the file's first bytes, while the client is still sending.
    const connection = connectionOf(app, 'wendy');
    const { status, body } = await sendHugeUpload(url, { user: 'wendy', bytes: HUGE });
    expect(status).toBe(422);
    expect(body).toMatchObject({ detail: [{ loc: ['body', 'screenshots', 0], msg: 'huge.png is not a JPEG, PNG, WebP or GIF image', type: 'image_type' }] });
    expect(inUse()).toBe(0);
    const socket = await connection;
    await eventually(() => expect(socket.destroyed).toBe(true), 5000, 20);
    expect(socket.bytesRead).toBeLessThan(READ_AT_MOST);
  });
});
