import type { OnApplicationBootstrap, OnApplicationShutdown, Provider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { CommonConfig } from '../config/env';
import { BusIdentity } from '../bus/bus-identity';
import { RpcClient } from '../rpc/rpc-client';
import { createRequestRedis } from '../jobs/redis';
import { AccessTokenVerifier } from './access-token';
import { AccountStates } from './account-states';
import { IdentityCache } from './identity-cache';
import { IdentityVerifier } from './identity-verifier';
import { parsePublicKeys } from './jwt-keys';

const STATE_RPC_TIMEOUT_MS = 2000;
export const IDENTITY_RPC = Symbol('IDENTITY_RPC');

export const IDENTITY_REDIS = Symbol('IDENTITY_REDIS');
/** The process's in-memory account states (ADR 0057); auth-service drops what it changes there itself. */
export const IDENTITY_CACHE = Symbol('IDENTITY_CACHE');

/**
 * Keeps the verifier's NATS client (for auth-service's answer on a Redis miss, and the identity.changed notices its
 * in-memory states hear) and Redis connection for the app's life.
 */
export class IdentityLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly rpc: RpcClient,
    private readonly redis: Redis,
    private readonly cache: IdentityCache,
    private readonly subjectPrefix: string,
  ) {}

  async onApplicationBootstrap() {
    await this.rpc.connect();
    await this.cache.listen(this.rpc.connection(), this.subjectPrefix);
  }

  async onApplicationShutdown() {
    this.cache.close();
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
      inject: [configToken, BusIdentity],
      useFactory: (config: CommonConfig, bus: BusIdentity) =>
        new RpcClient({
          bus,
          natsUrl: config.NATS_URL,
          name: `${name}-identity`,
          timeoutMs: STATE_RPC_TIMEOUT_MS,
          subjectPrefix: config.NATS_SUBJECT_PREFIX,
          checkReplies: config.CHECK_CONTRACTS,
        }),
    },
    { provide: IDENTITY_CACHE, useFactory: () => new IdentityCache() },
    {
      provide: IdentityVerifier,
      inject: [configToken, IDENTITY_REDIS, IDENTITY_RPC, IDENTITY_CACHE, BusIdentity],
      useFactory: (config: CommonConfig, redis: Redis, rpc: RpcClient, cache: IdentityCache, bus: BusIdentity) =>
        new IdentityVerifier(new AccessTokenVerifier(parsePublicKeys(config.JWT_PUBLIC_KEYS)), new AccountStates(redis, rpc, config.REDIS_KEY_PREFIX, bus.keys, cache)),
    },
    {
      provide: IdentityLifecycle,
      inject: [IDENTITY_RPC, IDENTITY_REDIS, IDENTITY_CACHE, configToken],
      useFactory: (rpc: RpcClient, redis: Redis, cache: IdentityCache, config: CommonConfig) => new IdentityLifecycle(rpc, redis, cache, config.NATS_SUBJECT_PREFIX),
    },
  ];
}
