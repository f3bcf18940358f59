import net from 'node:net';
import { DataSource, type MigrationInterface, type QueryRunner } from 'typeorm';
import { createTestDatabase, eventually, type TestDatabase } from '../testing';
import { isDatabaseUnavailable } from '../errors/database-failure';
import { openServiceDatabase } from './data-source';
import { defaultDatabaseLimits, poolOptions, type DatabaseLimits } from './pool-options';

// A migration slower than the statement timeout below: migrations must run without it (ADR 0044).
class SlowMigration1763800000001 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('SELECT pg_sleep(0.6)');
    await queryRunner.query('CREATE TABLE slow_done (id int)');
  }
  async down() {}
}

/** How long a promise took to settle, and its error if it failed. */
async function settle(promise: Promise<unknown>): Promise<{ ms: number; error: Error | null }> {
  const started = Date.now();
  const error = await promise.then(() => null, (e: Error) => e);
  return { ms: Date.now() - started, error };
}

describe('PostgreSQL pool limits (ADR 0044)', () => {
  let db: TestDatabase;
  let ds: DataSource;
  const limits: Partial<DatabaseLimits> = {
    poolSize: 2,
    statementTimeoutMs: 300,
    idleInTransactionTimeoutMs: 700,
    acquireTimeoutMs: 400,
    applicationName: 'limits-under-test',
  };

  beforeAll(async () => {
    db = await createTestDatabase('limits');
    ds = await openServiceDatabase({ url: db.url, schema: 'limits_test', entities: [], migrations: [SlowMigration1763800000001], limits });
  });
  afterAll(async () => {
    if (ds?.isInitialized) await ds.destroy();
    await db?.drop();
  });

  it('runs migrations without the statement timeout', async () => {
    expect(await ds.query(`SELECT to_regclass('limits_test.slow_done') IS NOT NULL AS done`)).toEqual([{ done: true }]);
  });

  it('names the service and sets the session timeouts on every connection', async () => {
    const [settings] = await ds.query(
      `SELECT current_setting('application_name') AS app, current_setting('statement_timeout') AS st, current_setting('idle_in_transaction_session_timeout') AS idle`,
    );
    expect(settings).toEqual({ app: 'limits-under-test', st: '300ms', idle: '700ms' });
  });

  it('cancels a statement past the timeout, as a failure that means "try again"', async () => {
    const { ms, error } = await settle(ds.query('SELECT pg_sleep(5)'));
    expect(error).not.toBeNull();
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(ms).toBeLessThan(3_000);
    expect(await ds.query('SELECT 1 AS one')).toEqual([{ one: 1 }]);
  });

  it('ends a transaction left idle, rolling it back', async () => {
    await ds.query('CREATE TABLE IF NOT EXISTS idle_rows (id int)');
    const runner = ds.createQueryRunner();
    await runner.connect();
    try {
      await runner.startTransaction();
      await runner.query('INSERT INTO idle_rows VALUES (1)');
      const [{ pid }] = await runner.query('SELECT pg_backend_pid() AS pid');
      // PostgreSQL ends the idle session by itself.
      await eventually(async () => expect(await ds.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).toEqual([]));
      const { error } = await settle(runner.commitTransaction());
      expect(error).not.toBeNull();
    } finally {
      await runner.release();
    }
    expect(await ds.query('SELECT count(*)::int AS n FROM idle_rows')).toEqual([{ n: 0 }]);
  });

  it('gives up waiting for a pooled connection after the acquire timeout', async () => {
    const held = [ds.createQueryRunner(), ds.createQueryRunner()];
    for (const runner of held) await runner.connect();
    try {
      const { ms, error } = await settle(ds.query('SELECT 1'));
      expect(error?.message).toBe('timeout exceeded when trying to connect');
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(ms).toBeGreaterThanOrEqual(350);
      expect(ms).toBeLessThan(3_000);
    } finally {
      for (const runner of held) await runner.release();
    }
  });

  it('bounds opening a connection by the connect timeout, not the acquire timeout', async () => {
    // A server that accepts and never answers: PostgreSQL's start-up never completes.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as net.AddressInfo).port;
    const bounded = { ...defaultDatabaseLimits('silent'), connectTimeoutMs: 300, acquireTimeoutMs: 20_000 };
    const source = new DataSource({ type: 'postgres', url: `postgres://postgres@127.0.0.1:${port}/x`, entities: [], ...poolOptions(bounded, 'public') });
    try {
      const { ms, error } = await settle(source.initialize());
      expect(error).not.toBeNull();
      expect(isDatabaseUnavailable(error)).toBe(true);
      expect(ms).toBeLessThan(5_000);
    } finally {
      if (source.isInitialized) await source.destroy();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  });
});
