import { readFileSync } from 'node:fs';
import { BUNDLED_LOGO } from './uploads.controller';
import { sniffImage, type SniffResult } from './image-sniff';
import { MAX_SCREENSHOT_PIXELS, isServableKey, keyFromUploadPath, newScreenshotKey } from './upload-rules';
import { gif, jpeg, png, pngHeader, webpExtended, webpLossless, webpLossy } from './testing/image-fixtures';

const info = (result: SniffResult) => (result.status === 'image' ? result.info : null);

describe('sniffImage: accepted formats', () => {
  it.each([
    ['PNG', png(3, 2), 'png', 'png', 'image/png', 3, 2],
    ['GIF89a', gif(640, 480), 'gif', 'gif', 'image/gif', 640, 480],
    ['GIF87a', gif(1, 65535, '87a'), 'gif', 'gif', 'image/gif', 1, 65535],
    ['lossy WebP (VP8)', webpLossy(1024, 768), 'webp', 'webp', 'image/webp', 1024, 768],
    ['lossless WebP (VP8L)', webpLossless(16383, 3), 'webp', 'webp', 'image/webp', 16383, 3],
    ['extended WebP (VP8X)', webpExtended(20000, 1), 'webp', 'webp', 'image/webp', 20000, 1],
    ['baseline JPEG', jpeg(1920, 1080), 'jpeg', 'jpg', 'image/jpeg', 1920, 1080],
    ['progressive JPEG (SOF2)', jpeg(800, 600, { sofMarker: 0xc2 }), 'jpeg', 'jpg', 'image/jpeg', 800, 600],
    ['lossless JPEG (SOF15)', jpeg(10, 20, { sofMarker: 0xcf }), 'jpeg', 'jpg', 'image/jpeg', 10, 20],
  ])('%s', (_name, bytes, kind, ext, contentType, width, height) => {
    expect(sniffImage(bytes)).toEqual({ status: 'image', info: { kind, ext, contentType, width, height } });
  });

  it('reads the committed logo as a 160x40 PNG', () => {
    expect(info(sniffImage(readFileSync(BUNDLED_LOGO)))).toMatchObject({ kind: 'png', width: 160, height: 40 });
  });

  it('skips a JPEG EXIF segment larger than any first chunk (and full of 0xFF) to reach the frame header', () => {
    const bytes = jpeg(4000, 3000, { exifBytes: 200_000 });
    expect(info(sniffImage(bytes))).toMatchObject({ kind: 'jpeg', width: 4000, height: 3000 });
    // Cut inside the EXIF: the answer is "read more", not a verdict.
    expect(sniffImage(bytes.subarray(0, 64 * 1024))).toEqual({ status: 'need-more' });
  });

  it('reports the size a header claims, so a 20000x20000 PNG is over the pixel limit', () => {
    const claimed = info(sniffImage(pngHeader(20000, 20000)))!;
    expect(claimed).toMatchObject({ kind: 'png', width: 20000, height: 20000 });
    expect(claimed.width * claimed.height).toBeGreaterThan(MAX_SCREENSHOT_PIXELS);
  });
});

describe('sniffImage: GIF frames', () => {
  it('walks past the colour table and extensions (a comment full of 0x2C included) to a frame inside the screen', () => {
    const bytes = gif(300, 200, '89a', { frame: { left: 100, top: 50, width: 200, height: 150 }, comment: 2000 });
    expect(info(sniffImage(bytes))).toMatchObject({ kind: 'gif', width: 300, height: 200 });
  });

  it.each([
    ['a 30000x30000 first frame on a 100x100 screen', { left: 0, top: 0, width: 30000, height: 30000 }],
    ['a frame one pixel wider than the screen', { left: 0, top: 0, width: 101, height: 100 }],
    ['a frame pushed off the screen', { left: 60, top: 0, width: 50, height: 100 }],
    ['a frame pushed below the screen', { left: 0, top: 99, width: 100, height: 2 }],
  ])('refuses %s', (_name, frame) => {
    const bytes = gif(100, 100, '89a', { frame });
    expect(sniffImage(bytes)).toEqual({ status: 'not-image' });
    expect(sniffImage(bytes, true)).toEqual({ status: 'not-image' });
  });

  it('refuses a GIF whose trailer comes before any frame, or with garbage between blocks', () => {
    const header = gif(10, 10).subarray(0, 19); // signature, screen and the 2-colour table
    expect(sniffImage(Buffer.concat([header, Buffer.from([0x3b])]))).toEqual({ status: 'not-image' });
    expect(sniffImage(Buffer.concat([header, Buffer.from([0x00, 0x2c])]))).toEqual({ status: 'not-image' });
  });

  it('asks for more bytes until the first image descriptor is complete', () => {
    const bytes = gif(100, 100, '89a', { comment: 600 });
    const descriptor = bytes.length - 1 - 5 - 10;
    for (const cut of [12, 15, 19, 25, 30, 400, descriptor, descriptor + 8]) {
      expect([cut, sniffImage(bytes.subarray(0, cut))]).toEqual([cut, { status: 'need-more' }]);
      expect([cut, sniffImage(bytes.subarray(0, cut), true)]).toEqual([cut, { status: 'not-image' }]);
    }
    expect(info(sniffImage(bytes.subarray(0, descriptor + 9)))).toMatchObject({ width: 100, height: 100 });
  });
});

describe('sniffImage: everything else is not an image', () => {
  it.each([
    ['SVG (named photo.png by its sender)', Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['bare SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"></svg>')],
    ['HTML (named photo.png by its sender)', Buffer.from('<!DOCTYPE html><html><body><script>alert(1)</script></body></html>')],
    ['PDF', Buffer.from('%PDF-1.7\n%âãÏÓ\n1 0 obj')],
    ['RIFF WAVE audio', Buffer.concat([Buffer.from('RIFF\0\0\0\0WAVEfmt '), Buffer.alloc(20)])],
    ['WebP with an unknown chunk', Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPABCD'), Buffer.alloc(20)])],
    ['VP8L with a bad signature', (() => { const b = webpLossless(10, 10); b[20] = 0; return b; })()],
    ['VP8 without the start code', (() => { const b = webpLossy(10, 10); b[23] = 0; return b; })()],
    ['PNG whose first chunk is not IHDR', Buffer.concat([png(1, 1).subarray(0, 12), Buffer.from('IDAT'), Buffer.alloc(20)])],
    ['PNG claiming 0 pixels wide', pngHeader(0, 10)],
    ['GIF claiming 0 pixels high', gif(10, 0)],
    ['JPEG whose scan starts before any frame header', Buffer.from([0xff, 0xd8, 0xff, 0xda, 0x00, 0x04, 0x00, 0x00, 0xff, 0xd9])],
    ['JPEG that ends before any frame header', Buffer.from([0xff, 0xd8, 0xff, 0xd9])],
    ['JPEG with garbage between segments', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x04, 0x00, 0x00, 0x12, 0x34, 0x56])],
    ['JPEG with a segment length below 2', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x01, 0x00, 0x00])],
    ['plain text', Buffer.from('hello, this is not an image at all')],
  ])('%s', (_name, bytes) => {
    expect(sniffImage(bytes)).toEqual({ status: 'not-image' });
    expect(sniffImage(bytes, true)).toEqual({ status: 'not-image' });
  });

  it('does not take the DHT marker (C4) for a frame header', () => {
    const dhtOnly = Buffer.from([0xff, 0xd8, 0xff, 0xc4, 0x00, 0x07, 0x00, 0x10, 0x00, 0x20, 0x00, 0xff, 0xd9]);
    expect(sniffImage(dhtOnly)).toEqual({ status: 'not-image' });
  });
});

describe('sniffImage: truncated headers', () => {
  it.each([
    ['empty', Buffer.alloc(0)],
    ['half a PNG signature', png(10, 10).subarray(0, 4)],
    ['PNG cut inside IHDR', png(10, 10).subarray(0, 20)],
    ['JPEG signature only', Buffer.from([0xff, 0xd8, 0xff])],
    ['JPEG cut inside the frame header', jpeg(10, 10).subarray(0, 2 + 18 + 24 + 6)],
    ['GIF cut before the height', gif(10, 10).subarray(0, 8)],
    ['RIFF without the form type', webpLossy(10, 10).subarray(0, 10)],
    ['VP8X cut inside the canvas size', webpExtended(10, 10).subarray(0, 27)],
    ['VP8L cut inside the size bits', webpLossless(10, 10).subarray(0, 22)],
    ['VP8 cut inside the size', webpLossy(10, 10).subarray(0, 28)],
  ])('%s: needs more bytes, and is not an image when the file ends there', (_name, bytes) => {
    expect(sniffImage(bytes)).toEqual({ status: 'need-more' });
    expect(sniffImage(bytes, true)).toEqual({ status: 'not-image' });
  });
});

describe('storage keys', () => {
  it('generates <uuid>.<ext> keys the server will serve', () => {
    const key = newScreenshotKey({ ext: 'webp' });
    expect(key).toMatch(/^[0-9a-f-]{36}\.webp$/);
    expect(isServableKey(key)).toBe(true);
    expect(keyFromUploadPath(`/api/uploads/${key}`)).toBe(key);
    expect(isServableKey('logo.png')).toBe(true);
  });

  it.each(['../etc/passwd', '..%2F..%2Fsecret', 'x.png', 'logo.svg', `${newScreenshotKey({ ext: 'png' })}.meta.json`, '.tmp-1', ''])(
    'refuses %j',
    (key) => {
      expect(isServableKey(key)).toBe(false);
    },
  );

  it('refuses paths that are not ours', () => {
    expect(keyFromUploadPath('https://evil.example/a.png')).toBeNull();
    expect(keyFromUploadPath('/api/uploads/../../etc/passwd')).toBeNull();
  });
});
