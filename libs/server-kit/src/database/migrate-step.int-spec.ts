import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { DataSource, MigrationInterface, QueryRunner } from 'typeorm';
import { createTestDatabase, eventually, type TestDatabase } from '../testing';
import { migrateServiceDatabase, openServiceDatabase, pendingMigrations, type ServiceDatabaseOptions } from './data-source';

class CreateThings1763800000010 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('CREATE TABLE things (id int PRIMARY KEY)');
  }
  async down() {}
}

class ThingNames1763800000011 implements MigrationInterface {
  async up(queryRunner: QueryRunner) {
    await queryRunner.query('ALTER TABLE things ADD COLUMN name text');
  }
  async down() {}
}

/** Whether some connection named `applicationName` started a query after the database's time `since`. */
async function queriedSince(client: Client, applicationName: string, since: string): Promise<boolean> {
  const { rows } = await client.query('SELECT EXISTS (SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND query_start > $2::timestamptz) AS yes', [applicationName, since]);
  return rows[0].yes as boolean;
}

describe('migrations outside service start (ADR 0053)', () => {
  let db: TestDatabase;
  let options: ServiceDatabaseOptions;
  const opened: DataSource[] = [];
  let watcher: Client;

  /**
   * Starts without migrating and waits for the marker that the start kept waiting: it reported why, then looked at the
   * schema again (a query after the report). `settled()` then tells whether the start had finished anyway.
   */
  const startWithoutMigrating = async (startOptions: ServiceDatabaseOptions) => {
    const applicationName = `step-wait-${randomUUID().slice(0, 8)}`;
    const reasons: string[] = [];
    let settled = false;
    const starting = openServiceDatabase({ ...startOptions, migrationsOnStart: false, limits: { applicationName }, onWaitForMigrations: (why) => reasons.push(why) });
    void starting.then(
      () => (settled = true),
      () => (settled = true),
    );
    await eventually(() => expect(reasons.length).toBeGreaterThan(0));
    const since = ((await watcher.query('SELECT clock_timestamp()::text AS at')).rows[0] as { at: string }).at;
    await eventually(async () => expect(await queriedSince(watcher, applicationName, since)).toBe(true));
    return { starting, reasons, settled: () => settled };
  };
  const schemaExists = async (ds: DataSource) =>
    ((await ds.query(`SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = 'step_test'`)) as { n: number }[])[0].n === 1;

  beforeAll(async () => {
    db = await createTestDatabase('migrate_step');
    options = { url: db.url, schema: 'step_test', entities: [], migrations: [CreateThings1763800000010], migrationsPollMs: 100 };
    watcher = new Client({ connectionString: db.url });
    await watcher.connect();
  });
  afterAll(async () => {
    await watcher?.end();
    await Promise.all(opened.map((ds) => ds.destroy()));
    await db?.drop();
  });

  it('a start that does not migrate waits for the migrate step, creating nothing meanwhile', async () => {
    const { starting, reasons, settled } = await startWithoutMigrating(options);
    expect(settled()).toBe(false);
    expect(reasons).toEqual([
      'schema step_test lacks 1 migration(s) (CreateThings1763800000010); MIGRATIONS_ON_START=false, so the migrate step must apply them',
    ]);

    expect(await migrateServiceDatabase(options)).toEqual(['CreateThings1763800000010']);
    const ds = await starting;
    opened.push(ds);
    expect(await ds.query('SELECT count(*)::int AS n FROM step_test.things')).toEqual([{ n: 0 }]);
    expect(await schemaExists(ds)).toBe(true);
  });

  it('the migrate step applies only what is pending, and nothing when up to date', async () => {
    expect(await migrateServiceDatabase(options)).toEqual([]);
    const next = { ...options, migrations: [CreateThings1763800000010, ThingNames1763800000011] };
    // The running replica's code knows one migration fewer: it stays up (expand first, ADR 0053).
    expect(await pendingMigrations(opened[0])).toEqual([]);
    const { starting, settled } = await startWithoutMigrating(next);
    expect(settled()).toBe(false);
    expect(await migrateServiceDatabase(next)).toEqual(['ThingNames1763800000011']);
    const ds = await starting;
    opened.push(ds);
    expect(await ds.query('SELECT name FROM step_test.things')).toEqual([]);
  });

  it('two migrate steps at once apply each migration once (advisory lock)', async () => {
    const other = { ...options, schema: 'step_race' };
    const results = await Promise.all([migrateServiceDatabase(other), migrateServiceDatabase(other)]);
    expect(results.flat()).toEqual(['CreateThings1763800000010']);
  });

  it('a start on a fresh database does not create the schema when it does not migrate', async () => {
    const fresh = { ...options, schema: 'step_untouched' };
    const { starting, settled } = await startWithoutMigrating(fresh);
    expect(settled()).toBe(false);
    const [{ n }] = (await opened[0].query(`SELECT count(*)::int AS n FROM information_schema.schemata WHERE schema_name = 'step_untouched'`)) as { n: number }[];
    expect(n).toBe(0);
    await migrateServiceDatabase(fresh);
    opened.push(await starting);
  });
});
