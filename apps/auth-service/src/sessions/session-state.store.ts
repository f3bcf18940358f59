import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { REDIS, SERVICE_CONFIG, type ServiceConfig } from '@market/server-kit';
import type { SessionState } from '@market/contracts';
import type { UserEntity } from '../users/user.entity';

const TTL_SECONDS = 3600;

/** The Redis key the gateway reads to accept or refuse a token. */
export function sessionKey(prefix: string, userId: string): string {
  return `${prefix}session:${userId}`;
}

/** The session state of an account, as the gateway checks it on every request. */
export function sessionStateOf(user: Pick<UserEntity, 'tokenVersion' | 'status'>): SessionState {
  return { token_version: user.tokenVersion, status: user.status };
}

/** Publishes an account's session state to Redis after a change, so every gateway sees it at once. */
@Injectable()
export class SessionStateStore {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(SERVICE_CONFIG) private readonly config: ServiceConfig,
  ) {}

  async publish(user: Pick<UserEntity, 'id' | 'tokenVersion' | 'status'>): Promise<void> {
    await this.redis.set(sessionKey(this.config.REDIS_KEY_PREFIX, user.id), JSON.stringify(sessionStateOf(user)), 'EX', TTL_SECONDS);
  }
}
