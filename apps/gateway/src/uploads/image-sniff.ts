// Recognises the four accepted image formats by their bytes and reads the pixel size from the header,
// so a file is judged by what it is, never by its name or declared type (DESIGN D18).

export type ImageKind = 'jpeg' | 'png' | 'webp' | 'gif';

export interface ImageInfo {
  kind: ImageKind;
  ext: 'jpg' | 'png' | 'webp' | 'gif';
  contentType: string;
  width: number;
  height: number;
}

/** `need-more`: the bytes so far are the start of an accepted format but too short to decide. */
export type SniffResult = { status: 'image'; info: ImageInfo } | { status: 'not-image' } | { status: 'need-more' };

const FORMATS: Record<ImageKind, Pick<ImageInfo, 'ext' | 'contentType'>> = {
  jpeg: { ext: 'jpg', contentType: 'image/jpeg' },
  png: { ext: 'png', contentType: 'image/png' },
  webp: { ext: 'webp', contentType: 'image/webp' },
  gif: { ext: 'gif', contentType: 'image/gif' },
};

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
const GIF87 = ascii('GIF87a');
const GIF89 = ascii('GIF89a');
const RIFF = ascii('RIFF');
const WEBP = ascii('WEBP');

const NOT_IMAGE: SniffResult = { status: 'not-image' };
const NEED_MORE: SniffResult = { status: 'need-more' };

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/** How the start of `bytes` relates to a signature placed at `offset`: matches, differs, or too short to say. */
function compare(bytes: Uint8Array, signature: number[], offset = 0): 'match' | 'differs' | 'short' {
  for (let i = 0; i < signature.length; i += 1) {
    if (offset + i >= bytes.length) return 'short';
    if (bytes[offset + i] !== signature[i]) return 'differs';
  }
  return 'match';
}

function image(kind: ImageKind, width: number, height: number): SniffResult {
  if (!(width > 0 && height > 0)) return NOT_IMAGE;
  return { status: 'image', info: { kind, ...FORMATS[kind], width, height } };
}

const u16be = (b: Uint8Array, i: number) => (b[i] << 8) | b[i + 1];
const u16le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8);
const u24le = (b: Uint8Array, i: number) => b[i] | (b[i + 1] << 8) | (b[i + 2] << 16);
const u32be = (b: Uint8Array, i: number) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];

function sniffPng(b: Uint8Array): SniffResult {
  // The first chunk must be IHDR (length 13): width and height are big-endian u32 at 16 and 20.
  if (b.length < 24) return compare(b, [0, 0, 0, 13, ...ascii('IHDR')], 8) === 'differs' ? NOT_IMAGE : NEED_MORE;
  if (compare(b, [0, 0, 0, 13, ...ascii('IHDR')], 8) !== 'match') return NOT_IMAGE;
  return image('png', u32be(b, 16), u32be(b, 20));
}

function sniffGif(b: Uint8Array): SniffResult {
  if (b.length < 10) return NEED_MORE;
  const screen = image('gif', u16le(b, 6), u16le(b, 8));
  if (screen.status !== 'image') return screen;
  // Decoders allocate for the frames, not the logical screen: walk to the first image descriptor and require that
  // frame to lie inside the screen, so the screen size (and its pixel limit) bounds what the file can claim.
  if (b.length < 13) return NEED_MORE;
  let i = 13;
  if (b[10] & 0x80) i += 3 * (1 << ((b[10] & 0x07) + 1)); // global colour table
  for (;;) {
    if (i >= b.length) return NEED_MORE;
    const block = b[i];
    if (block === 0x2c) {
      if (i + 9 > b.length) return NEED_MORE;
      const [left, top, width, height] = [u16le(b, i + 1), u16le(b, i + 3), u16le(b, i + 5), u16le(b, i + 7)];
      const fits = left + width <= screen.info.width && top + height <= screen.info.height;
      return fits ? screen : NOT_IMAGE;
    }
    if (block !== 0x21) return NOT_IMAGE; // the trailer (3B) or garbage before any frame
    // Extension: introducer, label, then data sub-blocks (a size byte and that many bytes) up to a zero size.
    i += 2;
    for (;;) {
      if (i >= b.length) return NEED_MORE;
      const size = b[i];
      i += 1 + size;
      if (size === 0) break;
    }
  }
}

function sniffWebp(b: Uint8Array): SniffResult {
  const webp = compare(b, WEBP, 8);
  if (webp !== 'match') return webp === 'differs' ? NOT_IMAGE : NEED_MORE;
  if (b.length < 16) return NEED_MORE;
  const chunk = String.fromCharCode(b[12], b[13], b[14], b[15]);
  if (chunk === 'VP8X') {
    // Extended format: 24-bit canvas width-1 and height-1 after the flags and reserved bytes.
    if (b.length < 30) return NEED_MORE;
    return image('webp', u24le(b, 24) + 1, u24le(b, 27) + 1);
  }
  if (chunk === 'VP8L') {
    // Lossless: signature 0x2f, then 14 bits width-1 and 14 bits height-1, little-endian.
    if (b.length < 25) return NEED_MORE;
    if (b[20] !== 0x2f) return NOT_IMAGE;
    const bits = (b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24)) >>> 0;
    return image('webp', (bits & 0x3fff) + 1, ((bits >>> 14) & 0x3fff) + 1);
  }
  if (chunk === 'VP8 ') {
    // Lossy key frame: 3-byte frame tag, start code 9d 01 2a, then 14-bit width and height.
    if (b.length < 30) return NEED_MORE;
    if (compare(b, [0x9d, 0x01, 0x2a], 23) !== 'match') return NOT_IMAGE;
    return image('webp', u16le(b, 26) & 0x3fff, u16le(b, 28) & 0x3fff);
  }
  return NOT_IMAGE;
}

// Start-of-frame markers carry the size; C4 (DHT), C8 (JPG extension) and CC (DAC) share the range but do not.
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
// Markers that stand alone, without a length: TEM, RST0-7, SOI.
const isStandalone = (marker: number) => marker === 0x01 || (marker >= 0xd0 && marker <= 0xd8);

function sniffJpeg(b: Uint8Array): SniffResult {
  // Walk the segments after SOI until a start-of-frame; APP segments (EXIF, ICC) may come first and be large.
  let i = 2;
  for (;;) {
    if (i >= b.length) return NEED_MORE;
    if (b[i] !== 0xff) return NOT_IMAGE;
    while (i < b.length && b[i] === 0xff) i += 1; // fill bytes
    if (i >= b.length) return NEED_MORE;
    const marker = b[i];
    i += 1;
    if (marker === 0x00) return NOT_IMAGE;
    if (isStandalone(marker)) continue;
    // The image data or the end came before any frame header: nothing to measure.
    if (marker === 0xd9 || marker === 0xda) return NOT_IMAGE;
    if (i + 2 > b.length) return NEED_MORE;
    const length = u16be(b, i);
    if (length < 2) return NOT_IMAGE;
    if (isStartOfFrame(marker)) {
      if (length < 7) return NOT_IMAGE;
      if (i + 7 > b.length) return NEED_MORE;
      // Length, precision, then height before width.
      return image('jpeg', u16be(b, i + 5), u16be(b, i + 3));
    }
    i += length;
  }
}

/**
 * Identifies a JPEG, PNG, WebP or GIF from its first bytes and reads its width and height.
 * Pass `complete` when `head` is the whole file: a header still unfinished then means "not an image".
 */
export function sniffImage(head: Uint8Array, complete = false): SniffResult {
  const result = sniffHead(head);
  return complete && result.status === 'need-more' ? NOT_IMAGE : result;
}

function sniffHead(b: Uint8Array): SniffResult {
  const candidates: [number[], (b: Uint8Array) => SniffResult][] = [
    [PNG_SIGNATURE, sniffPng],
    [JPEG_SIGNATURE, sniffJpeg],
    [GIF87, sniffGif],
    [GIF89, sniffGif],
    [RIFF, sniffWebp],
  ];
  let short = false;
  for (const [signature, sniff] of candidates) {
    const state = compare(b, signature);
    if (state === 'match') return sniff(b);
    if (state === 'short') short = true;
  }
  return short ? NEED_MORE : NOT_IMAGE;
}
