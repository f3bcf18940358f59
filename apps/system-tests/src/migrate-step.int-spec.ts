import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { busEnvOf, createTestDatabase, deleteStream, eventually, isolatedEnv, type TestDatabase } from '@market/server-kit/testing';
import { freePort } from './support/service-process';

const ROOT = resolve(__dirname, '../../..');
// The image's entry point, run from the checkout against the built apps (`npm test` builds them first).
const ENTRY = join(ROOT, 'deploy', 'image-entry.mjs');
const DATABASE_SERVICES = ['auth-service', 'listings-service', 'bidding-service', 'billing-service', 'admin-service', 'notifications-service'];
const SCHEMAS = ['auth', 'listings', 'bidding', 'billing', 'admin', 'notifications'];

/** Runs the entry point to completion with only the variables given (and PATH). */
const entry = (args: string[], env: Record<string, string> = {}) =>
  spawnSync(process.execPath, [ENTRY, ...args], { cwd: ROOT, env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', timeout: 30_000 });

/** Migrations each schema has applied, by schema. */
async function appliedMigrations(url: string): Promise<Record<string, number>> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    for (const schema of SCHEMAS) {
      const exists = (await client.query(`SELECT to_regclass($1) IS NOT NULL AS yes`, [`${schema}.migrations`])).rows[0].yes as boolean;
      counts[schema] = exists ? Number((await client.query(`SELECT count(*) AS n FROM "${schema}".migrations`)).rows[0].n) : 0;
    }
    return counts;
  } finally {
    await client.end();
  }
}

/** The database's clock now, as text PostgreSQL reads back. */
async function databaseNow(url: string): Promise<string> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('SELECT clock_timestamp()::text AS at')).rows[0].at as string;
  } finally {
    await client.end();
  }
}

/** Whether a connection to the database named `applicationName` started a query after the database's time `since`. */
async function queriedSince(url: string, applicationName: string, since: string): Promise<boolean> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const sql = 'SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name = $1 AND query_start > $2::timestamptz) AS yes';
    return (await client.query(sql, [applicationName, since])).rows[0].yes as boolean;
  } finally {
    await client.end();
  }
}

/** The image's migrate step and app selection (ADR 0053), through deploy/image-entry.mjs as the image runs it. */
describe('one image: the entry point and the migrate step', () => {
  let db: TestDatabase;

  beforeAll(async () => {
    for (const app of [...DATABASE_SERVICES, 'gateway']) {
      const main = join(ROOT, 'apps', app, 'dist', 'main.js');
      if (!existsSync(main)) throw new Error(`${main} is missing: build first (npm run build)`);
    }
    db = await createTestDatabase('migrate_step');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('`<service> migrate` applies each schema on a fresh database with only DATABASE_URL, then exits 0', async () => {
    for (const app of DATABASE_SERVICES) {
      const result = entry([app, 'migrate'], { DATABASE_URL: db.url });
      expect({ app, status: result.status, stderr: result.stderr }).toEqual({ app, status: 0, stderr: '' });
      expect(result.stdout).toMatch(/applied \d+ migration\(s\)/);
    }
    const counts = await appliedMigrations(db.url);
    for (const schema of SCHEMAS) expect(counts[schema]).toBeGreaterThan(4);

    // Again: nothing is pending, nothing changes; APP names the app when no argument does.
    const again = entry(['migrate'], { DATABASE_URL: db.url, APP: 'bidding-service' });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('schema bidding is up to date');
    expect(await appliedMigrations(db.url)).toEqual(counts);
  });

  it('a migrate step that cannot reach PostgreSQL exits 1 with one line', () => {
    const result = entry(['admin-service', 'migrate'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none', DB_CONNECT_TIMEOUT_MS: '500' });
    expect(result.status).toBe(1);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0])).toMatchObject({ level: 'error', msg: expect.stringMatching(/^admin-service migrate failed: /) });
  });

  it.each([
    [[], /^no app given: run one of admin-service, auth-service, bidding-service, billing-service, gateway, listings-service, notifications-service /],
    [['web'], /^unknown app "web": run one of /],
    [['../../etc'], /^unknown app "\.\.\/\.\.\/etc": run one of /],
    [['gateway', 'migrate'], /^gateway owns no database: there is nothing to migrate$/],
    [['auth-service', 'migrate', 'now'], /^auth-service: unknown arguments "migrate now": give none to serve, or "migrate" /],
  ])('%j stops with one line and exit code 2', (args, line) => {
    const result = entry(args);
    // The whole answer on a mismatch, so a failure says why.
    expect({ status: result.status, stderr: result.stderr }).toMatchObject({ status: 2 });
    const lines = result.stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(line);
    expect(result.stdout).toBe('');
  });

  it('a service with MIGRATIONS_ON_START=false does not become ready until the migrate step has run', async () => {
    const fresh = await createTestDatabase('migrate_wait');
    const env = busEnvOf(isolatedEnv(fresh.url), 'admin-service');
    const port = await freePort();
    const child = spawn(process.execPath, [ENTRY, 'admin-service'], {
      cwd: ROOT,
      // NODE_ENV=test: the machine's NATS and Redis have no users, which a process refuses outside tests (D25).
      env: { PATH: process.env.PATH, ...env, NODE_ENV: 'test', LOG_LEVEL: 'info', MIGRATIONS_ON_START: 'false', HEALTH_PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    const ready = () => fetch(`http://127.0.0.1:${port}/readyz`).then((r) => r.ok, () => false);
    try {
      await eventually(() => expect(output).toMatch(/Waiting to start: schema admin lacks \d+ migration\(s\)/), 20_000);
      // The marker that it keeps waiting: after saying why, it looks at the schema again (a query of its own), and is
      // still not ready.
      const since = await databaseNow(fresh.url);
      await eventually(async () => expect(await queriedSince(fresh.url, 'admin-service', since)).toBe(true), 20_000, 200);
      expect(await ready()).toBe(false);
      expect(child.exitCode).toBeNull();
      expect((await appliedMigrations(fresh.url)).admin).toBe(0);

      const migrated = entry(['admin-service', 'migrate'], { DATABASE_URL: fresh.url });
      // On a failure the step's own words come with it.
      expect({ status: migrated.status, stderr: migrated.status === 0 ? '' : `${migrated.stderr}${migrated.error ?? ''}` }).toEqual({ status: 0, stderr: '' });
      await eventually(async () => expect(await ready()).toBe(true), 20_000, 200);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await deleteStream(env.NATS_URL, env.EVENTS_STREAM);
      await fresh.drop();
    }
  });
});
