import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { attemptState, countAttempt, IDENTITY_REDIS, rateLimited, SERVICE_CONFIG, tooManyAttempts, unavailable, withTimeout, type AttemptQuota, type ServiceConfig } from '@market/server-kit';
import { canonicalIdentifier } from '@market/domain';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';

/** Logins tried on one account, however it was named (username or email): 10 per 15 minutes (ADR 0010, 0065). */
export const LOGIN_ACCOUNT_QUOTA: AttemptQuota = { policy: 'login-account', max: 10, windowSeconds: 900 };
const REDIS_TIMEOUT_MS = 250;

/**
 * Counts login attempts per account in Redis, across every auth-service replica. Only auth-service knows that a
 * username and an email name the same account, so the gateway counts per address and this counts per account; a name
 * that is no account is counted by its canonical form, so trying one costs the same time as trying a real one.
 */
@Injectable()
export class LoginAttempts {
  private readonly logger = new Logger('LoginAttempts');
  private failing = false;

  constructor(
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(AUTH_CONFIG) private readonly auth: AuthConfig,
  ) {}

  /** Counts one attempt on the account (or the unknown name): a 429 over the quota, a 503 while Redis cannot count. */
  async count(userId: string | null, login: string): Promise<void> {
    if (this.auth.RATE_LIMIT_SCALE === 0) return;
    const subject = userId ? `account:${userId}` : `name:${canonicalIdentifier(login).slice(0, 256)}`;
    let hit: [number, number];
    try {
      hit = await withTimeout(countAttempt(this.redis, `${this.config.REDIS_KEY_PREFIX}ratelimit:login:${subject}`, LOGIN_ACCOUNT_QUOTA.windowSeconds), REDIS_TIMEOUT_MS, 'Redis');
      if (this.failing) this.logger.log('Redis counts login attempts again');
      this.failing = false;
    } catch (error) {
      // Closed, as the gateway's login limits are (ADR 0044): unlimited guesses at one account are worse than a pause.
      if (!this.failing) this.logger.warn(`Login attempts cannot be counted (logins answer 503): ${(error as Error).message}`);
      this.failing = true;
      throw unavailable('This is briefly unavailable. Please try again in a minute.');
    }
    const { exceeded, ...state } = attemptState(LOGIN_ACCOUNT_QUOTA, hit[0], hit[1], this.auth.RATE_LIMIT_SCALE);
    if (exceeded) throw rateLimited(tooManyAttempts(state), state);
  }
}
