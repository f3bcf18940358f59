import { randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import sharp from 'sharp';
import { ObjectStorage, type StoredScreenshot } from './index';
import { pngHeader } from './testing/image-fixtures';
import { EXIF_MARKER, animatedGif, hasGps, realJpeg, realPng, realWebp } from './testing/real-images';
import { startTestObjectStore } from './testing/test-object-store';
import { form, startUploadApp, type FormPart } from './testing/upload-test-app';

const file = (bytes: Buffer, filename: string, type = 'application/octet-stream'): FormPart => ({ name: 'screenshots', bytes, filename, type });
// 11 frames of 2000x2000: each frame is within the limit, all of them are 44 megapixels to decode. Made once.
let flipbook: Promise<Buffer> | undefined;

describe.each([
  ['disk', false],
  ['MinIO (s3rver, or a MinIO container)', true],
])('screenshots are stored cleaned of metadata and served by their key (%s, ADR 0029)', (_name, useMinio) => {
  let root: string;
  let app: INestApplication;
  let base: string;
  let stopS3: (() => Promise<void>) | undefined;
  let storedKeys: () => Promise<string[]>;

  const send = async (parts: FormPart[]) => {
    const response = await fetch(`${base}/api/things`, { method: 'POST', body: form(parts) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };
  const download = async (shot: StoredScreenshot) => {
    const response = await fetch(`${base}${shot.path}`);
    expect(response.status).toBe(200);
    return { type: response.headers.get('content-type'), bytes: Buffer.from(await response.arrayBuffer()) };
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'screenshots-cleaning-'));
    let storage: ObjectStorage | undefined;
    const dir = join(root, 'uploads');
    storedKeys = async () => (await readdir(dir).catch(() => [] as string[])).filter((name) => !name.endsWith('.meta.json'));
    if (useMinio) {
      const s3 = await startTestObjectStore(join(root, 's3'), 'cleaning-test');
      stopS3 = s3.stop;
      storage = s3.storage();
      const client = s3.client();
      storedKeys = async () => {
        const keys: string[] = [];
        for await (const item of client.listObjectsV2(s3.bucket, '', true)) keys.push((item as { name: string }).name);
        return keys;
      };
    }
    ({ app, base } = await startUploadApp({ UPLOADS_DIR: dir }, storage));
  });

  afterAll(async () => {
    await app?.close();
    await stopS3?.();
    await rm(root, { recursive: true, force: true });
  });

  afterEach(async () => {
    await app.get(ObjectStorage).remove(await storedKeys());
  });

  it('a JPEG with EXIF and GPS comes back without any of it', async () => {
    const photo = await realJpeg(320, 240, { exif: true });
    // The upload really carries them.
    expect(await hasGps(photo)).toBe(true);
    expect(photo.includes(EXIF_MARKER)).toBe(true);

    const { status, body } = await send([file(photo, 'holiday.jpg', 'image/jpeg')]);
    expect(status).toBe(201);
    const [shot] = body.screenshots as StoredScreenshot[];
    expect(shot).toMatchObject({ content_type: 'image/jpeg', width: 320, height: 240 });

    const served = await download(shot);
    expect(served.type).toBe('image/jpeg');
    expect(served.bytes.length).toBe(shot.size);
    const meta = await sharp(served.bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 320, height: 240 });
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(await hasGps(served.bytes)).toBe(false);
    expect(served.bytes.includes(EXIF_MARKER)).toBe(false);
    expect(served.bytes.includes('Exif\0\0')).toBe(false);
  });

  it('turns the pixels as the EXIF orientation said before dropping it, so the picture looks the same', async () => {
    const { status, body } = await send([file(await realJpeg(40, 20, { orientation: 6 }), 'phone.jpg')]);
    expect(status).toBe(201);
    const [shot] = body.screenshots as StoredScreenshot[];
    expect(shot).toMatchObject({ width: 20, height: 40 });
    const meta = await sharp((await download(shot)).bytes).metadata();
    expect(meta).toMatchObject({ width: 20, height: 40 });
    expect(meta.orientation).toBeUndefined();
  });

  it('keeps the format of PNG and WebP files, and every frame of an animated GIF', async () => {
    const { status, body } = await send([
      file(await realPng(30, 20), 'a.png'),
      file(await realWebp(40, 30), 'b.webp'),
      file(await animatedGif(24, 16, 4), 'c.gif'),
    ]);
    expect(status).toBe(201);
    const shots = body.screenshots as StoredScreenshot[];
    expect(shots.map((s) => [s.content_type, s.width, s.height])).toEqual([
      ['image/png', 30, 20],
      ['image/webp', 40, 30],
      ['image/gif', 24, 16],
    ]);
    const metas = await Promise.all(shots.map(async (s) => sharp((await download(s)).bytes, { animated: true }).metadata()));
    expect(metas.map((m) => m.format)).toEqual(['png', 'webp', 'gif']);
    expect(metas[2]).toMatchObject({ pages: 4, pageHeight: 16, loop: 0, delay: [100, 100, 100, 100] });
  });

  it('refuses an animated GIF whose frames together pass 40 megapixels, storing nothing', async () => {
    flipbook ??= animatedGif(2000, 2000, 11);
    const { status, body } = await send([file(await realPng(8, 8), 'ok.png'), file(await flipbook, 'flipbook.gif')]);
    expect(status).toBe(422);
    expect(body.detail).toEqual([
      {
        loc: ['body', 'screenshots', 1],
        msg: 'flipbook.gif is 2000x2000 pixels in 11 frames; at most 40 megapixels are allowed',
        type: 'image_pixels',
      },
    ]);
    expect(await storedKeys()).toEqual([]);
  });

  it('refuses a file whose header is valid but whose pixels do not decode, storing nothing', async () => {
    const truncated = Buffer.concat([pngHeader(100, 100), Buffer.alloc(200, 0x11)]);
    const { status, body } = await send([file(truncated, 'broken.png')]);
    expect(status).toBe(422);
    expect(body.detail).toEqual([{ loc: ['body', 'screenshots', 0], msg: 'broken.png is not a readable image: its pixels do not decode', type: 'image_unreadable' }]);
    expect(await storedKeys()).toEqual([]);
  });

  it('serves a stored object with the type its key names, whatever type the bucket holds', async () => {
    const storage = app.get(ObjectStorage);
    const key = `${randomUUID()}.png`;
    const bytes = await realPng(4, 4);
    // As if written by another tool, or tampered with: the stored type would make it a page on our origin.
    await storage.put(key, Readable.from([bytes]), 'text/html', bytes.length);
    expect((await storage.get(key))!.contentType).toBe('text/html');

    const response = await fetch(`${base}/api/uploads/${key}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/png');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(Buffer.from(await response.arrayBuffer())).toEqual(bytes);
    await storage.remove([key]);
  });
});
