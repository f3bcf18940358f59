import { Transform, type Readable } from 'node:stream';
import type { ReadinessCheck } from '@market/server-kit';

/** An object read back from storage, with the content type it was stored with. */
export interface StoredObject {
  stream: Readable;
  contentType: string;
  size: number;
}

const CHECK_TIMEOUT_MS = 1500;

// Keys are flat names (no folders, one extension at most); both adapters refuse anything else.
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}(\.[A-Za-z0-9]{1,10})?$/;

/**
 * Passes exactly `size` bytes on and fails the stream otherwise, so a store never keeps (or an S3 PUT never waits
 * for) a body of another length than the one declared.
 */
export function exactLength(size: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > size ? new Error(`The stream is longer than the declared ${size} bytes`) : null, chunk);
    },
    flush(done) {
      done(seen === size ? null : new Error(`The stream ended after ${seen} of the declared ${size} bytes`));
    },
  });
}

/** Throws unless the key is a flat, safe object name. */
export function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key)) throw new Error(`Unsafe storage key: ${JSON.stringify(key)}`);
}

/**
 * The storage port for uploaded files (ADR 0012); also the Nest injection token.
 * DiskStorage is the default; MinioStorage is used when S3_ENDPOINT is set.
 */
export abstract class ObjectStorage {
  /**
   * Streams exactly `size` bytes under key without holding the object in memory (ADR 0029); on failure nothing
   * is left behind under that key.
   */
  abstract put(key: string, stream: Readable, contentType: string, size: number): Promise<void>;
  /** The object and its stored content type (which serving ignores, ADR 0029), or null when there is none. */
  abstract get(key: string): Promise<StoredObject | null>;
  /** Removes the objects; keys that do not exist are ignored. */
  abstract remove(keys: string[]): Promise<void>;
  /** Resolves when the storage can take writes; rejects with the reason otherwise. */
  abstract check(): Promise<void>;

  /** The storage as a /readyz dependency. */
  readinessCheck(): ReadinessCheck {
    return {
      name: 'storage',
      // The gateway stays ready without it: browse, bids and the rest go on while uploads answer 503 (ADR 0050).
      optional: true,
      check: async () => {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error(`storage did not answer in ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
        });
        try {
          await Promise.race([this.check(), timeout]);
        } finally {
          clearTimeout(timer);
        }
      },
    };
  }
}
