import pg from 'pg';
import { z } from 'zod';
import { databaseEnv, type DatabaseEnv } from '../config/database-env';

/** How a service's connections to PostgreSQL are bounded (ADR 0044). */
export interface DatabaseLimits {
  poolSize: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  /** Opening one connection (TCP and start-up). */
  connectTimeoutMs: number;
  /** Waiting for a pooled connection while every one is in use. */
  acquireTimeoutMs: number;
  /** Names the process in pg_stat_activity, so a DBA sees which service holds what. */
  applicationName: string;
}

/** The limits of a service from its parsed configuration. */
export function databaseLimits(config: DatabaseEnv, applicationName: string): DatabaseLimits {
  return {
    poolSize: config.DB_POOL_SIZE,
    statementTimeoutMs: config.DB_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: config.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    connectTimeoutMs: config.DB_CONNECT_TIMEOUT_MS,
    acquireTimeoutMs: config.DB_ACQUIRE_TIMEOUT_MS,
    applicationName,
  };
}

/** The limits every variable's default gives (tests and tools that open a database without a service's config). */
export function defaultDatabaseLimits(applicationName = 'market'): DatabaseLimits {
  return databaseLimits(z.object(databaseEnv).parse({}), applicationName);
}

type PoolInternals = { options: { connectionTimeoutMillis?: number }; newClient(item: unknown): void };

/**
 * pg as TypeORM should load it: its Pool bounds the wait for a free connection by the acquire timeout and the opening of
 * a new one by the connect timeout. pg-pool has one `connectionTimeoutMillis` for both, read synchronously when a new
 * client is created, so it is swapped for the connect timeout around that call only.
 */
function boundedPg(limits: DatabaseLimits): typeof pg {
  class BoundedPool extends pg.Pool {
    newClient(item: unknown): void {
      const self = this as unknown as PoolInternals;
      const acquire = self.options.connectionTimeoutMillis;
      self.options.connectionTimeoutMillis = limits.connectTimeoutMs;
      try {
        (pg.Pool.prototype as unknown as PoolInternals).newClient.call(this, item);
      } finally {
        self.options.connectionTimeoutMillis = acquire;
      }
    }
  }
  return { ...pg, Pool: BoundedPool } as typeof pg;
}

/** TypeORM postgres options applying the limits: pool size, the pg driver and the session settings of every connection. */
export function poolOptions(limits: DatabaseLimits, searchPath: string) {
  return {
    poolSize: limits.poolSize,
    applicationName: limits.applicationName,
    driver: boundedPg(limits),
    extra: {
      connectionTimeoutMillis: limits.acquireTimeoutMs,
      statement_timeout: limits.statementTimeoutMs,
      idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs,
      // Unqualified SQL in migrations and repositories resolves to the service's own schema.
      // JIT compiles a plan in tens of milliseconds: a loss for short OLTP statements, so services turn it off.
      options: `-c search_path=${searchPath} -c jit=off`,
    },
  };
}
