import type { EntitySchema, MixedList } from 'typeorm';
import { KIT_MIGRATIONS } from './kit-migrations';

/**
 * What a service keeps in PostgreSQL: its schema, entities and migrations. The service module and its migrate step
 * (ADR 0053) both read it, so the step applies exactly what a start would.
 */
export interface ServiceDatabase {
  /** The service's own schema: every table it owns lives there (DESIGN §1 Data). */
  schema: string;
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  entities: MixedList<Function | string | EntitySchema>;
  /** The service's own migrations; the kit's come first. */
  // eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
  migrations: Function[];
}

/** Every migration of a service's schema, in the order they run: the kit's tables, then its own. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type
export function serviceMigrations(database: Pick<ServiceDatabase, 'migrations'>): Function[] {
  return [...KIT_MIGRATIONS, ...database.migrations];
}
