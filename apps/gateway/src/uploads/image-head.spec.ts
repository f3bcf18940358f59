import { Readable } from 'node:stream';
import { MAX_HEAD_BYTES, readImageHead } from './image-head';
import * as sniff from './image-sniff';
import { jpeg, png } from './testing/image-fixtures';

// Counts the sniffs while keeping the real ones (SWC's exports cannot be spied on in place).
jest.mock('./image-sniff', () => {
  const actual = jest.requireActual<typeof import('./image-sniff')>('./image-sniff');
  return { ...actual, sniffImage: jest.fn(actual.sniffImage) };
});
const sniffCalls = () => (sniff.sniffImage as jest.Mock).mock.calls.length;

/** A stream that hands out `bytes` in chunks of `size`, as a slow client would send them. */
function inChunks(bytes: Buffer, size: number): Readable {
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks, { objectMode: false });
}

/** A JPEG of `segments` full APP1 segments (65,533 bytes each) and no frame header: nothing to measure. */
const endlessExif = (segments: number) => jpeg(10, 10, { exifBytes: segments * 65533 }).subarray(0, 20 + segments * 65537);

describe('readImageHead', () => {
  beforeEach(() => (sniff.sniffImage as jest.Mock).mockClear());

  it('stops at MAX_HEAD_BYTES on a JPEG of 80 APP1 segments sent in 1 KB chunks, sniffing a few times only', async () => {
    const bytes = endlessExif(80);
    expect(bytes.length).toBeGreaterThan(5_000_000);
    const file = inChunks(bytes, 1024);
    const { head, result } = await readImageHead(file);
    expect(result).toEqual({ status: 'need-more' });
    expect(head.length).toBeGreaterThan(MAX_HEAD_BYTES);
    expect(head.length).toBeLessThanOrEqual(MAX_HEAD_BYTES + 1024);
    expect(head.equals(bytes.subarray(0, head.length))).toBe(true);
    // Re-sniffing on every chunk would be 513 sniffs, each copying everything so far.
    expect(sniffCalls()).toBeLessThanOrEqual(12);
    expect(file.isPaused()).toBe(true);
    file.destroy();
  });

  it('still finds the frame header behind a 200 KB EXIF block sent in 1 KB chunks', async () => {
    const bytes = jpeg(4000, 3000, { exifBytes: 200_000 });
    const { head, result } = await readImageHead(inChunks(bytes, 1024));
    expect(result).toMatchObject({ status: 'image', info: { kind: 'jpeg', width: 4000, height: 3000 } });
    expect(head.equals(bytes.subarray(0, head.length))).toBe(true);
    expect(sniffCalls()).toBeLessThanOrEqual(10);
  });

  it('decides a small image from its first chunk and leaves the rest of the stream unread', async () => {
    const bytes = Buffer.concat([png(20, 10), Buffer.alloc(10_000, 1)]);
    const file = inChunks(bytes, 4096);
    const { head, result } = await readImageHead(file);
    expect(result).toMatchObject({ status: 'image', info: { kind: 'png', width: 20, height: 10 } });
    expect(head.equals(bytes.subarray(0, 4096))).toBe(true);
    expect(sniffCalls()).toBe(1);
    file.destroy();
  });

  it('judges a file that ends before its header is decided as not an image', async () => {
    const { head, result } = await readImageHead(inChunks(endlessExif(2), 1000));
    expect(result).toEqual({ status: 'not-image' });
    expect(head.length).toBe(endlessExif(2).length);
  });

  it('passes a stream error on', async () => {
    const file = new Readable({ read() {} });
    const reading = readImageHead(file);
    file.destroy(new Error('connection reset'));
    await expect(reading).rejects.toThrow('connection reset');
  });
});
