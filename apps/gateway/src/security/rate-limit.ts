import { Inject, Injectable, Logger, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { GATEWAY_REDIS } from '../gateway.tokens';
import { canonicalIdentifier } from '@market/domain';
import type { RateLimitState } from '@market/contracts';
import { rateLimited, setRateLimitHeaders, unavailable } from '@market/server-kit';
import { clientAddressKey } from './client-address';

interface Limit {
  /** The quota's name in the RateLimit-Policy header (ADR 0064). */
  policy: string;
  /** What is counted: the client address, or a field of the body (lower-cased). */
  by: 'ip' | { body: string };
  max: number;
  windowSeconds: number;
}

/** The limits per action: per client address (an IPv6 /64 counts as one) and, for login and forgot-password, per account. */
export const RATE_LIMITS = {
  login: [
    { policy: 'login-address', by: 'ip', max: 30, windowSeconds: 900 },
    { policy: 'login-account', by: { body: 'login' }, max: 10, windowSeconds: 900 },
  ],
  register: [{ policy: 'register-address', by: 'ip', max: 10, windowSeconds: 3600 }],
  forgotPassword: [
    { policy: 'forgot-password-address', by: 'ip', max: 10, windowSeconds: 900 },
    { policy: 'forgot-password-email', by: { body: 'email' }, max: 3, windowSeconds: 3600 },
  ],
  resetPassword: [{ policy: 'reset-password-address', by: 'ip', max: 10, windowSeconds: 900 }],
  undoEmailChange: [{ policy: 'undo-email-change-address', by: 'ip', max: 10, windowSeconds: 900 }],
  verifyEmail: [{ policy: 'verify-email-address', by: 'ip', max: 20, windowSeconds: 900 }],
  contact: [{ policy: 'contact-address', by: 'ip', max: 5, windowSeconds: 3600 }],
} satisfies Record<string, Limit[]>;
export type RateLimitName = keyof typeof RATE_LIMITS;

/**
 * What a limited action does while Redis cannot count it (ADR 0044): 'closed' refuses with a 503 where an unlimited
 * burst guesses passwords or mails addresses the caller chooses; 'open' lets it through where it only spends a
 * guess at a 256-bit token.
 */
export const WHEN_REDIS_IS_AWAY: Record<RateLimitName, 'open' | 'closed'> = {
  login: 'closed',
  register: 'closed',
  forgotPassword: 'closed',
  resetPassword: 'closed',
  contact: 'closed',
  verifyEmail: 'open',
  undoEmailChange: 'open',
};

const RATE_LIMIT_KEY = 'rate-limit';
/** Limits a route with the named rules. */
export const RateLimit = (name: RateLimitName) => SetMetadata(RATE_LIMIT_KEY, name);

// INCR and the first PEXPIRE in one step, so a window always ends even if a gateway dies in between.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/**
 * Counts attempts in Redis, so limits hold across every gateway replica; over the limit is a 429 with Retry-After.
 * Every answer of a limited route carries the RateLimit-Policy and RateLimit headers for the client address's quotas,
 * and a refusal those of the quota that refused it (ADR 0064). Redis answers within 250 ms or the action fails open or closed as WHEN_REDIS_IS_AWAY says (ADR 0044).
 */
@Injectable()
export class RateLimitGuard implements CanActivate {
  private readonly logger = new Logger('RateLimit');
  private failing = false;

  constructor(
    private readonly reflector: Reflector,
    @Inject(GATEWAY_REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const name = this.reflector.get<RateLimitName | undefined>(RATE_LIMIT_KEY, context.getHandler());
    if (!name || this.config.RATE_LIMIT_SCALE === 0) return true;
    const request = context.switchToHttp().getRequest<Request>();
    const response = context.switchToHttp().getResponse<Response>();
    const counted: RateLimitState[] = [];
    for (const limit of RATE_LIMITS[name] as Limit[]) {
      const subject = limit.by === 'ip' ? clientAddressKey(request.ip) : request.body?.[limit.by.body];
      if (typeof subject !== 'string' || subject.length === 0) continue;
      const key = `${this.config.REDIS_KEY_PREFIX}ratelimit:${name}:${limit.by === 'ip' ? 'ip' : limit.by.body}:${canonicalIdentifier(subject).slice(0, 256)}`;
      const hit = await this.count(name, key, limit);
      if (!hit) break;
      const [count, ttlMs] = hit;
      // Whole requests, at least one: the header states a count (a fractional scale rounds down).
      const quota = Math.max(1, Math.floor(limit.max * this.config.RATE_LIMIT_SCALE));
      const state: RateLimitState = {
        policy: limit.policy,
        quota,
        window_seconds: limit.windowSeconds,
        unit: 'requests',
        remaining: Math.max(0, quota - count),
        reset_seconds: Math.max(1, Math.ceil(ttlMs / 1000)),
      };
      if (count > quota) {
        const minutes = Math.ceil(state.reset_seconds / 60);
        // The filter sets Retry-After and this quota's headers; the quotas counted before it are not repeated.
        throw rateLimited(`Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, state);
      }
      // An account's count is told only on its refusal: on every answer it would tell anyone whether someone else
      // has been trying that login or email lately.
      if (limit.by === 'ip') counted.push(state);
    }
    setRateLimitHeaders(response, counted);
    return true;
  }

  /** The attempt's count and the window's time left; null when Redis is away and the action fails open. */
  private async count(name: RateLimitName, key: string, limit: Limit): Promise<[number, number] | null> {
    try {
      const hit = (await this.redis.eval(HIT, 1, key, String(limit.windowSeconds * 1000))) as [number, number];
      if (this.failing) this.logger.log('Redis counts rate limits again');
      this.failing = false;
      return hit;
    } catch (error) {
      // Logged once per outage, not per request: a storm of logins must not become a storm of log lines.
      if (!this.failing) this.logger.warn(`Rate limits cannot be counted (login, registration and password reset answer 503): ${(error as Error).message}`);
      this.failing = true;
      if (WHEN_REDIS_IS_AWAY[name] === 'open') return null;
      throw unavailable('This is briefly unavailable. Please try again in a minute.');
    }
  }
}
