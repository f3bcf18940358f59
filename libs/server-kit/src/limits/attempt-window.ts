import type { Redis } from 'ioredis';
import type { RateLimitState } from '@market/contracts';

/** A quota of attempts per fixed window, counted in Redis (ADR 0010, 0064). */
export interface AttemptQuota {
  /** The quota's name in the RateLimit-Policy header. */
  policy: string;
  max: number;
  windowSeconds: number;
}

// INCR and the first PEXPIRE in one step, so a window always ends even if a process dies in between.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/** Counts one attempt under `key` in a window of the quota's length: the count so far and the window's time left (ms). */
export async function countAttempt(redis: Redis, key: string, windowSeconds: number): Promise<[number, number]> {
  return (await redis.eval(HIT, 1, key, String(windowSeconds * 1000))) as [number, number];
}

/** The quota as the RateLimit headers tell it after `count` attempts with `ttlMs` of the window left (`scale` multiplies it). */
export function attemptState(quota: AttemptQuota, count: number, ttlMs: number, scale = 1): RateLimitState & { exceeded: boolean } {
  // Whole requests, at least one: the header states a count (a fractional scale rounds down).
  const allowed = Math.max(1, Math.floor(quota.max * scale));
  return {
    policy: quota.policy,
    quota: allowed,
    window_seconds: quota.windowSeconds,
    unit: 'requests',
    remaining: Math.max(0, allowed - count),
    reset_seconds: Math.max(1, Math.ceil(ttlMs / 1000)),
    exceeded: count > allowed,
  };
}

/** The words of a refusal by an attempt quota: how long to wait, in minutes. */
export function tooManyAttempts(state: RateLimitState): string {
  const minutes = Math.ceil(state.reset_seconds / 60);
  return `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`;
}
