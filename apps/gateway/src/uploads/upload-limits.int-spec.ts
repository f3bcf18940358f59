import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import sharp from 'sharp';
import { eventually } from '@market/server-kit/testing';
import { ImageCleaner, ObjectStorage, UploadSlots, type StoredScreenshot } from './index';
import { MAX_SCREENSHOT_BYTES } from './upload-rules';
import { sampleLiveArrayBuffers, sampleRss, watchBufferAllocations } from './testing/allocation-probe';
import { png } from './testing/image-fixtures';
import { maxPixelsJpeg, noisePng } from './testing/real-images';
import { startTestObjectStore } from './testing/test-object-store';
import { gate, sendStreamed } from './testing/streamed-form';
import { startUploadApp } from './testing/upload-test-app';

const screenshot = (bytes: Buffer, filename = 'shot.png') => ({ name: 'screenshots', bytes, filename, type: 'image/png' });
const MB = 1024 * 1024;
// The documented bound (ADR 0029): resident memory grows by at most 450 MB per image decoded at once
// (UPLOADS_MAX_DECODING; a 40-megapixel JPEG turned upright takes about 360 MB), plus 200 MB for everything else the
// uploads hold (chunks, streams, the encoder's output, thread-pool arenas the allocator keeps after a first decode).
const RSS_PER_DECODE = 450 * MB;
const RSS_BESIDES = 200 * MB;

/** The most images libvips worked on at once (sharp.counters().process), sampled every few milliseconds. */
function sampleDecoding(): { peak(): number; stop(): void } {
  let peak = 0;
  const timer = setInterval(() => (peak = Math.max(peak, sharp.counters().process)), 5);
  return { peak: () => peak, stop: () => clearInterval(timer) };
}

describe('uploads: at most N at once per gateway and per user (ADR 0029)', () => {
  let root: string;
  let dir: string;
  let app: INestApplication;
  let url: string;
  // Large enough that a held body stops after its header, small enough to clean quickly once let go.
  let picture: Buffer;

  const stored = async () => (await readdir(dir).catch(() => [] as string[])).filter((name) => !name.endsWith('.meta.json'));
  const inUse = () => app.get(UploadSlots).inUse();

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'upload-limits-'));
    dir = join(root, 'uploads');
    picture = await noisePng(400_000);
    let base: string;
    ({ app, base } = await startUploadApp({ UPLOADS_DIR: dir, UPLOADS_MAX_CONCURRENT: '3', UPLOADS_MAX_PER_USER: '2' }));
    url = `${base}/api/things`;
  });

  afterAll(async () => {
    await app?.close();
    await rm(root, { recursive: true, force: true });
  });

  it('reads the limits from UPLOADS_MAX_CONCURRENT and UPLOADS_MAX_PER_USER', () => {
    expect(app.get(UploadSlots)).toMatchObject({ maxTotal: 3, maxPerUploader: 2 });
  });

  it('answers a user\'s third upload at once with 429, Retry-After and the RateLimit headers, then takes it once the first two finish (ADR 0064)', async () => {
    const held = gate();
    const first = sendStreamed(url, [screenshot(picture, 'a.png')], { user: 'alice', hold: held.wait });
    const second = sendStreamed(url, [screenshot(picture, 'b.png')], { user: 'alice', hold: held.wait });
    await eventually(() => expect(inUse()).toBe(2));

    const started = Date.now();
    const third = await sendStreamed(url, [{ name: 'title', value: 'Third' }, screenshot(png(8, 8))], { user: 'alice' });
    expect(Date.now() - started).toBeLessThan(2000);
    expect(third.status).toBe(429);
    expect(third.headers.get('retry-after')).toBe('5');
    expect(third.headers.get('ratelimit-policy')).toBe('"uploads";q=2;qu="concurrent-requests"');
    expect(third.headers.get('ratelimit')).toBe('"uploads";r=0;t=5');
    expect(third.body).toMatchObject({ detail: 'You already have 2 uploads in progress; try again when they finish' });
    // The held uploads are still going, and the refused one stored nothing.
    expect(inUse()).toBe(2);
    expect(await stored()).toEqual([]);

    // A form without files takes no slot: the same user can save one meanwhile (a listing created without screenshots).
    const textOnly = await sendStreamed(url, [{ name: 'title', value: 'No pictures' }], { user: 'alice' });
    expect(textOnly.status).toBe(201);
    expect(textOnly.body).toEqual({ body: { title: 'No pictures' }, screenshots: [] });
    // Nor does the empty, nameless file part a browser sends for a file input left empty.
    const emptyInput = await sendStreamed(url, [{ name: 'title', value: 'Empty input' }, { name: 'screenshots', bytes: Buffer.alloc(0), filename: '' }], { user: 'alice' });
    expect(emptyInput.status).toBe(201);
    expect(emptyInput.body).toEqual({ body: { title: 'Empty input' }, screenshots: [] });
    expect(inUse()).toBe(2);

    held.open();
    expect((await first).status).toBe(201);
    expect((await second).status).toBe(201);
    expect(inUse()).toBe(0);
    const retried = await sendStreamed(url, [screenshot(png(8, 8))], { user: 'alice' });
    expect(retried.status).toBe(201);
    expect(await stored()).toHaveLength(3);
  });

  it('refuses anyone beyond the gateway\'s limit while three uploads run, and frees the slots when they end', async () => {
    const held = gate();
    const running = [
      sendStreamed(url, [screenshot(picture)], { user: 'bob', hold: held.wait }),
      sendStreamed(url, [screenshot(picture)], { user: 'bob', hold: held.wait }),
      sendStreamed(url, [screenshot(picture)], { user: 'carol', hold: held.wait }),
    ];
    await eventually(() => expect(inUse()).toBe(3));
    const before = await stored();

    const refused = await sendStreamed(url, [screenshot(png(8, 8))], { user: 'dave' });
    // The server's own capacity, not dave's limit: a 503 with Retry-After and no RateLimit headers.
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('ratelimit')).toBeNull();
    expect(refused.body).toMatchObject({ detail: 'Too many uploads in progress; try again in a few seconds' });
    // Nor does a form without files wait for a slot while the gateway's are all taken.
    expect((await sendStreamed(url, [{ name: 'title', value: 'Text only' }], { user: 'dave' })).status).toBe(201);
    // Anonymous uploads count too (per client address).
    expect((await sendStreamed(url, [screenshot(png(8, 8))])).status).toBe(503);
    expect(await stored()).toEqual(before);

    held.open();
    expect((await Promise.all(running)).map((r) => r.status)).toEqual([201, 201, 201]);
    expect((await sendStreamed(url, [screenshot(png(8, 8))], { user: 'dave' })).status).toBe(201);
    expect(inUse()).toBe(0);
  });

  it('holds a form\'s text fields to 1 MB in all, what a JSON body may hold, since they take no slot', async () => {
    const fields = Array.from({ length: 18 }, (_, i) => ({ name: `note_${i}`, value: 'x'.repeat(60 * 1024) }));
    const answer = await sendStreamed(url, fields, { user: 'frank' });
    expect(answer.status).toBe(413);
    expect(answer.body).toMatchObject({ detail: "The form's text fields must be at most 1 MB in all" });
    expect((await sendStreamed(url, fields.slice(0, 16), { user: 'frank' })).status).toBe(201);
  });

  it('frees the slot of a refused upload (a file that is not an image)', async () => {
    for (let i = 0; i < 3; i += 1) {
      const answer = await sendStreamed(url, [screenshot(Buffer.from('<html></html>'), 'page.png')], { user: 'erin' });
      expect(answer.status).toBe(422);
    }
    expect(inUse()).toBe(0);
  });
});

describe.each([
  ['disk', false],
  ['MinIO (s3rver in another process, or a MinIO container)', true],
])('uploads: max-size files stream through the gateway in bounded memory (%s)', (_name, useMinio) => {
  let root: string;
  let app: INestApplication;
  let url: string;
  let stopS3: (() => Promise<void>) | undefined;
  let big: Buffer;
  let huge: Buffer;
  const rssBound = () => app.get(ImageCleaner).maxDecoding * RSS_PER_DECODE + RSS_BESIDES;

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'upload-memory-'));
    big = await noisePng(MAX_SCREENSHOT_BYTES - 64 * 1024);
    huge = await maxPixelsJpeg();
    let storage: ObjectStorage | undefined;
    if (useMinio) {
      const s3 = await startTestObjectStore(join(root, 's3'), 'memory-test');
      stopS3 = s3.stop;
      storage = s3.storage();
    }
    let base: string;
    // One image decoded at a time: a machine with two cores or more would decode two at once if the setting were not
    // honoured, and the memory bound follows the setting.
    ({ app, base } = await startUploadApp({ UPLOADS_DIR: join(root, 'uploads'), UPLOADS_MAX_DECODING: '1' }, storage));
    url = `${base}/api/things`;
    // The process's first decode also sets up what later ones reuse (codecs, thread pool, allocator arenas): done
    // here, so the tests measure what uploads cost rather than one-off set-up.
    expect((await sendStreamed(url, [{ name: 'screenshots', bytes: huge, filename: 'warm-up.jpg', type: 'image/jpeg' }])).status).toBe(201);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await stopS3?.();
    await rm(root, { recursive: true, force: true });
  });

  it('decodes UPLOADS_MAX_DECODING images at once, and resident memory grows by at most that x 450 MB + 200 MB, while two users each upload three 40-megapixel photos', async () => {
    expect(huge.length).toBeLessThan(MAX_SCREENSHOT_BYTES);
    const files = Array.from({ length: 3 }, (_, i) => ({ name: 'screenshots', bytes: huge, filename: `photo-${i}.jpg`, type: 'image/jpeg' }));
    const rss = sampleRss();
    const decoding = sampleDecoding();
    const answers = await Promise.all([sendStreamed(url, files, { user: 'heidi' }), sendStreamed(url, files, { user: 'ivan' })]).finally(() => {
      rss.stop();
      decoding.stop();
    });
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      for (const shot of answer.body.screenshots as StoredScreenshot[]) expect(shot).toMatchObject({ content_type: 'image/jpeg', width: 6320, height: 6320 });
    }
    // Six photos waited their turn: never two decoded at once, whatever the machine's core count.
    expect(decoding.peak()).toBe(1);
    expect(rss.peakGrowth()).toBeLessThan(rssBound());
  }, 180_000);

  // Ten ~5 MB PNGs are decoded and re-encoded: a few seconds alone, longer on a machine busy with other tests.
  it('holds no Buffer anywhere near a file\'s size while two users each upload five', async () => {
    expect(big.length).toBeGreaterThan(0.95 * MAX_SCREENSHOT_BYTES);
    const files = Array.from({ length: 5 }, (_, i) => screenshot(big, `big-${i}.png`));
    // The probe sees what collecting a file would cost: a Buffer.concat of its chunks.
    const selfCheck = watchBufferAllocations();
    Buffer.concat([big.subarray(0, big.length / 2), big.subarray(big.length / 2)]);
    selfCheck.stop();
    expect(selfCheck.largest().size).toBe(big.length);

    const probe = watchBufferAllocations();
    const live = sampleLiveArrayBuffers();
    const rss = sampleRss();
    const answers = await Promise.all([sendStreamed(url, files, { user: 'frank' }), sendStreamed(url, files, { user: 'grace' })]).finally(() => {
      probe.stop();
      live.stop();
      rss.stop();
    });
    // Chunks and at most the 512 KB head window: never a whole file, though 2 x 5 files of ~5 MB went through.
    const { size, stack } = probe.largest();
    expect(size < 1024 * 1024 ? 'under 1 MB' : `${size} bytes at ${stack}`).toBe('under 1 MB');
    // Nor is one held some other way: live buffer memory never grows by half a file.
    expect(live.peakGrowth()).toBeLessThan(big.length / 2);
    // Native memory too: these PNGs stream through libvips, far inside the bound.
    expect(rss.peakGrowth()).toBeLessThan(rssBound());
    for (const answer of answers) {
      expect(answer.status).toBe(201);
      const shots = answer.body.screenshots as StoredScreenshot[];
      expect(shots).toHaveLength(5);
      for (const shot of shots) expect(shot).toMatchObject({ content_type: 'image/png', width: expect.any(Number) });
    }
    // What was stored is the same picture, read back through the gateway.
    const [first] = answers[0].body.screenshots as StoredScreenshot[];
    const served = Buffer.from(await (await fetch(`${url.replace('/api/things', '')}${first.path}`)).arrayBuffer());
    const [original, cleaned] = await Promise.all([sharp(big).raw().toBuffer(), sharp(served).raw().toBuffer()]);
    expect(cleaned.equals(original)).toBe(true);
  }, 180_000);
});
