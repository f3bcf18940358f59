import type { ServiceName } from '@market/contracts';
import { commonEnv, parseEnv, serviceEnv } from '../config/env';
import { databaseEnv } from '../config/database-env';
import { JsonLogger } from '../logging/json-logger';
import { migrateServiceDatabase } from '../database/data-source';
import { databaseLimits } from '../database/pool-options';
import { serviceMigrations, type ServiceDatabase } from '../database/service-database';
import { flushTraces } from '../tracing/start-tracing';

/** What a process was started to do: serve (no argument), or apply its migrations and exit (`migrate`). */
export type ServiceCommand = 'serve' | 'migrate';

/**
 * Reads the command from the arguments (ADR 0053): none serves, `migrate` migrates when the process owns a database.
 * Anything else stops the process with one line and exit code 2, before any variable is read.
 */
export function serviceCommand(name: string, ownsDatabase: boolean, args: string[] = process.argv.slice(2)): ServiceCommand {
  if (args.length === 0) return 'serve';
  if (args.length === 1 && args[0] === 'migrate' && ownsDatabase) return 'migrate';
  const line =
    args[0] === 'migrate' && !ownsDatabase
      ? `${name} owns no database: there is nothing to migrate`
      : `${name}: unknown arguments "${args.join(' ')}": give none to serve${ownsDatabase ? ', or "migrate" to apply the database migrations and exit' : ''}`;
  process.stderr.write(`${line}\n`);
  process.exit(2);
}

/**
 * Variables the migrate step reads: the database's only, so its Job needs no other secret (ADR 0053). A bad value
 * stops it with one line naming the variable, like any start.
 */
export const migrateEnv = { DATABASE_URL: serviceEnv.DATABASE_URL, LOG_LEVEL: commonEnv.LOG_LEVEL, ...databaseEnv };

/**
 * `<service> migrate`: creates the service's schema and applies its pending migrations under the advisory lock a
 * start takes, then exits 0 without joining NATS or serving; a failure is one log line and exit code 1.
 */
export async function runMigrateCommand(service: ServiceName, database: ServiceDatabase): Promise<void> {
  const config = parseEnv(migrateEnv);
  const logger = new JsonLogger(service, config.LOG_LEVEL);
  try {
    const applied = await migrateServiceDatabase({
      url: config.DATABASE_URL,
      schema: database.schema,
      entities: database.entities,
      migrations: serviceMigrations(database),
      limits: databaseLimits(config, `${service}-migrate`),
    });
    logger.log(
      applied.length === 0 ? `schema ${database.schema} is up to date` : `schema ${database.schema}: applied ${applied.length} migration(s): ${applied.join(', ')}`,
      'Migrate',
    );
    await flushTraces();
    process.exit(0);
  } catch (error) {
    logger.error(`${service} migrate failed: ${(error as Error).message}`, 'Migrate');
    await flushTraces();
    process.exit(1);
  }
}

/**
 * A service's main: `migrate` runs the migrate step, no argument calls `serve` (which reads the whole configuration
 * and starts the service).
 */
export function serviceMain(service: ServiceName, database: ServiceDatabase, serve: () => Promise<void>): Promise<void> {
  return serviceCommand(service, true) === 'migrate' ? runMigrateCommand(service, database) : serve();
}
