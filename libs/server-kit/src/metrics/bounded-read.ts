import type { DataSource, EntityManager } from 'typeorm';

/** The longest a metrics query may run in PostgreSQL before it is cancelled. */
export const METRICS_STATEMENT_TIMEOUT_MS = 1000;

/**
 * Runs a repository's read for a scrape under a short statement timeout, so a slow database cancels it instead of a
 * scrape holding a pool connection (ADR 0048).
 */
export function boundedRead<T>(dataSource: DataSource, read: (manager: EntityManager) => Promise<T>): Promise<T> {
  return dataSource.transaction(async (manager) => {
    await manager.query(`SET LOCAL statement_timeout = ${METRICS_STATEMENT_TIMEOUT_MS}`);
    return read(manager);
  });
}
