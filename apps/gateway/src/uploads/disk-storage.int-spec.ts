import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { DiskStorage } from './disk-storage';

describe('DiskStorage in a temp directory', () => {
  let dir: string;
  let storage: DiskStorage;

  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'disk-storage-'));
    // A directory that does not exist yet: the storage creates it.
    storage = new DiskStorage(join(dir, 'uploads'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('stores a stream and reads it back with its content type and size', async () => {
    await storage.put('a1.jpg', Readable.from([Buffer.from('jpeg-bytes'), Buffer.from('-more')]), 'image/jpeg', 15);
    const object = await storage.get('a1.jpg');
    expect(object).toMatchObject({ contentType: 'image/jpeg', size: 15 });
    expect(await text(object!.stream)).toBe('jpeg-bytes-more');
    // The file, its sidecar, and no temp files.
    expect((await readdir(storage.dir)).sort()).toEqual(['a1.jpg', 'a1.jpg.meta.json']);
  });

  it('answers null for a missing key, and for a file without its sidecar', async () => {
    await expect(storage.get('missing.png')).resolves.toBeNull();
    await storage.check();
    await writeFile(join(storage.dir, 'orphan.png'), 'x');
    await expect(storage.get('orphan.png')).resolves.toBeNull();
  });

  it('removes objects with their sidecars and ignores keys that are not there', async () => {
    await storage.put('b.png', Readable.from([Buffer.from('png')]), 'image/png', 3);
    await storage.remove(['b.png', 'never-was.gif']);
    await expect(storage.get('b.png')).resolves.toBeNull();
    expect(await readdir(storage.dir)).toEqual([]);
  });

  it('leaves nothing behind when the stream fails midway', async () => {
    let sent = false;
    const failing = new Readable({
      read() {
        if (!sent) {
          sent = true;
          this.push(Buffer.alloc(1000, 1));
        } else {
          this.destroy(new Error('client went away'));
        }
      },
    });
    await expect(storage.put('c.png', failing, 'image/png', 2000)).rejects.toThrow('client went away');
    await expect(storage.get('c.png')).resolves.toBeNull();
    expect(await readdir(storage.dir)).toEqual([]);
  });

  it.each([
    ['shorter', 4],
    ['longer', 2],
  ])('refuses a stream %s than its declared size and leaves nothing', async (_name, size) => {
    await expect(storage.put('d.png', Readable.from([Buffer.from('png')]), 'image/png', size)).rejects.toThrow(/declared/);
    await expect(storage.get('d.png')).resolves.toBeNull();
    expect(await readdir(storage.dir)).toEqual([]);
  });

  it('refuses keys that could leave the directory', async () => {
    await expect(storage.put('../escape.png', Readable.from([Buffer.from('x')]), 'image/png', 1)).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.get('a/b.png')).rejects.toThrow(/Unsafe storage key/);
    await expect(storage.remove(['..'])).rejects.toThrow(/Unsafe storage key/);
  });

  it('is ready when the directory is writable', async () => {
    await expect(storage.readinessCheck().check()).resolves.toBeUndefined();
  });
});
