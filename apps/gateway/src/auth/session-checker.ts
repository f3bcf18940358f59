import { Inject, Injectable } from '@nestjs/common';
import type { Redis } from 'ioredis';
import { RPC, type SessionState } from '@market/contracts';
import { GatewayRpc } from '../rpc/rpc-client';
import { GATEWAY_REDIS } from '../gateway.tokens';
import { GATEWAY_CONFIG, type GatewayConfig } from '../gateway.config';

const CACHE_SECONDS = 3600;

/** Decides whether a token's version is still the account's: Redis first, the auth service when Redis has nothing. */
@Injectable()
export class SessionChecker {
  constructor(
    @Inject(GATEWAY_REDIS) private readonly redis: Redis,
    private readonly rpc: GatewayRpc,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  async isCurrent(userId: string, tokenVersion: number): Promise<boolean> {
    const state = await this.state(userId);
    return state.status === 'active' && state.token_version === tokenVersion;
  }

  private async state(userId: string): Promise<SessionState> {
    const key = `${this.config.REDIS_KEY_PREFIX}session:${userId}`;
    const cached = await this.redis.get(key);
    if (cached) return JSON.parse(cached) as SessionState;
    const state = await this.rpc.call(RPC.auth.sessionState, { user_id: userId }, null);
    // NX: a newer state the auth service wrote meanwhile wins over what we read.
    await this.redis.set(key, JSON.stringify(state), 'EX', CACHE_SECONDS, 'NX');
    return state;
  }
}
