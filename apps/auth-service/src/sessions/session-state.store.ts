import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { accountStateKey, REDIS, SERVICE_CONFIG, sessionKey, type ServiceConfig } from '@market/server-kit';
import type { AccountState } from '@market/contracts';
import type { UserEntity } from '../users/user.entity';
import { AUTH_CONFIG, type AuthConfig } from '../auth.config';

const ACCOUNT_TTL_SECONDS = 3600;

/** The state every process checks a token against (ADR 0030): version, status and the account's current role. */
export function accountStateOf(user: Pick<UserEntity, 'tokenVersion' | 'status' | 'role'>): AccountState {
  return { token_version: user.tokenVersion, status: user.status, role: user.role };
}

/** Publishes account and session state to Redis after a change, so every process sees it at once. */
@Injectable()
export class SessionStateStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
    @Inject(AUTH_CONFIG) private readonly auth: AuthConfig,
  ) {}

  async publish(user: Pick<UserEntity, 'id' | 'tokenVersion' | 'status' | 'role'>): Promise<void> {
    await this.redis.set(accountStateKey(this.config.REDIS_KEY_PREFIX, user.id), JSON.stringify(accountStateOf(user)), 'EX', ACCOUNT_TTL_SECONDS);
  }

  /** Marks sessions live or ended for as long as a token of theirs could be presented. */
  async publishSessions(ids: string[], live: boolean): Promise<void> {
    if (ids.length === 0) return;
    const writes = this.redis.multi();
    for (const id of ids) writes.set(sessionKey(this.config.REDIS_KEY_PREFIX, id), live ? '1' : '0', 'EX', this.auth.JWT_TTL_SECONDS);
    await writes.exec();
  }
}
