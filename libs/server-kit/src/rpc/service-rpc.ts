import { Inject, Injectable, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { SERVICE_CONFIG, SERVICE_NAME } from '../bootstrap/service-kit.module';
import type { ServiceConfig } from '../config/env';
import { RpcClient } from './rpc-client';
import { BusIdentity } from '../bus/bus-identity';

const SERVICE_RPC_TIMEOUT_MS = 5000;

/** A service's client for asking other services (list it in the module's providers); connected for the app's life. */
@Injectable()
export class ServiceRpc extends RpcClient implements OnApplicationBootstrap, OnApplicationShutdown {
  constructor(@Inject(SERVICE_CONFIG) config: ServiceConfig, @Inject(SERVICE_NAME) service: string, bus: BusIdentity) {
    super({
      bus,
      natsUrl: config.NATS_URL,
      name: `${service}-rpc`,
      timeoutMs: SERVICE_RPC_TIMEOUT_MS,
      subjectPrefix: config.NATS_SUBJECT_PREFIX,
      checkReplies: config.CHECK_CONTRACTS,
    });
  }

  async onApplicationBootstrap() {
    await this.connect();
  }

  async onApplicationShutdown() {
    await this.close();
  }
}
