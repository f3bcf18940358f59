import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { access, constants, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { ObjectStorage, assertSafeKey, exactLength, type StoredObject } from './object-storage';

interface Sidecar {
  contentType: string;
  size: number;
}

// The content type lives in `<key>.meta.json`; a key has at most one dot, so a sidecar can never be a key.
const sidecarOf = (key: string) => `${key}.meta.json`;

/** Files in one directory: `<key>` plus a JSON sidecar with the content type. Writes go to a temp file, then rename. */
export class DiskStorage extends ObjectStorage {
  constructor(readonly dir: string) {
    super();
  }

  async put(key: string, stream: Readable, contentType: string, size: number): Promise<void> {
    assertSafeKey(key);
    await mkdir(this.dir, { recursive: true });
    // Temp names start with a dot: never a valid key, so a half-written file is never served.
    const tmpData = join(this.dir, `.tmp-${randomUUID()}`);
    const tmpMeta = `${tmpData}.meta`;
    try {
      await pipeline(stream, exactLength(size), createWriteStream(tmpData, { flags: 'wx' }));
      await writeFile(tmpMeta, JSON.stringify({ contentType, size } satisfies Sidecar), { flag: 'wx' });
      // Sidecar first: a data file without its sidecar is treated as missing.
      await rename(tmpMeta, join(this.dir, sidecarOf(key)));
      await rename(tmpData, join(this.dir, key));
    } catch (error) {
      stream.destroy();
      await Promise.all([rm(tmpData, { force: true }), rm(tmpMeta, { force: true })]);
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject | null> {
    assertSafeKey(key);
    let meta: Sidecar;
    try {
      meta = JSON.parse(await readFile(join(this.dir, sidecarOf(key)), 'utf8')) as Sidecar;
      const { size } = await stat(join(this.dir, key));
      meta.size = size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    return { stream: createReadStream(join(this.dir, key)), contentType: meta.contentType, size: meta.size };
  }

  async remove(keys: string[]): Promise<void> {
    keys.forEach(assertSafeKey);
    // Data before sidecar, the reverse of put, so a half-removed object reads as missing.
    await Promise.all(
      keys.map(async (key) => {
        await rm(join(this.dir, key), { force: true });
        await rm(join(this.dir, sidecarOf(key)), { force: true });
      }),
    );
  }

  async check(): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    await access(this.dir, constants.W_OK);
  }
}
