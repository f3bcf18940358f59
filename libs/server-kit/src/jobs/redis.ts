import IORedis, { type Redis } from 'ioredis';

/** A Redis connection fit for BullMQ workers (no per-command retry limit) and for plain commands. */
export function createRedis(url: string, name: string): Redis {
  return new IORedis(url, { maxRetriesPerRequest: null, connectionName: name, enableOfflineQueue: true });
}

/**
 * A connection for adding jobs from a request or an event handler: while Redis is away its commands fail at once
 * instead of queueing until it is back (errors are left to the callers, not logged per reconnect).
 */
export function createFailFastRedis(url: string, name: string): Redis {
  const connection = new IORedis(url, { connectionName: name, enableOfflineQueue: false, maxRetriesPerRequest: 1 });
  connection.on('error', () => undefined);
  return connection;
}

/** How long a Redis command on the request path may take before it fails (ADR 0044). */
export const REQUEST_REDIS_TIMEOUT_MS = 250;

/**
 * A connection for the request path (identity lookups, rate limits, session state; ADR 0044): no offline queue, no
 * retries, and every command answers or fails within REQUEST_REDIS_TIMEOUT_MS, so nothing a request waits on queues
 * while Redis is away or stalled. It reconnects on its own (at most 2 s apart), so the process recovers without a restart.
 */
export function createRequestRedis(url: string, name: string): Redis {
  const connection = new IORedis(url, {
    connectionName: name,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: REQUEST_REDIS_TIMEOUT_MS,
    connectTimeout: 2_000,
  });
  connection.on('error', () => undefined);
  return connection;
}
