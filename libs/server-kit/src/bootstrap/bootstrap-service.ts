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
import { IdempotencyInterceptor } from '../idempotency/idempotency.interceptor';
import { DataSource } from 'typeorm';

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
  app.useGlobalInterceptors(new RpcContextInterceptor(), new IdentityInterceptor(app.get(IdentityVerifier)), new IdempotencyInterceptor(app.get(DataSource)));
  const strategy = new PrefixedNatsServer(
    { ...natsTarget(options.config.NATS_URL), name: `${options.service}-rpc`, maxReconnectAttempts: -1, reconnectTimeWait: 500 },
    options.config.NATS_SUBJECT_PREFIX,
    options.service,
  );
  app.connectMicroservice<MicroserviceOptions>({ strategy }, { inheritAppConfig: true });
  app.enableShutdownHooks();
  await app.startAllMicroservices();
  await app.listen(options.healthPort ?? options.config.HEALTH_PORT ?? options.defaultHealthPort, process.env.HOST ?? '0.0.0.0');
  return app;
}

/** Entry point of a service process: a start failure is one log line and exit code 1. */
export async function bootstrapService(options: BootstrapOptions): Promise<void> {
  const logger = new JsonLogger(options.service, options.config.LOG_LEVEL);
  try {
    const app = await createServiceApp(options);
    const url = await app.getUrl();
    logger.log(`${options.service} started; health at ${url}/healthz`, 'Bootstrap');
  } catch (error) {
    logger.error(`${options.service} failed to start: ${(error as Error).message}`, 'Bootstrap');
    process.exit(1);
  }
}
