import { Inject, Injectable } from '@nestjs/common';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import type { ImageInfo, ImageKind } from './image-sniff';
import { MAX_SCREENSHOT_PIXELS } from './upload-rules';

// Decoded images are not kept between uploads: each upload's native memory is freed once it is written (ADR 0029).
sharp.cache(false);

/** Quality the lossy formats (JPEG, WebP) are re-encoded at: close to the original, far below a lossless size. */
export const REENCODE_QUALITY = 90;
// A valid image of at most 40 megapixels re-encodes in a few seconds; anything slower is stopped.
const CLEAN_TIMEOUT_SECONDS = 30;

export type CleanResult =
  | { status: 'cleaned'; width: number; height: number; frames: number; size: number }
  /** The bytes after a valid header do not decode as the format it names (truncated, corrupt, another format). */
  | { status: 'unreadable' }
  /** All frames together are over the pixel limit (an animation of many frames within a small screen). */
  | { status: 'pixels'; width: number; height: number; frames: number };

/** Thrown by ImageCleaner.clean when the upload was abandoned while its image waited for a turn. */
export class CleaningAborted extends Error {
  constructor() {
    super('upload aborted');
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

/** At most `max` pieces of work at once, the rest queued in arrival order; a queued one may leave when its signal aborts. */
export class Turns {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly max: number) {}

  /** Pieces of work running now. */
  active(): number {
    return this.running;
  }

  /** Runs `work` once fewer than `max` are running; rejects with CleaningAborted if `signal` aborts before its turn. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw new CleaningAborted();
    if (this.running >= this.max) {
      await new Promise<void>((resolve, reject) => {
        const turn = () => {
          signal?.removeEventListener('abort', leave);
          resolve();
        };
        const leave = () => {
          this.waiting.splice(this.waiting.indexOf(turn), 1);
          reject(new CleaningAborted());
        };
        this.waiting.push(turn);
        signal?.addEventListener('abort', leave, { once: true });
      });
      // The turn was handed over by the work that finished: `running` already counts this one.
    } else {
      this.running += 1;
    }
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}

/**
 * Re-encodes uploaded images, at most UPLOADS_MAX_DECODING at once in this gateway (ADR 0029): a 40-megapixel image
 * that must be decoded whole (a rotated JPEG, an animated WebP) takes several hundred MB of native memory and a core
 * of libuv's thread pool, which file I/O shares, so the bound follows the pod's memory and CPU quota, not the cores
 * the machine has.
 */
@Injectable()
export class ImageCleaner {
  private readonly turns: Turns;

  constructor(@Inject(GATEWAY_CONFIG) config: Pick<GatewayConfig, 'UPLOADS_MAX_DECODING'>) {
    this.turns = new Turns(config.UPLOADS_MAX_DECODING);
  }

  /** Images decoded at once at most (UPLOADS_MAX_DECODING). */
  get maxDecoding(): number {
    return this.turns.max;
  }

  /**
   * Decodes the image at `input` (already sniffed as `info`) and writes it re-encoded in the same format to `output`,
   * without EXIF, XMP, IPTC, ICC or text metadata; the EXIF orientation is applied to the pixels first so the picture
   * looks the same. Animated GIF and WebP keep every frame; all frames together count against the 40 megapixels.
   * Files are read and written by libvips itself, so no JavaScript Buffer ever holds the image. An image still
   * waiting for its turn when `signal` aborts is never decoded (CleaningAborted).
   */
  clean(input: string, output: string, info: ImageInfo, signal?: AbortSignal): Promise<CleanResult> {
    return this.turns.run(() => cleanNow(input, output, info), signal);
  }
}

async function cleanNow(input: string, output: string, info: ImageInfo): Promise<CleanResult> {
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
}
