import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ConfigError, parseEnvOrThrow } from './env';
import { DEFAULT_SECRET_MIN_LENGTH, PUBLISHED_SECRET_VALUES, secretProblem, secretRules, secretSchema } from './secrets';

const ROOT = join(__dirname, '..', '..', '..', '..');
const random = () => randomBytes(24).toString('base64url');

/** The one line a service prints for a bad value, or null when the value is accepted. */
function refusal(name: string, value: string): string | null {
  try {
    parseEnvOrThrow({ [name]: secretSchema(name) }, { [name]: value });
    return null;
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
}

describe('secretSchema', () => {
  it('accepts random values of every secret', () => {
    for (const name of ['ADMIN_PASSWORD', 'SMTP_PASSWORD', 'S3_SECRET_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET']) {
      expect([name, refusal(name, random())]).toEqual([name, null]);
    }
    expect(refusal('STRIPE_SECRET_KEY', `sk_live_${random()}`)).toBeNull();
    expect(refusal('ADMIN_PASSWORD', 'heron-lake-copper-9')).toBeNull();
  });

  it.each([
    ['ADMIN_PASSWORD', 'change-this-admin-password'],
    ['ADMIN_PASSWORD', 'CHANGE_ME'],
    ['ADMIN_PASSWORD', 'please-changeme-now-2026'],
    ['ADMIN_PASSWORD', 'Password-123456'],
    ['ADMIN_PASSWORD', 'password'],
    ['S3_SECRET_KEY', 'minio-secret'],
    ['S3_SECRET_KEY', 'minioadmin'],
    ['SMTP_PASSWORD', 'secret'],
    ['SMTP_PASSWORD', 'Secret!!!!!!!!!!!'],
    ['STRIPE_WEBHOOK_SECRET', 'whsec_replace_me_with_the_signing_secret'],
    ['STRIPE_SECRET_KEY', 'sk_test_your_secret_key_here'],
  ])('refuses the placeholder or published value %s=%s with one line naming the variable (and not the value)', (name, value) => {
    const line = refusal(name, value);
    expect(line).toBe(`Invalid configuration: ${name}: is a placeholder or a value published in this repository, not a secret; use a random value (npm run secrets writes them)`);
  });

  it('refuses a value shorter than the secret needs, without repeating it', () => {
    expect(secretRules('ADMIN_PASSWORD')).toEqual({ minLength: 12, maxLength: 128 });
    expect(secretRules('S3_SECRET_KEY').minLength).toBe(DEFAULT_SECRET_MIN_LENGTH);
    const short = 'Kq7#mZ2!pW';
    expect(refusal('ADMIN_PASSWORD', short)).toBe('Invalid configuration: ADMIN_PASSWORD: must be at least 12 characters; use a random value (npm run secrets writes them)');
    expect(refusal('ADMIN_PASSWORD', `${short}x9`)).toBeNull();
    expect(refusal('S3_SECRET_KEY', `${short}x9`)).toMatch(/^Invalid configuration: S3_SECRET_KEY: must be at least 16 characters/);
    expect(refusal('ADMIN_PASSWORD', 'a1'.repeat(65))).toBe('Invalid configuration: ADMIN_PASSWORD: must be at most 128 characters');
  });

  it('refuses a repeated pattern and an empty value', () => {
    expect(refusal('S3_SECRET_KEY', 'abababababababababab')).toMatch(/: is a repeated pattern, not a secret;/);
    expect(refusal('SMTP_PASSWORD', '')).toMatch(/^Invalid configuration: SMTP_PASSWORD: /);
  });

  it('leaves an optional secret unset', () => {
    expect(parseEnvOrThrow({ SMTP_PASSWORD: secretSchema('SMTP_PASSWORD').optional() }, {})).toEqual({});
  });

  it('refuses the old compose defaults and every published value', () => {
    for (const value of PUBLISHED_SECRET_VALUES) expect([value, secretProblem('ADMIN_PASSWORD', value)]).toEqual([value, expect.stringMatching(/^is a placeholder/)]);
  });
});

// Secrets an operator sets, and the files operators copy settings from.
const SECRET_NAMES = ['ADMIN_PASSWORD', 'SMTP_PASSWORD', 'S3_SECRET_KEY', 'STRIPE_SECRET_KEY', 'STRIPE_WEBHOOK_SECRET', 'MINIO_ROOT_PASSWORD', 'POSTGRES_PASSWORD'];
const COPIED_FROM = ['README.md', 'docker-compose.yml', '.env.example', 'docs', 'deploy'];

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/** Every literal value given to a secret in the documentation, compose file and manifests (`NAME: value`, `NAME=value`). */
function publishedAssignments(): Array<{ file: string; name: string; value: string }> {
  const found: Array<{ file: string; name: string; value: string }> = [];
  const pattern = new RegExp(`\\b(${SECRET_NAMES.join('|')})\\b["'\`]?\\s*[:=]\\s*["']?([^\\s"'\`,}|]+)`, 'g');
  // A compose default, `${NAME:-value}`, is a published value too.
  const defaults = new RegExp(`\\$\\{(${SECRET_NAMES.join('|')}):-([^}]+)\\}`, 'g');
  for (const file of COPIED_FROM.flatMap((entry) => filesUnder(join(ROOT, entry)))) {
    if (!/\.(md|ya?ml|example|env|js)$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(defaults)) found.push({ file: relative(ROOT, file), name: match[1], value: match[2] });
    for (const match of text.matchAll(pattern)) {
      // A compose default (`${NAME:-value}`) is a published value; a requirement (`${NAME:?message}`) is none.
      const value = match[2].replace(/^-/, '');
      // References and elisions are not values either: ${VAR}, $(openssl …), <your key>, ….
      if (value === '' || /^(\?|\$|<|…|\.\.\.)/.test(value)) continue;
      found.push({ file: relative(ROOT, file), name: match[1], value });
    }
  }
  return found;
}

describe('values published in this repository', () => {
  it('are refused as secrets wherever an operator could copy one from', () => {
    const published = publishedAssignments();
    expect(published.length).toBeGreaterThan(0);
    for (const { file, name, value } of published) {
      const schemaName = name === 'MINIO_ROOT_PASSWORD' ? 'S3_SECRET_KEY' : name;
      expect({ file, name, value, refused: secretProblem(schemaName, value) !== null }).toEqual({ file, name, value, refused: true });
    }
  });
});
