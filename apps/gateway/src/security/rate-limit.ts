import { Inject, Injectable, Logger, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { GATEWAY_REDIS } from '../gateway.tokens';
import { canonicalIdentifier } from '@market/domain';
import type { RateLimitState } from '@market/contracts';
import { attemptState, countAttempt, rateLimited, setRateLimitHeaders, tooManyAttempts, unavailable } from '@market/server-kit';
import { clientAddressKey } from './client-address';

interface Limit {
  /** The quota's name in the RateLimit-Policy header (ADR 0064). */
  policy: string;
  /** What is counted: the client address, or a field of the body (lower-cased). */
  by: 'ip' | { body: string };
  max: number;
  windowSeconds: number;
}

/** The limits per action: per client address (an IPv6 /64 counts as one) and, for forgot-password, per email. */
export const RATE_LIMITS = {
  login: [
    { policy: 'login-address', by: 'ip', max: 30, windowSeconds: 900 },
    // The per-account quota (login-account) is auth-service's: only it knows a username and an email name one account.
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
  // Each connect asks Stripe or Google once while the seller waits (ADR 0084): a bound on what one address makes us send.
  verifiedFigures: [{ policy: 'verified-figures-address', by: 'ip', max: 30, windowSeconds: 3600 }],
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
  verifiedFigures: 'open',
};

const RATE_LIMIT_KEY = 'rate-limit';
/** Limits a route with the named rules. */
export const RateLimit = (name: RateLimitName) => SetMetadata(RATE_LIMIT_KEY, name);

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
      const { exceeded, ...state } = attemptState(limit, count, ttlMs, this.config.RATE_LIMIT_SCALE);
      // The filter sets Retry-After and this quota's headers; the quotas counted before it are not repeated.
      if (exceeded) throw rateLimited(tooManyAttempts(state), state);
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
      const hit = await countAttempt(this.redis, key, limit.windowSeconds);
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
