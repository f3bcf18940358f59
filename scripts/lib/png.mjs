// A small pure PNG encoder and a raster canvas with flat-colour drawing helpers, for procedural demo screenshots.
// Flat colours and filter 0 rows deflate to a few tens of kilobytes even at 1200x750.
import { deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO-HDLC, as PNG chunks use) of a byte range. */
export function crc32(bytes) {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(body.length + 8);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), body.length + 4);
  return out;
}

/** Encodes 8-bit RGB (channels 3) or RGBA (channels 4) pixels, row-major, as a PNG file. */
export function encodePng(width, height, pixels, channels = 3) {
  if (channels !== 3 && channels !== 4) throw new Error('channels must be 3 (RGB) or 4 (RGBA)');
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new Error('bad size');
  const stride = width * channels;
  if (pixels.length !== stride * height) throw new Error(`expected ${stride * height} bytes, got ${pixels.length}`);
  const raw = Buffer.alloc((stride + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (stride + 1)] = 0; // filter type 0 (None) on every row
    raw.set(pixels.subarray(y * stride, (y + 1) * stride), y * (stride + 1) + 1);
  }
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = channels === 4 ? 6 : 2; // colour type: truecolour (+ alpha)
  ihdr[10] = 0; // deflate
  ihdr[11] = 0; // adaptive filtering (each row says its filter)
  ihdr[12] = 0; // no interlace
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('IDAT', deflateSync(raw, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

/** A deterministic PRNG (mulberry32) so seeded images and data are identical run after run. */
export function seededRandom(seed) {
  let a = typeof seed === 'number' ? seed >>> 0 : hashString(String(seed));
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  next.int = (min, max) => min + Math.floor(next() * (max - min + 1));
  next.pick = (list) => list[Math.floor(next() * list.length)];
  return next;
}

/** FNV-1a hash of a string, used to turn names into seeds. */
export function hashString(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** '#rrggbb' to [r, g, b]. */
export function hex(colour) {
  const n = Number.parseInt(colour.replace('#', ''), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** Mixes two [r, g, b] colours; t = 0 gives a, 1 gives b. */
export function mix(a, b, t) {
  return [0, 1, 2].map((i) => Math.round(a[i] + (b[i] - a[i]) * t));
}

// 5x7 glyphs, one number per row (bit 4 = leftmost pixel): enough for site names and figures.
const FONT = {
  A: [14, 17, 17, 31, 17, 17, 17], B: [30, 17, 17, 30, 17, 17, 30], C: [14, 17, 16, 16, 16, 17, 14],
  D: [30, 17, 17, 17, 17, 17, 30], E: [31, 16, 16, 30, 16, 16, 31], F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15], H: [17, 17, 17, 31, 17, 17, 17], I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12], K: [17, 18, 20, 24, 20, 18, 17], L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17], N: [17, 17, 25, 21, 19, 17, 17], O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16], Q: [14, 17, 17, 17, 21, 18, 13], R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30], T: [31, 4, 4, 4, 4, 4, 4], U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4], W: [17, 17, 17, 21, 21, 21, 10], X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 10, 4, 4, 4, 4], Z: [31, 1, 2, 4, 8, 16, 31],
  0: [14, 17, 19, 21, 25, 17, 14], 1: [4, 12, 4, 4, 4, 4, 14], 2: [14, 17, 1, 2, 4, 8, 31],
  3: [31, 2, 4, 2, 1, 17, 14], 4: [2, 6, 10, 18, 31, 2, 2], 5: [31, 16, 30, 1, 1, 17, 14],
  6: [6, 8, 16, 30, 17, 17, 14], 7: [31, 1, 2, 4, 8, 8, 8], 8: [14, 17, 17, 14, 17, 17, 14],
  9: [14, 17, 17, 15, 1, 2, 12], '.': [0, 0, 0, 0, 0, 12, 12], '-': [0, 0, 0, 14, 0, 0, 0],
  $: [4, 15, 20, 14, 5, 30, 4], '%': [24, 25, 2, 4, 8, 19, 3], '&': [12, 18, 20, 8, 21, 18, 13],
  '+': [0, 4, 4, 31, 4, 4, 0], '/': [1, 1, 2, 4, 8, 16, 16], ',': [0, 0, 0, 0, 12, 4, 8], "'": [12, 4, 8, 0, 0, 0, 0], ' ': [0, 0, 0, 0, 0, 0, 0],
};

/** An RGB raster with clipped drawing primitives. Colours are [r, g, b]. */
export class Canvas {
  constructor(width, height, background = [255, 255, 255]) {
    this.width = width;
    this.height = height;
    this.pixels = new Uint8Array(width * height * 3);
    this.rect(0, 0, width, height, background);
  }

  /** A filled axis-aligned rectangle (clipped to the canvas). */
  rect(x, y, w, h, colour) {
    const x0 = Math.max(0, Math.round(x));
    const y0 = Math.max(0, Math.round(y));
    const x1 = Math.min(this.width, Math.round(x + w));
    const y1 = Math.min(this.height, Math.round(y + h));
    if (x1 <= x0 || y1 <= y0) return;
    const [r, g, b] = colour;
    const p = this.pixels;
    for (let yy = y0; yy < y1; yy++) {
      let i = (yy * this.width + x0) * 3;
      for (let xx = x0; xx < x1; xx++, i += 3) {
        p[i] = r;
        p[i + 1] = g;
        p[i + 2] = b;
      }
    }
  }

  /** A filled rectangle with rounded corners of radius r. */
  roundRect(x, y, w, h, r, colour) {
    r = Math.max(0, Math.min(r, w / 2, h / 2));
    this.rect(x, y + r, w, h - 2 * r, colour);
    for (let i = 0; i < r; i++) {
      const dy = r - i - 0.5;
      const inset = r - Math.sqrt(Math.max(0, r * r - dy * dy));
      this.rect(x + inset, y + i, w - 2 * inset, 1, colour);
      this.rect(x + inset, y + h - 1 - i, w - 2 * inset, 1, colour);
    }
  }

  /** A filled circle. */
  circle(cx, cy, radius, colour) {
    for (let dy = -radius; dy < radius; dy++) {
      const half = Math.sqrt(radius * radius - (dy + 0.5) ** 2);
      this.rect(cx - half, cy + dy, half * 2, 1, colour);
    }
  }

  /** A rectangle outline of the given thickness. */
  frame(x, y, w, h, thickness, colour) {
    this.rect(x, y, w, thickness, colour);
    this.rect(x, y + h - thickness, w, thickness, colour);
    this.rect(x, y, thickness, h, colour);
    this.rect(x + w - thickness, y, thickness, h, colour);
  }

  /** A thick straight line (a run of squares: fine for chart lines). */
  line(x0, y0, x1, y1, thickness, colour) {
    const steps = Math.max(1, Math.ceil(Math.hypot(x1 - x0, y1 - y0)));
    for (let s = 0; s <= steps; s++) {
      const t = s / steps;
      this.rect(x0 + (x1 - x0) * t - thickness / 2, y0 + (y1 - y0) * t - thickness / 2, thickness, thickness, colour);
    }
  }

  /** Upper-case pixel text (5x7 glyphs scaled by `scale`); returns the width drawn. Unknown characters are blank. */
  text(x, y, value, scale, colour) {
    let cx = x;
    for (const ch of String(value).toUpperCase()) {
      const glyph = FONT[ch] ?? FONT[' '];
      glyph.forEach((row, gy) => {
        for (let gx = 0; gx < 5; gx++) if (row & (16 >> gx)) this.rect(cx + gx * scale, y + gy * scale, scale, scale, colour);
      });
      cx += 6 * scale;
    }
    return cx - x - scale;
  }

  /** The width text() would draw. */
  static textWidth(value, scale) {
    return String(value).length * 6 * scale - scale;
  }

  /** The canvas as a PNG file. */
  toPng() {
    return encodePng(this.width, this.height, this.pixels, 3);
  }
}
