import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { busEnvOf, isolatedEnv } from '@market/server-kit/testing';

const built = (app: string) => join(__dirname, '..', '..', '..', app, 'dist', 'main.js');
// Everything else valid (the access-token keys or secret included): only the variable under test is wrong.
const base = () => ({ PATH: process.env.PATH ?? '', ...busEnvOf(isolatedEnv('postgres://postgres@127.0.0.1:5432/unused'), 'gateway') });

/** The start of a built service with these variables: its exit code and what it printed. */
function start(app: string, env: Record<string, string>) {
  const main = built(app);
  if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run build)`);
  return spawnSync(process.execPath, [main], { env: { ...base(), ...env }, encoding: 'utf8', timeout: 20_000 });
}

describe('a service refuses to start on a placeholder, published or short secret, or a guessed payments provider', () => {
  it.each([
    ['auth-service', { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'change-this-admin-password' }, 'ADMIN_PASSWORD: is a placeholder'],
    // A process's bus key is a secret like any other (D25).
    ['gateway', { BUS_SIGNING_KEY: 'change-me-to-a-long-random-secret-of-48-chars' }, 'BUS_SIGNING_KEY: is a placeholder'],
    ['auth-service', { ADMIN_EMAIL: 'admin@example.com', ADMIN_PASSWORD: 'Xq7#vLm2' }, 'ADMIN_PASSWORD: must be at least 12 characters'],
    ['gateway', { S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY: 'minio', S3_SECRET_KEY: 'minio-secret' }, 'S3_SECRET_KEY: is a placeholder'],
    // A hop count (ADR 0054); a word other than its old true/false is refused rather than read as 0.
    ['gateway', { TRUST_PROXY: 'yes' }, 'TRUST_PROXY: must be the number of trusted proxy hops'],
    // Canonical links and sitemaps need the site's absolute origin (ADR 0071).
    ['gateway', { NODE_ENV: 'production' }, 'PUBLIC_URL: is required in production'],
    ['gateway', { PUBLIC_URL: 'https://market.example/shop' }, 'PUBLIC_URL: must be an origin only'],
    ['notifications-service', { SMTP_HOST: 'mail.example.com', SMTP_PASSWORD: 'password' }, 'SMTP_PASSWORD: is a placeholder'],
    ['billing-service', { STRIPE_SECRET_KEY: 'sk_live_CHANGE_ME', STRIPE_PUBLISHABLE_KEY: 'pk_live_x' }, 'STRIPE_SECRET_KEY: is a placeholder'],
    ['billing-service', { NODE_ENV: 'production' }, 'PAYMENTS_PROVIDER: is required when NODE_ENV=production'],
    ['billing-service', { NODE_ENV: 'production', PAYMENTS_PROVIDER: 'stripe' }, 'STRIPE_SECRET_KEY: is required when PAYMENTS_PROVIDER=stripe'],
    // The ownership checks' test-only settings would let them reach loopback or another resolver (ADR 0040).
    ['listings-service', { NODE_ENV: 'production', DOMAIN_PROOF_ALLOW_ADDRESSES: '127.0.0.1' }, 'DOMAIN_PROOF_ALLOW_ADDRESSES: is for tests only'],
    ['billing-service', { NODE_ENV: 'production', PAYMENTS_PROVIDER: 'sandbox', DOMAIN_PROOF_HTTP_SCHEME: 'http' }, 'DOMAIN_PROOF_HTTP_SCHEME: is for tests only'],
  ])('%s with %j stops with one line naming the variable (ADR 0031, 0033)', (app, env, reason) => {
    const result = start(app, env);
    expect(result.status).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual([expect.stringContaining(`Invalid configuration: ${reason}`)]);
    // The refused secret itself is never printed.
    for (const [name, value] of Object.entries(env)) if (/PASSWORD|SECRET|SIGNING_KEY/.test(name)) expect(result.stderr).not.toContain(value);
    expect(result.stdout).toBe('');
  });
});

describe('a process outside tests refuses a NATS or Redis that lets anyone in (D25, ADR 0065)', () => {
  it.each([['admin-service'], ['gateway']])('%s stops with one line naming NATS_URL on the machine\'s open NATS', (app) => {
    // The machine's NATS and Redis have no users (the worst case); NODE_ENV=production is any run but a test.
    const result = start(app, { NODE_ENV: 'production', PAYMENTS_PROVIDER: 'sandbox', PUBLIC_URL: 'https://market.example' });
    expect(result.status).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({
      level: 'error',
      msg: expect.stringContaining('Invalid configuration: NATS_URL: its server lets anyone in without credentials'),
    });
  });

  it('names REDIS_URL when only Redis is open', () => {
    // NATS given a server that is not there: nothing to call open, so the probe of Redis decides.
    const redisOnly = start('admin-service', { NODE_ENV: 'production', NATS_URL: 'nats://127.0.0.1:1' });
    expect(redisOnly.status).toBe(1);
    expect(redisOnly.stdout).toContain('Invalid configuration: REDIS_URL: its server lets anyone in without credentials');
  });
});
