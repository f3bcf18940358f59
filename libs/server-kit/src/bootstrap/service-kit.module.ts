import {
  Global,
  Inject,
  Logger,
  Module,
  type DynamicModule,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type Provider,
} from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { NatsConnection } from 'nats';
import type { Redis } from 'ioredis';
import { STREAM_LIMITS_OWNER, type ServiceName } from '@market/contracts';
import type { ServiceConfig } from '../config/env';
import { consumerLimits, streamLimits } from '../config/growth-env';
import { openServiceDatabase } from '../database/data-source';
import { databaseLimits } from '../database/pool-options';
import { RetentionSweep, serviceRetention, type RetentionRule } from '../jobs/retention.sweep';
import type { RetentionPeriods } from '../config/growth-env';
import { serviceMigrations, type ServiceDatabase } from '../database/service-database';
import { connectNats } from '../nats/nats.connection';
import { ensureEventStream } from '../events/jetstream';
import { OutboxRelay } from '../events/outbox.relay';
import { EventConsumers } from '../events/event-consumer';
import { createRedis } from '../jobs/redis';
import { HealthController } from '../health/health.controller';
import { ServingState } from '../health/serving-state';
import { READINESS_CHECKS, natsCheck, postgresCheck, redisCheck } from '../health/readiness';
import { IDENTITY_CACHE, IDENTITY_REDIS, identityProviders } from '../identity/identity.providers';
import { IdentityVerifier } from '../identity/identity-verifier';
import { KitMetrics } from '../metrics/kit.metrics';
import { MetricsController } from '../metrics/metrics.controller';
import { flushTraces } from '../tracing/start-tracing';
import { BusIdentity, busIdentity, checkBusKeys } from '../bus/bus-identity';
import { signEventsWith } from '../events/outbox.writer';

export const SERVICE_CONFIG = Symbol('SERVICE_CONFIG');
export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const REDIS = Symbol('REDIS');
export const SERVICE_NAME = Symbol('SERVICE_NAME');

export interface ServiceKitOptions extends ServiceDatabase {
  service: ServiceName;
  config: ServiceConfig;
  /** The service's own tables that only grow, deleted by the retention job with the kit's (ADR 0046). */
  retention?: (periods: RetentionPeriods) => RetentionRule[];
}

/** Closes what the kit opened, in reverse order, when the process stops. */
class ServiceKitLifecycle implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(
    private readonly relay: OutboxRelay,
    private readonly consumers: EventConsumers,
    private readonly dataSource: DataSource,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap() {
    this.relay.start();
  }

  async onApplicationShutdown() {
    await this.consumers.stop();
    await this.relay.stop();
    await this.nc.drain().catch(() => undefined);
    this.redis.disconnect();
    if (this.dataSource.isInitialized) await this.dataSource.destroy();
    await flushTraces();
  }
}

/** Wires a service to its PostgreSQL schema, NATS, JetStream events, Redis and health checks. */
@Global()
@Module({})
export class ServiceKitModule {
  static forRoot(options: ServiceKitOptions): DynamicModule {
    const stream = { stream: options.config.EVENTS_STREAM, prefix: options.config.EVENTS_PREFIX };
    const providers: Provider[] = [
      { provide: SERVICE_CONFIG, useValue: options.config },
      { provide: SERVICE_NAME, useValue: options.service },
      // This process's key and every process's public keys: what it sends is signed, what it receives is checked (D25).
      { provide: BusIdentity, useFactory: () => checkBusKeys(busIdentity(options.service, options.config)) },
      {
        provide: DataSource,
        inject: [BusIdentity],
        useFactory: async (bus: BusIdentity) =>
          // Every event this service writes is signed as it is written (ADR 0065).
          signEventsWith(bus, await openServiceDatabase({
            url: options.config.DATABASE_URL,
            schema: options.schema,
            entities: options.entities,
            migrations: serviceMigrations(options),
            limits: databaseLimits(options.config, options.service),
            // Off in Kubernetes: the migrate Job applies them and a pod waits for it, never serving an older schema (ADR 0053).
            migrationsOnStart: options.config.MIGRATIONS_ON_START,
            onWaitForMigrations: (why) => new Logger('Migrations').warn(`Waiting to start: ${why}`),
          })),
      },
      {
        provide: NATS_CONNECTION,
        useFactory: async () => {
          const nc = await connectNats(options.config.NATS_URL, options.service);
          await ensureEventStream(nc, stream, streamLimits(options.config), options.service === STREAM_LIMITS_OWNER);
          return nc;
        },
      },
      { provide: REDIS, useFactory: () => createRedis(options.config.REDIS_URL, options.service) },
      {
        provide: OutboxRelay,
        inject: [DataSource, NATS_CONNECTION],
        useFactory: (ds: DataSource, nc: NatsConnection) => new OutboxRelay(ds, nc, stream),
      },
      {
        provide: EventConsumers,
        inject: [DataSource, NATS_CONNECTION, BusIdentity],
        useFactory: (ds: DataSource, nc: NatsConnection, bus: BusIdentity) => new EventConsumers(ds, nc, stream, options.service, bus, consumerLimits(options.config)),
      },
      {
        provide: READINESS_CHECKS,
        inject: [DataSource, NATS_CONNECTION, REDIS],
        useFactory: (ds: DataSource, nc: NatsConnection, redis: Redis) => [postgresCheck(ds), natsCheck(nc), redisCheck(redis)],
      },
      { provide: RetentionSweep, inject: [DataSource], useFactory: (ds: DataSource) => serviceRetention(ds, options.config, options.retention) },
      ServiceKitLifecycle,
      ServingState,
      { provide: KitMetrics, inject: [DataSource, NATS_CONNECTION], useFactory: (ds: DataSource, nc: NatsConnection) => new KitMetrics(ds, nc, options.config, options.service) },
      ...identityProviders(SERVICE_CONFIG, options.service),
    ];
    return {
      module: ServiceKitModule,
      controllers: [HealthController, MetricsController],
      providers,
      exports: [BusIdentity, ServingState, SERVICE_CONFIG, SERVICE_NAME, DataSource, NATS_CONNECTION, REDIS, IDENTITY_REDIS, IDENTITY_CACHE, OutboxRelay, EventConsumers, IdentityVerifier],
    };
  }
}
