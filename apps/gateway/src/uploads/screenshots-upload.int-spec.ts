import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { INestApplication } from '@nestjs/common';
import sharp from 'sharp';
import { BUNDLED_LOGO } from './uploads.controller';
import { ObjectStorage, type StoredScreenshot } from './index';
import { gif, jpeg, png, pngHeader } from './testing/image-fixtures';
import { jpegWithLargeApp1, realGif, realJpeg, realWebp } from './testing/real-images';
import { form, startUploadApp, type FormPart as Part } from './testing/upload-test-app';

describe('screenshots: multipart upload, checks and serving', () => {
  let root: string;
  let dir: string;
  let app: INestApplication;
  let base: string;

  const stored = async () => readdir(dir).catch((error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? [] : Promise.reject(error)));
  const send = async (parts: Part[], path = '/api/things', method = 'POST') => {
    const response = await fetch(`${base}${path}`, { method, body: form(parts) });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  /** Sends the form as a chunked body (no Content-Length), with `epilogue` bytes after the closing boundary. */
  const sendChunked = async (parts: Part[], epilogue = 0) => {
    const encoded = new Request(base, { method: 'POST', body: form(parts) });
    const framed = Buffer.from(await encoded.arrayBuffer());
    const chunk = Buffer.alloc(1024 * 1024, 0x78);
    async function* body() {
      yield framed;
      for (let sent = 0; sent < epilogue; sent += chunk.length) yield chunk.subarray(0, Math.min(chunk.length, epilogue - sent));
    }
    const response = await fetch(`${base}/api/things`, {
      method: 'POST',
      headers: { 'content-type': encoded.headers.get('content-type')! },
      body: Readable.toWeb(Readable.from(body())) as ReadableStream,
      duplex: 'half',
    } as RequestInit);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  };

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'screenshots-upload-'));
    dir = join(root, 'uploads');
    ({ app, base } = await startUploadApp({ UPLOADS_DIR: dir }));
  });

  afterAll(async () => {
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  afterEach(async () => {
    // Each case starts from an empty store.
    const storage = app.get(ObjectStorage);
    await storage.remove((await stored()).filter((name) => !name.endsWith('.meta.json')));
  });

  it('picks DiskStorage in UPLOADS_DIR when no S3 endpoint is configured', async () => {
    expect(app.get(ObjectStorage).constructor.name).toBe('DiskStorage');
  });

  it('stores a real PNG under a generated key and serves it back, re-encoded, with its type and cache headers', async () => {
    const image = png(64, 48);
    const { status, body } = await send([
      { name: 'title', value: 'My site' },
      { name: 'monetization_methods', value: 'ads' },
      { name: 'monetization_methods', value: 'affiliate' },
      { name: 'screenshots', bytes: image, filename: 'home page.png' },
    ]);
    expect(status).toBe(201);
    expect(body.body).toEqual({ title: 'My site', monetization_methods: ['ads', 'affiliate'] });
    const [shot] = body.screenshots as StoredScreenshot[];
    expect(shot).toEqual({
      key: expect.stringMatching(/^[0-9a-f-]{36}\.png$/),
      path: `/api/uploads/${shot.key}`,
      content_type: 'image/png',
      size: expect.any(Number),
      width: 64,
      height: 48,
    });
    expect((await stored()).sort()).toEqual([shot.key, `${shot.key}.meta.json`].sort());

    const served = await fetch(`${base}${shot.path}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    expect(served.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await served.arrayBuffer());
    expect(bytes.length).toBe(shot.size);
    // The same picture, pixel for pixel (PNG stays lossless).
    const [original, cleaned] = await Promise.all([sharp(image).raw().toBuffer(), sharp(bytes).raw().toBuffer()]);
    expect(cleaned.equals(original)).toBe(true);
  });

  it('judges by content: a JPEG (with a 150 KB APP1 block first) named .png with type image/png is stored and served as a JPEG', async () => {
    const photo = await jpegWithLargeApp1(300, 200, 150_000);
    const { status, body } = await send([{ name: 'screenshots', bytes: photo, filename: 'shot.png', type: 'image/png' }]);
    expect(status).toBe(201);
    const [shot] = body.screenshots as StoredScreenshot[];
    expect(shot).toMatchObject({ content_type: 'image/jpeg', width: 300, height: 200, key: expect.stringMatching(/\.jpg$/) });
    // The APP1 block is gone with the rest of the metadata.
    expect(shot.size).toBeLessThan(150_000);
    expect((await fetch(`${base}${shot.path}`)).headers.get('content-type')).toBe('image/jpeg');
  });

  it('stores up to five files of every accepted format, in the order they were sent', async () => {
    const { status, body } = await send([
      { name: 'screenshots', bytes: await realGif(10, 10), filename: 'a.gif' },
      { name: 'screenshots', bytes: await realWebp(20, 10), filename: 'b.webp' },
      { name: 'screenshots', bytes: await realJpeg(30, 10), filename: 'c.jpg' },
      { name: 'screenshots', bytes: png(40, 10), filename: 'd.png' },
      { name: 'screenshots', bytes: png(50, 10), filename: 'e.png' },
    ]);
    expect(status).toBe(201);
    const shots = body.screenshots as StoredScreenshot[];
    expect(shots.map((s) => [s.content_type, s.width])).toEqual([
      ['image/gif', 10],
      ['image/webp', 20],
      ['image/jpeg', 30],
      ['image/png', 40],
      ['image/png', 50],
    ]);
    expect(await stored()).toHaveLength(10);
  });

  it('passes a multipart request without files through with an empty list', async () => {
    const { status, body } = await send([{ name: 'title', value: 'No pictures' }]);
    expect(status).toBe(201);
    expect(body).toEqual({ body: { title: 'No pictures' }, screenshots: [] });
  });

  it('leaves JSON requests untouched', async () => {
    const response = await fetch(`${base}/api/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'paused' }),
    });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ body: { status: 'paused' }, screenshots: [] });
  });

  describe('refusals leave nothing stored', () => {
    it.each([
      ['SVG named .png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
      ['HTML named .png', Buffer.from('<!DOCTYPE html><html><script>alert(document.cookie)</script></html>')],
    ])('%s: 422 naming the file, even after a good file was stored', async (_name, bytes) => {
      const { status, body } = await send([
        { name: 'screenshots', bytes: png(8, 8), filename: 'good.png' },
        { name: 'screenshots', bytes, filename: 'photo.png', type: 'image/png' },
      ]);
      expect(status).toBe(422);
      expect(body).toMatchObject({
        detail: [{ loc: ['body', 'screenshots', 1], msg: 'photo.png is not a JPEG, PNG, WebP or GIF image', type: 'image_type' }],
      });
      expect(await stored()).toEqual([]);
    });

    it('a 6 MB file: 413', async () => {
      const big = Buffer.concat([png(100, 100), Buffer.alloc(6 * 1024 * 1024, 7)]);
      const { status, body } = await send([
        { name: 'screenshots', bytes: png(8, 8), filename: 'small.png' },
        { name: 'screenshots', bytes: big, filename: 'huge.png' },
      ]);
      expect(status).toBe(413);
      expect(body).toMatchObject({ detail: 'Each screenshot must be at most 5 MB' });
      expect(await stored()).toEqual([]);
    });

    it('a PNG header claiming 20000x20000: 422', async () => {
      const { status, body } = await send([{ name: 'screenshots', bytes: Buffer.concat([pngHeader(20000, 20000), Buffer.alloc(100)]), filename: 'bomb.png' }]);
      expect(status).toBe(422);
      expect(body.detail).toEqual([
        { loc: ['body', 'screenshots', 0], msg: 'bomb.png is 20000x20000 pixels; at most 40 megapixels are allowed', type: 'image_pixels' },
      ]);
      expect(await stored()).toEqual([]);
    });

    it('six files: 422', async () => {
      const parts = Array.from({ length: 6 }, (_, i) => ({ name: 'screenshots', bytes: png(8, 8), filename: `s${i}.png` }));
      const { status, body } = await send(parts);
      expect(status).toBe(422);
      expect(body.detail).toEqual([{ loc: ['body', 'screenshots'], msg: 'At most 5 screenshots', type: 'too_many_files' }]);
      expect(await stored()).toEqual([]);
    });

    it('a file in another field: 422', async () => {
      const { status, body } = await send([
        { name: 'screenshots', bytes: png(8, 8), filename: 'ok.png' },
        { name: 'avatar', bytes: png(8, 8), filename: 'me.png' },
      ]);
      expect(status).toBe(422);
      expect(body.detail).toEqual([{ loc: ['body', 'avatar'], msg: 'Files are accepted only in the screenshots field', type: 'unexpected_file' }]);
      expect(await stored()).toEqual([]);
    });

    it('an empty file with a name: 422', async () => {
      const { status } = await send([{ name: 'screenshots', bytes: Buffer.alloc(0), filename: 'empty.png' }]);
      expect(status).toBe(422);
      expect(await stored()).toEqual([]);
    });

    it('a chunked body (no Content-Length) past 27 MB: 413 once the bytes received pass the limit', async () => {
      const { status, body } = await sendChunked([{ name: 'screenshots', bytes: png(8, 8), filename: 'ok.png' }], 28 * 1024 * 1024);
      expect(status).toBe(413);
      expect(body).toMatchObject({ detail: 'The request body must be at most 27 MB' });
      expect(await stored()).toEqual([]);
    });

    it('a chunked body under the limit is accepted', async () => {
      const { status, body } = await sendChunked([{ name: 'title', value: 'Chunked' }, { name: 'screenshots', bytes: png(8, 8), filename: 'ok.png' }], 1024);
      expect(status).toBe(201);
      expect(body.body).toEqual({ title: 'Chunked' });
      expect(body.screenshots).toHaveLength(1);
    });

    it('a text field over 64 KB: 413, not a truncated value', async () => {
      const { status, body } = await send([
        { name: 'screenshots', bytes: png(8, 8), filename: 'ok.png' },
        { name: 'description', value: 'x'.repeat(65 * 1024) },
      ]);
      expect(status).toBe(413);
      expect(body).toMatchObject({ detail: 'Field description must be at most 64 KB' });
      expect(await stored()).toEqual([]);
    });

    it('a 10,000-character description of 4-byte characters fits', async () => {
      const { status, body } = await send([{ name: 'description', value: '\u{1F600}'.repeat(10_000) }]);
      expect(status).toBe(201);
      expect((body.body as { description: string }).description).toHaveLength(20_000);
    });

    it('61 text fields: 413, not silently dropped', async () => {
      const parts = Array.from({ length: 61 }, (_, i) => ({ name: 'monetization_methods', value: `m${i}` }));
      const { status, body } = await send([{ name: 'screenshots', bytes: png(8, 8), filename: 'ok.png' }, ...parts]);
      expect(status).toBe(413);
      expect(body).toMatchObject({ detail: 'At most 60 form fields' });
      expect(await stored()).toEqual([]);
    });

    it('a JPEG whose frame header is not within its first 512 KB: 422 not readable', async () => {
      const { status, body } = await send([
        { name: 'screenshots', bytes: png(8, 8), filename: 'ok.png' },
        { name: 'screenshots', bytes: jpeg(100, 100, { exifBytes: 10 * 65533 }), filename: 'exif.jpg', type: 'image/jpeg' },
      ]);
      expect(status).toBe(422);
      expect(body.detail).toEqual([
        { loc: ['body', 'screenshots', 1], msg: 'exif.jpg is not a readable image: no image size in its first 512 KB', type: 'image_unreadable' },
      ]);
      expect(await stored()).toEqual([]);
    });

    it('a GIF with a 100x100 screen and a 30000x30000 first frame: 422', async () => {
      const bomb = gif(100, 100, '89a', { frame: { left: 0, top: 0, width: 30000, height: 30000 } });
      const { status, body } = await send([{ name: 'screenshots', bytes: bomb, filename: 'frame.gif', type: 'image/gif' }]);
      expect(status).toBe(422);
      expect(body.detail).toEqual([{ loc: ['body', 'screenshots', 0], msg: 'frame.gif is not a JPEG, PNG, WebP or GIF image', type: 'image_type' }]);
      expect(await stored()).toEqual([]);
    });

    it('the handler refuses the request (4xx): the stored screenshots are removed', async () => {
      const { status, body } = await send([{ name: 'screenshots', bytes: png(8, 8), filename: 'ok.png' }], '/api/things/refused', 'PATCH');
      expect(status).toBe(400);
      expect(body).toMatchObject({ detail: 'The listings service said no' });
      expect(await stored()).toEqual([]);
    });
  });

  describe('GET /api/uploads/:key', () => {
    it.each(['..%2F..%2Fetc%2Fpasswd', 'notes.txt', '12345678-1234-4234-8234-123456789abc.svg', `${'a'.repeat(8)}-aaaa-4aaa-8aaa-${'a'.repeat(12)}.png`])(
      '%s: 404 File not found',
      async (key) => {
        const response = await fetch(`${base}/api/uploads/${key}`);
        expect(response.status).toBe(404);
        expect(await response.json()).toMatchObject({ detail: 'File not found' });
      },
    );

    it('serves the bundled logo with a one-day cache, and the stored one once uploaded', async () => {
      const bundled = await fetch(`${base}/api/uploads/logo.png`);
      expect(bundled.status).toBe(200);
      expect(bundled.headers.get('content-type')).toBe('image/png');
      expect(bundled.headers.get('cache-control')).toBe('public, max-age=86400');
      expect(bundled.headers.get('x-content-type-options')).toBe('nosniff');
      expect(Buffer.from(await bundled.arrayBuffer())).toEqual(await readFile(BUNDLED_LOGO));

      const custom = png(120, 30);
      const storage = app.get(ObjectStorage);
      await storage.put('logo.png', Readable.from([custom]), 'image/png', custom.length);
      const fromStorage = await fetch(`${base}/api/uploads/logo.png`);
      expect(Buffer.from(await fromStorage.arrayBuffer())).toEqual(custom);
      await storage.remove(['logo.png']);
    });
  });
});
