// Minimal, valid-enough headers of each accepted format, for the sniffing and upload tests.
import { PNG_SIGNATURE, pngChunk, solidPng } from '@market/server-kit/testing';

const u32be = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n >>> 0);
  return b;
};
const u16be = (n: number) => Buffer.from([(n >> 8) & 0xff, n & 0xff]);
const u16le = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff]);
const u24le = (n: number) => Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff]);

/** A complete, decodable RGB PNG filled with one colour. */
export function png(width: number, height: number): Buffer {
  return solidPng(width, height, [0x5a, 0x5a, 0x5a]);
}

/** Only the PNG signature and IHDR: enough to claim any size. */
export function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.concat([u32be(width), u32be(height), Buffer.from([8, 2, 0, 0, 0])]);
  return Buffer.concat([PNG_SIGNATURE, pngChunk('IHDR', ihdr)]);
}

interface GifFrame {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * A GIF: logical screen, a 2-colour global table, a graphic control and a comment extension, then the first image
 * descriptor (`frame`, the whole screen by default) with a tiny LZW stream, and the trailer.
 */
export function gif(width: number, height: number, version: '87a' | '89a' = '89a', options: { frame?: GifFrame; comment?: number } = {}): Buffer {
  const frame = options.frame ?? { left: 0, top: 0, width, height };
  const comment: Buffer[] = [];
  for (let left = options.comment ?? 5; left > 0; left -= 255) {
    const n = Math.min(left, 255);
    comment.push(Buffer.from([n]), Buffer.alloc(n, 0x2c)); // 0x2C bytes inside a sub-block must not read as a descriptor
  }
  return Buffer.concat([
    Buffer.from(`GIF${version}`, 'ascii'),
    u16le(width),
    u16le(height),
    Buffer.from([0x80, 0, 0]), // global colour table of 2 entries
    Buffer.from([0, 0, 0, 0xff, 0xff, 0xff]),
    Buffer.from([0x21, 0xf9, 4, 0, 0, 0, 0, 0]), // graphic control extension
    Buffer.from([0x21, 0xfe]),
    ...comment,
    Buffer.from([0]),
    Buffer.from([0x2c]),
    u16le(frame.left),
    u16le(frame.top),
    u16le(frame.width),
    u16le(frame.height),
    Buffer.from([0]),
    Buffer.from([2, 2, 0x4c, 0x01, 0]), // LZW minimum code size, one data sub-block, terminator
    Buffer.from([0x3b]),
  ]);
}

function riff(chunk: Buffer): Buffer {
  return Buffer.concat([Buffer.from('RIFF', 'ascii'), Buffer.from([0, 0, 0, 0]), Buffer.from('WEBP', 'ascii'), chunk]);
}

export function webpLossy(width: number, height: number): Buffer {
  const frame = Buffer.concat([Buffer.from([0x30, 0x01, 0x00]), Buffer.from([0x9d, 0x01, 0x2a]), u16le(width), u16le(height), Buffer.alloc(8)]);
  return riff(Buffer.concat([Buffer.from('VP8 ', 'ascii'), Buffer.from([frame.length, 0, 0, 0]), frame]));
}

export function webpLossless(width: number, height: number): Buffer {
  const bits = ((width - 1) & 0x3fff) | (((height - 1) & 0x3fff) << 14);
  const data = Buffer.alloc(5 + 4);
  data[0] = 0x2f;
  data.writeUInt32LE(bits >>> 0, 1);
  return riff(Buffer.concat([Buffer.from('VP8L', 'ascii'), Buffer.from([data.length, 0, 0, 0]), data]));
}

export function webpExtended(width: number, height: number): Buffer {
  const data = Buffer.concat([Buffer.from([0x10, 0, 0, 0]), u24le(width - 1), u24le(height - 1)]);
  return riff(Buffer.concat([Buffer.from('VP8X', 'ascii'), Buffer.from([data.length, 0, 0, 0]), data]));
}

function segment(marker: number, payload: Buffer): Buffer {
  return Buffer.concat([Buffer.from([0xff, marker]), u16be(payload.length + 2), payload]);
}

/**
 * A JPEG header: SOI, APP0 (JFIF), optional APP1 (EXIF) of `exifBytes` (split into 64 KB segments), a DHT table
 * and the start-of-frame `sofMarker` with the size, then a scan and EOI.
 */
export function jpeg(width: number, height: number, options: { exifBytes?: number; sofMarker?: number } = {}): Buffer {
  const parts = [Buffer.from([0xff, 0xd8]), segment(0xe0, Buffer.from('JFIF\0\x01\x01\0\0\x01\0\x01\0\0', 'binary'))];
  let exif = options.exifBytes ?? 0;
  while (exif > 0) {
    const n = Math.min(exif, 65533);
    // 0xFF bytes inside the payload must be skipped by length, not read as markers.
    parts.push(segment(0xe1, Buffer.alloc(n, 0xff)));
    exif -= n;
  }
  parts.push(segment(0xc4, Buffer.alloc(20, 0)));
  parts.push(segment(options.sofMarker ?? 0xc0, Buffer.concat([Buffer.from([8]), u16be(height), u16be(width), Buffer.from([3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])])));
  parts.push(segment(0xda, Buffer.from([3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3f, 0])), Buffer.from([0x12, 0x34, 0xff, 0xd9]));
  return Buffer.concat(parts);
}
