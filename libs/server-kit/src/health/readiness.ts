import type { DataSource } from 'typeorm';
import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import { withTimeout } from '../async/with-timeout';

/** One dependency a process needs before it can serve. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /**
   * The process serves without it, degraded (ADR 0050): its state is reported but readiness does not depend on it
   * (Redis: sessions fall back to auth-service; object storage: uploads answer 503).
   */
  optional?: boolean;
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
  optional: true,
  check: async () => {
    if (redis.status !== 'ready') throw new Error(`redis is ${redis.status}`);
    await checked(redis.ping(), 'redis');
  },
});

/** Runs every check; ready when every required one is up, degraded when an optional one is down; the map says why. */
export async function runReadiness(checks: ReadinessCheck[]): Promise<{ ready: boolean; degraded: boolean; checks: Record<string, string> }> {
  const results = await Promise.all(
    checks.map(async (c) => {
      try {
        await c.check();
        return { check: c, state: 'up' };
      } catch (error) {
        return { check: c, state: `down: ${(error as Error).message}` };
      }
    }),
  );
  return {
    ready: results.every((r) => r.check.optional || r.state === 'up'),
    degraded: results.some((r) => r.state !== 'up'),
    checks: Object.fromEntries(results.map((r) => [r.check.name, r.state])),
  };
}

/**
 * Waits until every required check is up, so a service joins its NATS queue group only once it can serve (ADR 0050);
 * `onWait` hears why it is still waiting (once per distinct reason).
 */
export async function waitUntilReady(checks: ReadinessCheck[], onWait: (why: string) => void, pollMs = 500): Promise<void> {
  let last = '';
  for (;;) {
    const result = await runReadiness(checks);
    if (result.ready) return;
    const why = Object.entries(result.checks)
      .filter(([, state]) => state !== 'up')
      .map(([name, state]) => `${name} ${state}`)
      .join('; ');
    if (why !== last) onWait(why);
    last = why;
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
}
