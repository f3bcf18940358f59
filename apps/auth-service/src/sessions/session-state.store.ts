import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { ACCOUNT_STATE_TTL_SECONDS, accountStateKey, IDENTITY_REDIS, SERVICE_CONFIG, sessionKey, withTimeout, type ServiceConfig } from '@market/server-kit';
import type { AccountState } from '@market/contracts';
import type { UserEntity } from '../users/user.entity';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';

const PUBLISH_TIMEOUT_MS = 1000;

/** The state every process checks a token against (ADR 0030): version, status and the account's current role. */
export function accountStateOf(user: Pick<UserEntity, 'tokenVersion' | 'status' | 'role' | 'emailVerifiedAt'>): AccountState {
  return { token_version: user.tokenVersion, status: user.status, role: user.role, email_verified: user.emailVerifiedAt !== null };
}

/**
 * Publishes account and session state to Redis after a change, so every process sees it at once (ADR 0030). What says
 * "active" lives as long as a reader's own cache (5 minutes), what says "ended" as long as a token could be presented:
 * PostgreSQL stays the authority, so a write lost to a Redis failure or restore is corrected within minutes. A failed
 * publish is logged and never undoes or fails the change itself.
 */
@Injectable()
export class SessionStateStore {
  private readonly logger = new Logger('SessionStateStore');

  constructor(
    // The request-path connection (ADR 0044): while Redis is away a write or read fails within 250 ms, never queues.
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(AUTH_CONFIG) private readonly auth: AuthConfig,
  ) {}

  /** The account's state after a change: overwrites whatever any process cached. */
  async publish(user: Pick<UserEntity, 'id' | 'tokenVersion' | 'status' | 'role' | 'emailVerifiedAt'>): Promise<void> {
    const key = accountStateKey(this.config.REDIS_KEY_PREFIX, user.id);
    await this.write(() => this.redis.set(key, JSON.stringify(accountStateOf(user)), 'EX', ACCOUNT_STATE_TTL_SECONDS), `account ${user.id}`);
  }

  /**
   * The account's state as read at login or impersonation: written only when no state is there, so a suspension or
   * reset that committed while the password was being checked is never overwritten with the older picture.
   */
  async publishIfAbsent(user: Pick<UserEntity, 'id' | 'tokenVersion' | 'status' | 'role' | 'emailVerifiedAt'>): Promise<void> {
    const key = accountStateKey(this.config.REDIS_KEY_PREFIX, user.id);
    await this.write(() => this.redis.set(key, JSON.stringify(accountStateOf(user)), 'EX', ACCOUNT_STATE_TTL_SECONDS, 'NX'), `account ${user.id}`);
  }

  /** Marks sessions live (for a reader's cache time) or ended (for as long as a token of theirs could be presented). */
  async publishSessions(ids: string[], live: boolean): Promise<void> {
    if (ids.length === 0) return;
    const writes = this.redis.multi();
    const ttl = live ? ACCOUNT_STATE_TTL_SECONDS : this.auth.JWT_TTL_SECONDS;
    for (const id of ids) writes.set(sessionKey(this.config.REDIS_KEY_PREFIX, id), live ? '1' : '0', 'EX', ttl);
    await this.write(() => writes.exec(), `${ids.length} session(s)`);
  }

  private async write(run: () => Promise<unknown>, what: string): Promise<void> {
    try {
      await withTimeout(run(), PUBLISH_TIMEOUT_MS, 'Redis');
    } catch (error) {
      this.logger.warn(`Could not publish the state of ${what} (PostgreSQL has it; readers catch up within ${ACCOUNT_STATE_TTL_SECONDS} s): ${(error as Error).message}`);
    }
  }
}
