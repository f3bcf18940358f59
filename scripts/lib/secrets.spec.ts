import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
