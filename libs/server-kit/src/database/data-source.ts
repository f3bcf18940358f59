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
}

const SCHEMA_PATTERN = /^[a-z][a-z0-9_]*$/;

/** Creates the service schema, runs pending migrations under an advisory lock, and returns a ready DataSource. */
export async function openServiceDatabase(options: ServiceDatabaseOptions): Promise<DataSource> {
  if (!SCHEMA_PATTERN.test(options.schema)) throw new Error(`Invalid schema name: ${options.schema}`);
  const limits: DatabaseLimits = { ...defaultDatabaseLimits(), ...(options.poolSize ? { poolSize: options.poolSize } : {}), ...options.limits };
  await ensureSchema(options.url, options.schema, limits);
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
    await runMigrationsLocked(dataSource, options.schema);
  } catch (error) {
    await dataSource.destroy();
    throw error;
  }
  return dataSource;
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

async function runMigrationsLocked(dataSource: DataSource, schema: string): Promise<void> {
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
    await executor.executePendingMigrations();
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
