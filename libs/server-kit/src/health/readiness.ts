import type { DataSource } from 'typeorm';
import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import { withTimeout } from '../async/with-timeout';

/** One dependency a process needs before it can serve. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

export const READINESS_CHECKS = Symbol('READINESS_CHECKS');
const CHECK_TIMEOUT_MS = 1500;

const checked = <T>(promise: Promise<T>, what: string): Promise<T> => withTimeout(promise, CHECK_TIMEOUT_MS, what);

/** PostgreSQL answers a query. */
export const postgresCheck = (dataSource: DataSource): ReadinessCheck => ({
  name: 'postgres',
  check: async () => {
    await checked(dataSource.query('SELECT 1'), 'postgres');
  },
});

/** NATS is connected and answers a round trip. */
export const natsCheck = (nc: NatsConnection): ReadinessCheck => ({
  name: 'nats',
  check: async () => {
    if (nc.isClosed()) throw new Error('nats connection closed');
    await checked(nc.flush(), 'nats');
  },
});

/** Redis answers PING. */
export const redisCheck = (redis: Redis): ReadinessCheck => ({
  name: 'redis',
  check: async () => {
    if (redis.status !== 'ready') throw new Error(`redis is ${redis.status}`);
    await checked(redis.ping(), 'redis');
  },
});

/** Runs every check; the map says which failed and why. */
export async function runReadiness(checks: ReadinessCheck[]): Promise<{ ready: boolean; checks: Record<string, string> }> {
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        await c.check();
        return [c.name, 'up'] as const;
      } catch (error) {
        return [c.name, `down: ${(error as Error).message}`] as const;
      }
    }),
  );
  return { ready: results.every(([, state]) => state === 'up'), checks: Object.fromEntries(results) };
}
