import { Inject, Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request, Response } from 'express';
import type { Redis } from 'ioredis';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';
import { GATEWAY_REDIS } from '../gateway.tokens';
import { canonicalIdentifier } from '@market/domain';
import { AppError } from '@market/server-kit';
import { clientAddressKey } from './client-address';

interface Limit {
  /** What is counted: the client address, or a field of the body (lower-cased). */
  by: 'ip' | { body: string };
  max: number;
  windowSeconds: number;
}

/** The limits per action: per client address (an IPv6 /64 counts as one) and, for login and forgot-password, per account. */
export const RATE_LIMITS = {
  login: [
    { by: 'ip', max: 30, windowSeconds: 900 },
    { by: { body: 'login' }, max: 10, windowSeconds: 900 },
  ],
  register: [{ by: 'ip', max: 10, windowSeconds: 3600 }],
  forgotPassword: [
    { by: 'ip', max: 10, windowSeconds: 900 },
    { by: { body: 'email' }, max: 3, windowSeconds: 3600 },
  ],
  resetPassword: [{ by: 'ip', max: 10, windowSeconds: 900 }],
  undoEmailChange: [{ by: 'ip', max: 10, windowSeconds: 900 }],
  verifyEmail: [{ by: 'ip', max: 20, windowSeconds: 900 }],
  contact: [{ by: 'ip', max: 5, windowSeconds: 3600 }],
} satisfies Record<string, Limit[]>;
export type RateLimitName = keyof typeof RATE_LIMITS;

const RATE_LIMIT_KEY = 'rate-limit';
/** Limits a route with the named rules. */
export const RateLimit = (name: RateLimitName) => SetMetadata(RATE_LIMIT_KEY, name);

// INCR and the first PEXPIRE in one step, so a window always ends even if a gateway dies in between.
const HIT = `local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {n, redis.call('PTTL', KEYS[1])}`;

/** Counts attempts in Redis, so limits hold across every gateway replica; over the limit is a 429 with Retry-After. */
@Injectable()
export class RateLimitGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(GATEWAY_REDIS) private readonly redis: Redis,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const name = this.reflector.get<RateLimitName | undefined>(RATE_LIMIT_KEY, context.getHandler());
    if (!name || this.config.RATE_LIMIT_SCALE === 0) return true;
    const request = context.switchToHttp().getRequest<Request>();
    for (const limit of RATE_LIMITS[name] as Limit[]) {
      const subject = limit.by === 'ip' ? clientAddressKey(request.ip) : request.body?.[limit.by.body];
      if (typeof subject !== 'string' || subject.length === 0) continue;
      const key = `${this.config.REDIS_KEY_PREFIX}ratelimit:${name}:${limit.by === 'ip' ? 'ip' : limit.by.body}:${canonicalIdentifier(subject).slice(0, 256)}`;
      const [count, ttlMs] = (await this.redis.eval(HIT, 1, key, String(limit.windowSeconds * 1000))) as [number, number];
      if (count > limit.max * this.config.RATE_LIMIT_SCALE) {
        const retryAfter = Math.max(1, Math.ceil(ttlMs / 1000));
        context.switchToHttp().getResponse<Response>().setHeader('Retry-After', String(retryAfter));
        const minutes = Math.ceil(retryAfter / 60);
        throw new AppError('rate_limited', `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
      }
    }
    return true;
  }
}
