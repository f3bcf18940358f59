import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { CommonConfig } from '../config/env';
import { RpcClient } from '../rpc/rpc-client';
import { createRequestRedis } from '../jobs/redis';
import { AccessTokenVerifier } from './access-token';
import { AccountStates } from './account-states';
import { IdentityVerifier } from './identity-verifier';
import { parsePublicKeys } from './jwt-keys';

const STATE_RPC_TIMEOUT_MS = 2000;
export const IDENTITY_RPC = Symbol('IDENTITY_RPC');

export const IDENTITY_REDIS = Symbol('IDENTITY_REDIS');

/** Keeps the verifier's NATS client (for auth-service's answer on a Redis miss) and Redis connection for the app's life. */
@Injectable()
export class IdentityLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    @Inject(IDENTITY_RPC) private readonly rpc: RpcClient,
    @Inject(IDENTITY_REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationBootstrap() {
    await this.rpc.connect();
  }

  async onApplicationShutdown() {
    await this.rpc.close();
    this.redis.disconnect();
  }
}

/**
 * Providers of an IdentityVerifier for a process, given the token of its config. It reads Redis through a request-path
 * connection of its own (ADR 0044): while Redis is away or slow a lookup fails within 250 ms (and asks auth-service)
 * instead of queueing.
 */
export function identityProviders(configToken: symbol, name: string): Provider[] {
  return [
    { provide: IDENTITY_REDIS, inject: [configToken], useFactory: (config: CommonConfig) => createRequestRedis(config.REDIS_URL, `${name}-identity`) },
    {
      provide: IDENTITY_RPC,
      inject: [configToken],
      useFactory: (config: CommonConfig) =>
        new RpcClient({
          natsUrl: config.NATS_URL,
          name: `${name}-identity`,
          timeoutMs: STATE_RPC_TIMEOUT_MS,
          subjectPrefix: config.NATS_SUBJECT_PREFIX,
          checkReplies: config.CHECK_CONTRACTS,
        }),
    },
    {
      provide: IdentityVerifier,
      inject: [configToken, IDENTITY_REDIS, IDENTITY_RPC],
      useFactory: (config: CommonConfig, redis: Redis, rpc: RpcClient) =>
        new IdentityVerifier(new AccessTokenVerifier(parsePublicKeys(config.JWT_PUBLIC_KEYS)), new AccountStates(redis, rpc, config.REDIS_KEY_PREFIX)),
    },
    IdentityLifecycle,
  ];
}
