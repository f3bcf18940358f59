import IORedis, { type Redis } from 'ioredis';

/** A Redis connection fit for BullMQ workers (no per-command retry limit) and for plain commands. */
export function createRedis(url: string, name: string): Redis {
  return new IORedis(url, { maxRetriesPerRequest: null, connectionName: name, enableOfflineQueue: true });
}
