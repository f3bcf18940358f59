import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import type { MicroserviceOptions } from '@nestjs/microservices';
import { PrefixedNatsServer } from '../rpc/prefixed-nats';
import { natsTarget } from '../nats/nats-target';
import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import type { ServiceName } from '@market/contracts';
import { checkSubjectSpaces, type ServiceConfig } from '../config/env';
import { JsonLogger } from '../logging/json-logger';
import { AllErrorsFilter } from '../errors/error.filter';
import { RpcContextInterceptor } from '../rpc/rpc-context.interceptor';
import { IdentityInterceptor } from '../identity/identity.interceptor';
import { IdentityVerifier } from '../identity/identity-verifier';
import { READINESS_CHECKS, waitUntilReady, type ReadinessCheck } from '../health/readiness';
import { ServingState } from '../health/serving-state';
import { RpcMetricsInterceptor } from '../metrics/rpc.metrics';
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { RpcInterceptorChain } from '../rpc/rpc-interceptor-chain';
import { DataSource } from 'typeorm';
import { BusIdentity } from '../bus/bus-identity';
import { refuseOpenInfra } from '../config/open-infra';

export interface BootstrapOptions {
  service: ServiceName;
  module: Type<unknown> | DynamicModule;
  config: ServiceConfig;
  defaultHealthPort: number;
  /** 0 picks a free port (tests). */
  healthPort?: number;
}

/** Builds a Nest app that answers its NATS subjects in the service's queue group and serves /healthz and /readyz. */
export async function createServiceApp(options: BootstrapOptions): Promise<INestApplication> {
  checkSubjectSpaces(options.config);
  const logger = new JsonLogger(options.service, options.config.LOG_LEVEL);
  const app = await NestFactory.create(options.module, { logger, abortOnError: false });
  // Global enhancers first: the NATS server copies the app's config when it is connected.
  app.useGlobalFilters(new AllErrorsFilter());
  // Every NATS request's caller comes from its verified token, never from what the message says (ADR 0030).
  // A retried write with an Idempotency-Key answers its first result, once the caller is known (ADR 0047).
  // One Nest interceptor runs the four in this order: Nest's wrapping of each cost more than they do (ADR 0057).
  app.useGlobalInterceptors(
    new RpcInterceptorChain([
      new RpcMetricsInterceptor(options.config.NATS_SUBJECT_PREFIX),
      new RpcContextInterceptor(),
      new IdentityInterceptor(app.get(IdentityVerifier)),
      new IdempotencyInterceptor(app.get(DataSource)),
    ]),
  );
  const strategy = new PrefixedNatsServer(
    { ...natsTarget(options.config.NATS_URL), name: `${options.service}-rpc`, maxReconnectAttempts: -1, reconnectTimeWait: 500 },
    options.config.NATS_SUBJECT_PREFIX,
    options.service,
    app.get(BusIdentity),
  );
  app.connectMicroservice<MicroserviceOptions>({ strategy }, { inheritAppConfig: true });
  // Join the queue group only once the service can serve: NATS would send it requests at once (ADR 0050).
  await app.init();
  await waitUntilReady(app.get<ReadinessCheck[]>(READINESS_CHECKS), (why) => logger.warn(`Waiting to serve: ${why}`, 'Bootstrap'));
  await app.startAllMicroservices();
  // SUB goes out asynchronously; a restarted replica counts as serving only once NATS routes to it.
  await strategy.subscribed();
  app.get(ServingState).attach(strategy);
  await app.listen(options.healthPort ?? options.config.HEALTH_PORT ?? options.defaultHealthPort, options.config.METRICS_HOST);
  return app;
}

/** Entry point of a service process: a start failure is one log line and exit code 1. */
export async function bootstrapService(options: BootstrapOptions): Promise<void> {
  const logger = new JsonLogger(options.service, options.config.LOG_LEVEL);
  try {
    await refuseOpenInfra(options.config);
    const app = await createServiceApp(options);
    drainOnSignals(app, options.config, logger);
    const url = await app.getUrl();
    logger.log(`${options.service} started; health at ${url}/healthz`, 'Bootstrap');
  } catch (error) {
    logger.error(`${options.service} failed to start: ${(error as Error).message}`, 'Bootstrap');
    process.exit(1);
  }
}

/**
 * SIGTERM or SIGINT: report not ready, stop taking requests, answer those in flight, then close (ADR 0050). A second
 * signal while draining stops at once.
 */
export function drainOnSignals(app: INestApplication, config: Pick<ServiceConfig, 'SHUTDOWN_DELAY_MS' | 'DRAIN_TIMEOUT_MS'>, logger: JsonLogger): void {
  let draining = false;
  const stop = (signal: NodeJS.Signals) => {
    if (draining) process.exit(1);
    draining = true;
    logger.log(`${signal}: draining (not ready now; requests in flight are answered)`, 'Bootstrap');
    void (async () => {
      const drained = await app.get(ServingState).drain({ delayMs: config.SHUTDOWN_DELAY_MS, timeoutMs: config.DRAIN_TIMEOUT_MS });
      if (!drained) logger.warn(`Requests still in flight after ${config.DRAIN_TIMEOUT_MS} ms; closing anyway`, 'Bootstrap');
      await app.close();
      process.exit(0);
    })().catch((error: Error) => {
      logger.error(`Shutdown failed: ${error.message}`, 'Bootstrap');
      process.exit(1);
    });
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}
