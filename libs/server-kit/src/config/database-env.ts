import { z } from 'zod';

const millis = (fallback: number) => z.coerce.number().int().min(1).max(600_000).default(fallback);

/**
 * PostgreSQL limits of a service process (ADR 0044): its pool, how long a statement, an idle transaction, opening a
 * connection and waiting for one may take. Every process needs DB_POOL_SIZE connections at most, so the sum over all
 * replicas must stay under the server's max_connections (docs/operations.md).
 */
export const databaseEnv = {
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(200).default(10),
  DB_STATEMENT_TIMEOUT_MS: millis(5_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: millis(10_000),
  DB_CONNECT_TIMEOUT_MS: millis(3_000),
  DB_ACQUIRE_TIMEOUT_MS: millis(2_000),
};

export type DatabaseEnv = z.infer<z.ZodObject<typeof databaseEnv>>;
