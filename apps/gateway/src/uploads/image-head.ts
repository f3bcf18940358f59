import type { Readable } from 'node:stream';
import { sniffImage, type SniffResult } from './image-sniff';

/** At most this much of a file is held while looking for its image header; real headers fit with room to spare. */
export const MAX_HEAD_BYTES = 512 * 1024;

export interface ImageHead {
  /** Every byte read so far (to be stored before the rest of the stream). */
  head: Buffer;
  /** `need-more` only when MAX_HEAD_BYTES passed without the header being decided: the file is unreadable. */
  result: SniffResult;
}

/**
 * Reads from the file stream only until its format and size are known (or MAX_HEAD_BYTES is passed), then pauses
 * it. The bytes are sniffed again only once their count has doubled, so many small chunks cost linear time.
 */
export function readImageHead(file: Readable): Promise<ImageHead> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    let sniffAt = 0;
    const finish = (head: ImageHead) => {
      file.off('data', onData).off('end', onEnd).off('error', onError);
      file.pause();
      resolve(head);
    };
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      total += chunk.length;
      if (total < sniffAt && total <= MAX_HEAD_BYTES) return;
      const head = Buffer.concat(chunks, total);
      const result = sniffImage(head);
      if (result.status !== 'need-more' || total > MAX_HEAD_BYTES) return finish({ head, result });
      sniffAt = Math.min(Math.max(2 * total, total + 1024), MAX_HEAD_BYTES + 1);
    };
    const onEnd = () => {
      const head = Buffer.concat(chunks, total);
      finish({ head, result: sniffImage(head, true) });
    };
    const onError = (error: Error) => {
      file.off('data', onData).off('end', onEnd).off('error', onError);
      reject(error);
    };
    file.on('data', onData).on('end', onEnd).on('error', onError);
  });
}
