import { DataSource, MigrationExecutor, type MixedList, type EntitySchema } from 'typeorm';
import { Client } from 'pg';
import { defaultDatabaseLimits, poolOptions, type DatabaseLimits } from './pool-options';

export interface ServiceDatabaseOptions {
  url: string;
  /** The service's own schema: every table it owns lives there (DESIGN §1 Data). */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: MixedList<Function | string>;
  /** Pool size, timeouts and application name (ADR 0044); what is not given takes the variables' defaults. */
  limits?: Partial<DatabaseLimits>;
  /** Shorthand for limits.poolSize (tests). */
  poolSize?: number;
  /**
   * false: this process does not migrate (MIGRATIONS_ON_START=false, ADR 0053). It creates nothing and waits until the
   * schema has every migration it knows, so it never runs against an older schema. Default true.
   */
  migrationsOnStart?: boolean;
  /** Hears why a start that does not migrate is still waiting (once per distinct reason). */
  onWaitForMigrations?: (why: string) => void;
  /** How often a start that does not migrate looks again (default 2 s; tests shorten it). */
  migrationsPollMs?: number;
}

const SCHEMA_PATTERN = /^[a-z][a-z0-9_]*$/;

/**
 * Opens a service's DataSource. By default it creates the schema and runs pending migrations under an advisory lock;
 * with `migrationsOnStart: false` it waits instead until the migrate step has applied them (ADR 0053).
 */
export async function openServiceDatabase(options: ServiceDatabaseOptions): Promise<DataSource> {
  const migrate = options.migrationsOnStart ?? true;
  const { dataSource } = await withServiceDataSource(options, migrate, async (ds) => {
    if (migrate) await runMigrationsLocked(ds, options.schema);
    else await waitForMigrations(ds, options.schema, options.onWaitForMigrations ?? (() => undefined), options.migrationsPollMs ?? 2_000);
  });
  return dataSource;
}

/**
 * The migrate step (ADR 0053): creates the schema, applies its pending migrations under the same advisory lock as a
 * start would, closes its connections and returns the names of the migrations it applied (none when up to date).
 */
export async function migrateServiceDatabase(options: ServiceDatabaseOptions): Promise<string[]> {
  const { dataSource, result } = await withServiceDataSource({ ...options, limits: { ...options.limits, poolSize: 2 } }, true, (ds) => runMigrationsLocked(ds, options.schema));
  await dataSource.destroy();
  return result;
}

/** Names of the migrations this code knows that the schema has not applied yet; reads only (no table is created). */
export async function pendingMigrations(dataSource: DataSource): Promise<string[]> {
  return (await new MigrationExecutor(dataSource).getPendingMigrations()).map((migration) => migration.name);
}

async function withServiceDataSource<T>(
  options: ServiceDatabaseOptions,
  createSchema: boolean,
  use: (dataSource: DataSource) => Promise<T>,
): Promise<{ dataSource: DataSource; result: T }> {
  if (!SCHEMA_PATTERN.test(options.schema)) throw new Error(`Invalid schema name: ${options.schema}`);
  const limits: DatabaseLimits = { ...defaultDatabaseLimits(), ...(options.poolSize ? { poolSize: options.poolSize } : {}), ...options.limits };
  if (createSchema) await ensureSchema(options.url, options.schema, limits);
  const dataSource = new DataSource({
    type: 'postgres',
    url: options.url,
    schema: options.schema,
    entities: options.entities,
    migrations: options.migrations,
    migrationsTableName: 'migrations',
    synchronize: false,
    logging: false,
    ...poolOptions(limits, options.schema),
  });
  await dataSource.initialize();
  try {
    return { dataSource, result: await use(dataSource) };
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
}

/** Polls until the schema has every migration this code knows: a start that does not migrate never runs ahead of it. */
async function waitForMigrations(dataSource: DataSource, schema: string, onWait: (why: string) => void, pollMs: number): Promise<void> {
  let last = '';
  for (;;) {
    const pending = await pendingMigrations(dataSource);
    if (pending.length === 0) return;
    const why = `schema ${schema} lacks ${pending.length} migration(s) (${pending.join(', ')}); MIGRATIONS_ON_START=false, so the migrate step must apply them`;
    if (why !== last) onWait(why);
    last = why;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}

async function ensureSchema(url: string, schema: string, limits: DatabaseLimits): Promise<void> {
  const client = new Client({ connectionString: url, connectionTimeoutMillis: limits.connectTimeoutMs, application_name: limits.applicationName });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
  } catch (error) {
    // Two replicas creating the schema at once: the loser sees a unique violation and can go on.
    if ((error as { code?: string }).code !== '23505') throw error;
  } finally {
    await client.end();
  }
}

const MIGRATION_LOCK_POLL_MS = 250;

async function runMigrationsLocked(dataSource: DataSource, schema: string): Promise<string[]> {
  const runner = dataSource.createQueryRunner();
  await runner.connect();
  try {
    // A migration may rewrite a large table: it runs without the request path's statement and idle timeouts (ADR 0044).
    await runner.query('SET statement_timeout = 0');
    await runner.query('SET idle_in_transaction_session_timeout = 0');
    // Polled, not waited for: a replica blocked inside pg_advisory_lock holds a snapshot, which a CREATE INDEX
    // CONCURRENTLY of the replica migrating would wait for in turn (a deadlock PostgreSQL ends by aborting one side).
    for (;;) {
      const [{ locked }] = (await runner.query('SELECT pg_try_advisory_lock(hashtext($1)) AS locked', [`migrations:${schema}`])) as { locked: boolean }[];
      if (locked) break;
      await new Promise((resolve) => setTimeout(resolve, MIGRATION_LOCK_POLL_MS));
    }
    const executor = new MigrationExecutor(dataSource, runner);
    executor.transaction = 'each';
    return (await executor.executePendingMigrations()).map((migration) => migration.name);
  } finally {
    await runner.query('SELECT pg_advisory_unlock(hashtext($1))', [`migrations:${schema}`]).catch(() => undefined);
    await runner.query('RESET statement_timeout').catch(() => undefined);
    await runner.query('RESET idle_in_transaction_session_timeout').catch(() => undefined);
    await runner.release();
  }
}

/** True when a database error is a unique violation, optionally of the named constraint or index. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = error as { code?: string; constraint?: string; driverError?: { code?: string; constraint?: string } };
  const code = e?.code ?? e?.driverError?.code;
  const name = e?.constraint ?? e?.driverError?.constraint;
  return code === '23505' && (constraint === undefined || name === constraint);
}
