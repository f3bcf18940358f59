import fs from 'node:fs';
import { chmodSync, fstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { secretProblem } from '../../libs/server-kit/src/config/secrets';
// @ts-expect-error plain ESM script without type declarations
import { ENV_ENTRIES, envFileText, writeEnvFile } from './secrets.mjs';

interface Entry {
  name: string;
  about: string;
  value: () => string;
}
const entries = ENV_ENTRIES as Entry[];
const parse = (text: string) => Object.fromEntries(text.split('\n').filter((line) => /^[A-Z0-9_]+=/.test(line)).map((line) => line.split(/=(.*)/s).slice(0, 2)));
const mode = (path: string) => (statSync(path).mode & 0o777).toString(8);

describe('npm run secrets (ADR 0031)', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'secrets-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('writes every value compose requires, owner-only, and never overwrites an .env without --force', () => {
    const path = join(dir, '.env');
    expect(writeEnvFile(path)).toBe('written');
    expect(mode(path)).toBe('600');
    const first = readFileSync(path, 'utf8');
    expect(Object.keys(parse(first))).toEqual(entries.map((entry) => entry.name));

    expect(writeEnvFile(path)).toBe('exists');
    expect(readFileSync(path, 'utf8')).toBe(first);

    writeFileSync(path, 'ADMIN_PASSWORD=mine\n', { mode: 0o644 });
    expect(writeEnvFile(path, { force: true })).toBe('written');
    expect(mode(path)).toBe('600');
    expect(parse(readFileSync(path, 'utf8')).ADMIN_PASSWORD).not.toBe('mine');
  });

  it('--force replaces an .env by renaming a 0600 file beside it over it, so the new secrets are never in a file others may read', () => {
    const path = join(dir, '.env');
    writeFileSync(path, 'ADMIN_PASSWORD=mine\n');
    chmodSync(path, 0o644);
    // Every write's file mode, taken just before the bytes go in, and what each rename moves where.
    const writes: string[] = [];
    const renames: { dir: string; mode: string; text: string; replaced: string }[] = [];
    const realWrite = fs.writeSync;
    const realRename = fs.renameSync;
    const write = jest.spyOn(fs, 'writeSync').mockImplementation(((fd: number, ...rest: unknown[]) => {
      writes.push((fstatSync(fd).mode & 0o777).toString(8));
      return (realWrite as (...args: unknown[]) => number)(fd, ...rest);
    }) as typeof fs.writeSync);
    const rename = jest.spyOn(fs, 'renameSync').mockImplementation((from, to) => {
      renames.push({ dir: dirname(String(from)), mode: mode(String(from)), text: readFileSync(from, 'utf8'), replaced: readFileSync(to, 'utf8') });
      realRename(from, to);
    });
    try {
      expect(writeEnvFile(path, { force: true })).toBe('written');
    } finally {
      write.mockRestore();
      rename.mockRestore();
    }
    const written = readFileSync(path, 'utf8');
    expect(parse(written).ADMIN_PASSWORD).not.toBe('mine');
    // Written only into 0600 files; the old .env held its old text until the finished file replaced it whole.
    expect(writes.length).toBeGreaterThan(0);
    expect(new Set(writes)).toEqual(new Set(['600']));
    expect(renames).toEqual([{ dir, mode: '600', text: written, replaced: 'ADMIN_PASSWORD=mine\n' }]);
    expect(mode(path)).toBe('600');
    // Nothing left beside it.
    expect(readdirSync(dir)).toEqual(['.env']);

    // Without --force an existing .env is kept as it is, and nothing is written beside it either.
    writeFileSync(path, 'ADMIN_PASSWORD=mine\n');
    chmodSync(path, 0o640);
    expect(writeEnvFile(path)).toBe('exists');
    expect([readFileSync(path, 'utf8'), mode(path), readdirSync(dir)]).toEqual(['ADMIN_PASSWORD=mine\n', '640', ['.env']]);
  });

  it('makes values every service accepts as secrets, different on every run', () => {
    const one = parse(envFileText());
    const two = parse(envFileText());
    for (const name of ['POSTGRES_PASSWORD', 'ADMIN_PASSWORD', 'S3_SECRET_KEY']) {
      expect({ name, problem: secretProblem(name, one[name]) }).toEqual({ name, problem: null });
      expect(one[name]).not.toBe(two[name]);
      // Safe inside DATABASE_URL and unquoted in .env.
      expect(one[name]).toMatch(/^[A-Za-z0-9_-]+$/);
    }
    expect(one.PAYMENTS_PROVIDER).toBe('sandbox');
  });

  it('covers exactly the values docker-compose.yml requires', () => {
    const compose = readFileSync(join(__dirname, '..', '..', 'docker-compose.yml'), 'utf8');
    const required = new Set([...compose.matchAll(/\$\{([A-Z0-9_]+):\?/g)].map((match) => match[1]));
    expect([...required].sort()).toEqual(entries.map((entry) => entry.name).sort());
    // Each refusal names its variable in its one line.
    for (const match of compose.matchAll(/\$\{([A-Z0-9_]+):\?([^}]*)\}/g)) expect(match[2].startsWith(`${match[1]} is not set`)).toBe(true);
  });
});
