// Complete, decodable images made with sharp, for the tests that send files through the cleaning step (ADR 0029).
import sharp from 'sharp';

const colour = { r: 40, g: 120, b: 200 };
const canvas = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: colour } });

/** A marker written into the EXIF of test photos; a cleaned file must not contain it. */
export const EXIF_MARKER = 'Marker-Camera-Owner-7f3a';

/** A JPEG; `exif` adds an IFD0 with EXIF_MARKER and a GPS IFD (51°30' N, 0°7' W), `orientation` an EXIF orientation. */
export function realJpeg(width: number, height: number, options: { exif?: boolean; orientation?: number } = {}): Promise<Buffer> {
  let image = canvas(width, height).jpeg();
  if (options.exif) {
    image = image.withExif({
      IFD0: { Copyright: EXIF_MARKER, Make: 'TestCam' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    });
  }
  if (options.orientation) image = image.withMetadata({ orientation: options.orientation });
  return image.toBuffer();
}

/** True when the image carries a GPS IFD (EXIF tag 0x8825, in either byte order). */
export async function hasGps(image: Buffer): Promise<boolean> {
  const { exif } = await sharp(image).metadata();
  return !!exif && (exif.includes(Buffer.from([0x88, 0x25])) || exif.includes(Buffer.from([0x25, 0x88])));
}

/** A real JPEG with `bytes` of 0xFF-filled APP1 segments right after SOI: a large EXIF-like block before the frame. */
export async function jpegWithLargeApp1(width: number, height: number, bytes: number): Promise<Buffer> {
  const image = await canvas(width, height).jpeg().toBuffer();
  const segments: Buffer[] = [];
  for (let left = bytes; left > 0; left -= 65533) {
    const n = Math.min(left, 65533);
    const header = Buffer.from([0xff, 0xe1, (n + 2) >> 8, (n + 2) & 0xff]);
    segments.push(header, Buffer.alloc(n, 0xff));
  }
  return Buffer.concat([image.subarray(0, 2), ...segments, image.subarray(2)]);
}

export const realPng = (width: number, height: number) => canvas(width, height).png().toBuffer();
export const realWebp = (width: number, height: number) => canvas(width, height).webp().toBuffer();
export const realGif = (width: number, height: number) => canvas(width, height).gif().toBuffer();

/** An animated GIF of `frames` frames of width x height, each a different shade, 100 ms apart, looping. */
export async function animatedGif(width: number, height: number, frames: number): Promise<Buffer> {
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) => sharp({ create: { width, height, channels: 3, background: { r: (i * 40) % 256, g: 0, b: 0 } } }).png().toBuffer()),
  );
  return sharp(pages, { join: { animated: true } }).gif({ delay: pages.map(() => 100), loop: 0 }).toBuffer();
}

/** A PNG of random pixels (it does not compress) as close to `bytes` as a square allows, and never above it. */
export async function noisePng(bytes: number): Promise<Buffer> {
  let side = Math.floor(Math.sqrt(bytes / 3));
  for (;;) {
    const image = await sharp({ create: { width: side, height: side, channels: 3, background: colour, noise: { type: 'gaussian', mean: 128, sigma: 80 } } })
      .png({ compressionLevel: 1 })
      .toBuffer();
    if (image.length <= bytes) return image;
    side = Math.floor(side * Math.sqrt(bytes / image.length)) - 1;
  }
}

/**
 * A JPEG of 6320x6320 pixels (39.9 megapixels, just under the limit) in about 330 KB, with EXIF orientation 6: turning
 * it upright needs the whole image decoded at once, the costliest clean-up an allowed file can ask for (ADR 0029).
 */
export async function maxPixelsJpeg(): Promise<Buffer> {
  const tile = await sharp({ create: { width: 79, height: 79, channels: 3, background: colour, noise: { type: 'gaussian', mean: 128, sigma: 30 } } })
    .png()
    .toBuffer();
  return sharp(tile).resize(6320, 6320, { kernel: 'nearest' }).jpeg({ quality: 90 }).withMetadata({ orientation: 6 }).toBuffer();
}
