import { Module, type DynamicModule, type OnApplicationShutdown, Inject } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import { HealthController, READINESS_CHECKS, connectNats, createRedis, natsCheck, redisCheck } from '@market/server-kit';
import { GATEWAY_CONFIG, type GatewayConfig } from './gateway.config';
import { RpcClient } from './rpc/rpc-client';
import { JwtStrategy } from './auth/jwt.strategy';
import { AuthController } from './auth/auth.controller';

export const GATEWAY_NATS = Symbol('GATEWAY_NATS');
export const GATEWAY_REDIS = Symbol('GATEWAY_REDIS');

class GatewayConnections implements OnApplicationShutdown {
  constructor(
    @Inject(GATEWAY_NATS) private readonly nc: NatsConnection,
    @Inject(GATEWAY_REDIS) private readonly redis: Redis,
  ) {}

  async onApplicationShutdown() {
    await this.nc.drain().catch(() => undefined);
    this.redis.disconnect();
  }
}

/** The gateway: the only public HTTP entry; routes /api to services over NATS. */
@Module({})
export class GatewayModule {
  static register(config: GatewayConfig): DynamicModule {
    return {
      module: GatewayModule,
      imports: [PassportModule],
      controllers: [HealthController, AuthController],
      providers: [
        { provide: GATEWAY_CONFIG, useValue: config },
        { provide: GATEWAY_NATS, useFactory: () => connectNats(config.NATS_URL, 'gateway') },
        { provide: GATEWAY_REDIS, useFactory: () => createRedis(config.REDIS_URL, 'gateway') },
        {
          provide: READINESS_CHECKS,
          inject: [GATEWAY_NATS, GATEWAY_REDIS],
          useFactory: (nc: NatsConnection, redis: Redis) => [natsCheck(nc), redisCheck(redis)],
        },
        GatewayConnections,
        RpcClient,
        JwtStrategy,
      ],
    };
  }
}
