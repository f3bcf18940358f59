import { availableParallelism } from 'node:os';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import type { ImageInfo, ImageKind } from './image-sniff';
import { MAX_SCREENSHOT_PIXELS } from './upload-rules';

// Decoded images are not kept between uploads: each upload's native memory is freed once it is written (ADR 0029).
sharp.cache(false);

/** Quality the lossy formats (JPEG, WebP) are re-encoded at: close to the original, far below a lossless size. */
export const REENCODE_QUALITY = 90;
// Decoding is CPU-bound and runs on libuv's thread pool, which file I/O shares: at most one image per core at once.
const MAX_CLEANING = Math.max(1, availableParallelism());
// A valid image of at most 40 megapixels re-encodes in a few seconds; anything slower is stopped.
const CLEAN_TIMEOUT_SECONDS = 30;

export type CleanResult =
  | { status: 'cleaned'; width: number; height: number; frames: number; size: number }
  /** The bytes after a valid header do not decode as the format it names (truncated, corrupt, another format). */
  | { status: 'unreadable' }
  /** All frames together are over the pixel limit (an animation of many frames within a small screen). */
  | { status: 'pixels'; width: number; height: number; frames: number };

let cleaning = 0;
const waiting: (() => void)[] = [];

/** Runs `work` once fewer than MAX_CLEANING images are being cleaned. */
async function inTurn<T>(work: () => Promise<T>): Promise<T> {
  if (cleaning >= MAX_CLEANING) await new Promise<void>((resolve) => waiting.push(resolve));
  else cleaning += 1;
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else cleaning -= 1;
  }
}

function encoder(image: Sharp, kind: ImageKind, meta: Metadata): Sharp {
  switch (kind) {
    case 'jpeg':
      return image.jpeg({ quality: REENCODE_QUALITY });
    case 'webp':
      return image.webp({ quality: REENCODE_QUALITY });
    case 'gif':
      // The file's own palette is reused, frames, delays and loop count are kept.
      return image.gif({ reuse: true, keepDuplicateFrames: true });
    case 'png':
      // Lossless; a palette PNG stays a palette PNG of the same depth, so a 1-bit image does not grow to 24 bits.
      return meta.isPalette
        ? image.png({ palette: true, colours: 2 ** Math.min(8, meta.bitsPerSample ?? 8), dither: 0 })
        : image.png();
  }
}

/**
 * Decodes the image at `input` (already sniffed as `info`) and writes it re-encoded in the same format to `output`,
 * without EXIF, XMP, IPTC, ICC or text metadata; the EXIF orientation is applied to the pixels first so the picture
 * looks the same. Animated GIF and WebP keep every frame; all frames together count against the 40 megapixels.
 * Files are read and written by libvips itself, so no JavaScript Buffer ever holds the image.
 */
export function cleanImage(input: string, output: string, info: ImageInfo): Promise<CleanResult> {
  return inTurn(async () => {
    const options: SharpOptions = {
      animated: info.kind === 'gif' || info.kind === 'webp',
      failOn: 'error',
      limitInputPixels: MAX_SCREENSHOT_PIXELS,
    };
    let meta: Metadata;
    try {
      // Headers only; the frames are counted here so a refusal can say how many (the limit itself stays on decode).
      meta = await sharp(input, { ...options, limitInputPixels: false }).metadata();
    } catch {
      return { status: 'unreadable' };
    }
    if (meta.format !== info.kind) return { status: 'unreadable' };
    const frames = meta.pages ?? 1;
    const frameHeight = meta.pageHeight ?? meta.height;
    if (meta.width * frameHeight * frames > MAX_SCREENSHOT_PIXELS) return { status: 'pixels', width: meta.width, height: frameHeight, frames };
    try {
      const written = await encoder(sharp(input, options).autoOrient(), info.kind, meta)
        .timeout({ seconds: CLEAN_TIMEOUT_SECONDS })
        .toFile(output);
      return { status: 'cleaned', width: written.width, height: written.pageHeight ?? written.height, frames: written.pages ?? frames, size: written.size };
    } catch (error) {
      // The pixels did not decode (or took too long); only a failure to write the temp file is the gateway's own.
      if (/unable to (open|write)|no space/i.test((error as Error).message)) throw error;
      return { status: 'unreadable' };
    }
  });
}
