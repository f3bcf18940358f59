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
