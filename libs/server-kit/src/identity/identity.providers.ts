import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown, type Provider } from '@nestjs/common';
import type { Redis } from 'ioredis';
import type { CommonConfig } from '../config/env';
import { RpcClient } from '../rpc/rpc-client';
import { AccessTokenVerifier } from './access-token';
import { AccountStates } from './account-states';
import { IdentityVerifier } from './identity-verifier';
import { parsePublicKeys } from './jwt-keys';

const STATE_RPC_TIMEOUT_MS = 2000;
export const IDENTITY_RPC = Symbol('IDENTITY_RPC');

/** Keeps the verifier's NATS client (for auth-service's answer on a Redis miss) connected for the app's life. */
@Injectable()
export class IdentityLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(IDENTITY_RPC) private readonly rpc: RpcClient) {}

  async onApplicationBootstrap() {
    await this.rpc.connect();
  }

  async onApplicationShutdown() {
    await this.rpc.close();
  }
}

/** Providers of an IdentityVerifier for a process, given the tokens of its config and Redis connection. */
export function identityProviders(configToken: symbol, redisToken: symbol, name: string): Provider[] {
  return [
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
      inject: [configToken, redisToken, IDENTITY_RPC],
      useFactory: (config: CommonConfig, redis: Redis, rpc: RpcClient) =>
        new IdentityVerifier(new AccessTokenVerifier(parsePublicKeys(config.JWT_PUBLIC_KEYS)), new AccountStates(redis, rpc, config.REDIS_KEY_PREFIX)),
    },
    IdentityLifecycle,
  ];
}
