import { inflateSync } from 'node:zlib';
// @ts-expect-error plain ESM script without type declarations
import { Canvas, crc32, encodePng, seededRandom } from './png.mjs';
// @ts-expect-error plain ESM script without type declarations
import { drawScreenshot } from './seed-screenshots.mjs';

interface Chunk {
  type: string;
  data: Buffer;
  crcOk: boolean;
}

/** Splits a PNG into chunks, checking each CRC the way a decoder does. */
function readChunks(png: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  let at = 8;
  while (at < png.length) {
    const length = png.readUInt32BE(at);
    const type = png.toString('latin1', at + 4, at + 8);
    const data = png.subarray(at + 8, at + 8 + length);
    const crcOk = png.readUInt32BE(at + 8 + length) === crc32(png.subarray(at + 4, at + 8 + length));
    chunks.push({ type, data, crcOk });
    at += length + 12;
  }
  return chunks;
}

describe('png encoder', () => {
  it('computes the standard CRC-32 check value', () => {
    expect(crc32(Buffer.from('123456789'))).toBe(0xcbf43926);
  });

  it('writes a valid RGB PNG whose IDAT inflates to filter bytes plus pixels', () => {
    const pixels = new Uint8Array(7 * 3 * 3).map((_, i) => i % 256);
    const png: Buffer = encodePng(7, 3, pixels, 3);
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const chunks = readChunks(png);
    expect(chunks.map((c) => c.type)).toEqual(['IHDR', 'IDAT', 'IEND']);
    expect(chunks.every((c) => c.crcOk)).toBe(true);
    const ihdr = chunks[0].data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4), ihdr[8], ihdr[9]]).toEqual([7, 3, 8, 2]);
    const raw = inflateSync(chunks[1].data);
    expect(raw.length).toBe(3 * (1 + 7 * 3));
    expect(raw[0]).toBe(0);
    expect([...raw.subarray(1, 1 + 21)]).toEqual([...pixels.subarray(0, 21)]);
    expect(raw[22]).toBe(0);
  });

  it('writes RGBA with colour type 6 and rejects a wrong pixel count', () => {
    const png: Buffer = encodePng(2, 2, new Uint8Array(16), 4);
    const [ihdr, idat] = readChunks(png);
    expect(ihdr.data[9]).toBe(6);
    expect(inflateSync(idat.data).length).toBe(2 * (1 + 8));
    expect(() => encodePng(2, 2, new Uint8Array(15), 4)).toThrow('expected 16 bytes');
  });

  it('draws clipped shapes into the pixel buffer', () => {
    const canvas = new Canvas(10, 10, [255, 255, 255]);
    canvas.rect(8, 8, 5, 5, [255, 0, 0]);
    const at = (x: number, y: number) => [...canvas.pixels.subarray((y * 10 + x) * 3, (y * 10 + x) * 3 + 3)];
    expect(at(9, 9)).toEqual([255, 0, 0]);
    expect(at(7, 7)).toEqual([255, 255, 255]);
  });
});

describe('demo screenshots', () => {
  it('are 1200x750, small, and the same bytes for the same seed', () => {
    const a: Buffer = drawScreenshot({ category: 'SaaS', name: 'Metricly', seed: 4, index: 0 });
    const b: Buffer = drawScreenshot({ category: 'SaaS', name: 'Metricly', seed: 4, index: 0 });
    const other: Buffer = drawScreenshot({ category: 'SaaS', name: 'Metricly', seed: 5, index: 0 });
    const ihdr = readChunks(a)[0].data;
    expect([ihdr.readUInt32BE(0), ihdr.readUInt32BE(4)]).toEqual([1200, 750]);
    expect(a.length).toBeLessThan(60_000);
    expect(a.equals(b)).toBe(true);
    expect(a.equals(other)).toBe(false);
  });

  it('seeded random repeats its sequence', () => {
    const r1 = seededRandom('x');
    const r2 = seededRandom('x');
    expect([r1(), r1(), r1()]).toEqual([r2(), r2(), r2()]);
  });
});
