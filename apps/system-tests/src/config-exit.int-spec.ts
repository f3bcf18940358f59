import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { generateBusEnv, generateSigningKeys } from '@market/server-kit';

// A signing pair, and another whose public key does not match it; with bus keys, which every process needs (D25).
const bus = generateBusEnv('gateway');
const keys = { ...generateSigningKeys(), ...bus };
const other = generateSigningKeys();
const tokenKeys = { JWT_PUBLIC_KEYS: keys.JWT_PUBLIC_KEYS, ...bus };

const built = (app: string) => join(__dirname, '..', '..', app, 'dist', 'main.js');

describe('configuration is checked at start', () => {
  it.each([
    ['gateway', { PORT: 'eighty', ...keys }, /^Invalid configuration: PORT: /],
    ['gateway', {}, /^Invalid configuration: JWT_PUBLIC_KEYS: is required but not set$/],
    ['gateway', { JWT_PUBLIC_KEYS: '{"keys": [{"kty": "oct", "k": "c2VjcmV0"}]}' }, /^Invalid configuration: JWT_PUBLIC_KEYS: every key must be an EC P-256 public key/],
    ['auth-service', { ...keys, DATABASE_URL: 'mysql://db/x' }, /^Invalid configuration: DATABASE_URL: /],
    ['gateway', { ...keys, WEB_RENDERING: 'edge' }, /^Invalid configuration: WEB_RENDERING: /],
    ['gateway', { ...keys, PAGE_RENDER_TIMEOUT_MS: '10' }, /^Invalid configuration: PAGE_RENDER_TIMEOUT_MS: /],
    ['gateway', { JWT_PUBLIC_KEYS: keys.JWT_PUBLIC_KEYS }, /^Invalid configuration: BUS_SIGNING_KEY: is required but not set$/],
    ['gateway', { ...tokenKeys, BUS_SIGNING_KEY: 'not-a-key-but-long-enough' }, /^Invalid configuration: BUS_SIGNING_KEY: the key must be 32 bytes in base64url/],
    ['bidding-service', { ...tokenKeys, BUS_PUBLIC_KEYS: '{"gateway": []}' }, /^Invalid configuration: BUS_PUBLIC_KEYS: must list 1 or 2 keys for gateway$/],
    ['auth-service', tokenKeys, /^Invalid configuration: JWT_PRIVATE_KEY: is required but not set$/],
    ['auth-service', { ...keys, JWT_PUBLIC_KEYS: other.JWT_PUBLIC_KEYS }, /^Invalid configuration: JWT_PRIVATE_KEY: its public key \([\w-]+\) is not among JWT_PUBLIC_KEYS$/],
    ['notifications-service', { ...tokenKeys, SMTP_PORT: '-1' }, /^Invalid configuration: SMTP_PORT: /],
    ['notifications-service', { ...tokenKeys, SEARCH_ALERT_INTERVAL_MS: '0' }, /^Invalid configuration: SEARCH_ALERT_INTERVAL_MS: /],
    ['listings-service', { ...tokenKeys, WATCH_REMINDER_SWEEP_MS: 'often' }, /^Invalid configuration: WATCH_REMINDER_SWEEP_MS: /],
    ['listings-service', { ...tokenKeys, SEARCH_VOCABULARY_MAX_AGE_MS: '-1' }, /^Invalid configuration: SEARCH_VOCABULARY_MAX_AGE_MS: /],
    ['listings-service', { ...tokenKeys, BROWSE_INDEX: 'elastic' }, /^Invalid configuration: BROWSE_INDEX: /],
    ['gateway', { ...keys, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_SAMPLER_ARG: '1.5' }, /^Invalid configuration: OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1/],
    ['bidding-service', { ...keys, OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318', OTEL_TRACES_SAMPLER_ARG: 'all' }, /^Invalid configuration: OTEL_TRACES_SAMPLER_ARG: must be a number from 0 to 1/],
  ])('%s with a bad value stops with one line naming the variable', (app, env, line) => {
    const main = built(app);
    if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run build)`);
    const result = spawnSync(process.execPath, [main], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 20_000 });
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(result.stdout).toBe('');
  });
});
